package org.jloadgen.sut.cpu;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.sut.AtomicFiles;
import org.jloadgen.sut.CacheDirectory;
import org.jloadgen.sut.DatasetDescriptor;

/**
 * The embedded default: the Fashion-MNIST MLP ({@code model.onnx}, input {@code pixels} uint8 [N,1,28,28], output
 * {@code logits} float32 [N,10], 89.19% top-1) and the Fashion-MNIST test set, shipped as resources (see
 * {@code sut-cpu/model/README.md}). {@link #prepare(Path)} extracts them once into a cache folder: the model as it
 * is, the gzip'ed IDX files decompressed, so the sample library maps the images as a raw file (16-byte header,
 * 10,000 samples of 1x28x28 uint8) and the labels are an IDX1 file. Each file is checked against the SHA-256 in
 * {@code model.json} while it is extracted, and reused on later runs when its size and header match.
 */
public final class FashionMnist
{
    /** Test images. */
    public static final int SAMPLE_COUNT = 10_000;
    /** Correct top-1 predictions of the model on the test set ({@code model.json} {@code test_correct}). */
    public static final int KNOWN_CORRECT = 8_919;
    /** Bytes of the IDX3 header before the first image. */
    public static final int IMAGE_HEADER_BYTES = 16;
    /** Bytes of the IDX1 header before the first label. */
    public static final int LABEL_HEADER_BYTES = 8;
    /** Image side in pixels. */
    public static final int SIDE = 28;
    /** System property naming the cache folder. */
    public static final String CACHE_DIR_PROP_NAME = CacheDirectory.PROP_NAME;
    /** Environment variable naming the cache folder (when the property is not set). */
    public static final String CACHE_DIR_ENV_NAME = CacheDirectory.ENV_NAME;

    private static final String RESOURCES = "/org/jloadgen/sut/cpu/fashionmnist/";
    private static final String MODEL = "model.onnx";
    private static final String IMAGES_GZ = "t10k-images-idx3-ubyte.gz";
    private static final String LABELS_GZ = "t10k-labels-idx1-ubyte.gz";
    private static final String IMAGES = "t10k-images-idx3-ubyte";
    private static final String LABELS = "t10k-labels-idx1-ubyte";
    private static final int IMAGES_MAGIC = 0x00000803;
    private static final int LABELS_MAGIC = 0x00000801;

    private FashionMnist()
    {
    }

    /**
     * @return the cache folder ({@link CacheDirectory#root()}).
     */
    public static Path defaultCacheDir()
    {
        return CacheDirectory.root();
    }

    /**
     * Extracts the model and test set into {@code cacheRoot} (once) and describes them for {@link CpuSut}.
     *
     * @param cacheRoot the cache folder; a subfolder named after the model's hash holds the files.
     * @return model, images (raw, 16-byte header), labels, input and output names.
     * @throws UncheckedIOException when the files cannot be written or a resource does not match its hash.
     */
    public static ModelDescriptor prepare(final Path cacheRoot)
    {
        try
        {
            final String metadata = resourceText("model.json");
            final String modelSha = sha(metadata, MODEL);
            final Path dir = cacheRoot.resolve("fashion-mnist-" + modelSha.substring(0, 12));
            Files.createDirectories(dir);
            final Path model = dir.resolve(MODEL);
            final Path images = dir.resolve(IMAGES);
            final Path labels = dir.resolve(LABELS);
            if (!Files.isRegularFile(model) || Files.size(model) != resourceSize(MODEL))
            {
                extract(MODEL, false, modelSha, model);
            }
            if (!isIdx(images, IMAGES_MAGIC, IMAGE_HEADER_BYTES + (long)SAMPLE_COUNT * SIDE * SIDE))
            {
                extract(IMAGES_GZ, true, sha(metadata, IMAGES_GZ), images);
            }
            if (!isIdx(labels, LABELS_MAGIC, LABEL_HEADER_BYTES + (long)SAMPLE_COUNT))
            {
                extract(LABELS_GZ, true, sha(metadata, LABELS_GZ), labels);
            }
            return new ModelDescriptor("ONNXRuntime-CPU(fashion-mnist-mlp)", model, "pixels", "logits",
                new DatasetDescriptor(images, labels, DType.UINT8, new long[] {1, SIDE, SIDE}, IMAGE_HEADER_BYTES,
                    SAMPLE_COUNT, null, SAMPLE_COUNT, SampleStore.Placement.COPY, 0,
                    "none: raw IDX pixels; the graph casts to float32 and normalises ((x / 255 - 0.2860) / 0.3530)"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot extract the embedded Fashion-MNIST model into " + cacheRoot + ": "
                + ex.getMessage(), ex);
        }
    }

    private static void extract(final String resource, final boolean gunzip, final String expectedSha,
        final Path target) throws IOException
    {
        final MessageDigest digest = sha256();
        final Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        try
        {
            try (InputStream raw = open(resource);
                DigestInputStream hashed = new DigestInputStream(raw, digest);
                InputStream in = gunzip ? new GZIPInputStream(hashed, 1 << 16) : hashed;
                OutputStream out = Files.newOutputStream(tmp))
            {
                in.transferTo(out);
                // Drain what gzip did not read, so that the hash covers the whole resource.
                hashed.transferTo(OutputStream.nullOutputStream());
            }
            final String actual = HexFormat.of().formatHex(digest.digest());
            if (!actual.equals(expectedSha))
            {
                throw new IOException("resource " + resource + " has SHA-256 " + actual + ", model.json says "
                    + expectedSha + " (a damaged jar?)");
            }
            AtomicFiles.replace(tmp, target);
        }
        finally
        {
            Files.deleteIfExists(tmp);
        }
    }

    private static boolean isIdx(final Path file, final int magic, final long bytes) throws IOException
    {
        if (!Files.isRegularFile(file) || Files.size(file) != bytes)
        {
            return false;
        }
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file)))
        {
            return in.readInt() == magic && in.readInt() == SAMPLE_COUNT;
        }
    }

    private static InputStream open(final String resource) throws IOException
    {
        final InputStream in = FashionMnist.class.getResourceAsStream(RESOURCES + resource);
        if (in == null)
        {
            throw new IOException("resource " + RESOURCES + resource + " is missing from the class path");
        }
        return in;
    }

    private static long resourceSize(final String resource) throws IOException
    {
        try (InputStream in = open(resource))
        {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }

    private static String resourceText(final String resource) throws IOException
    {
        try (InputStream in = open(resource))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String sha(final String metadata, final String file) throws IOException
    {
        final Matcher m = Pattern.compile("\"" + Pattern.quote(file) + "\"\\s*:\\s*\"([0-9a-f]{64})\"")
            .matcher(metadata);
        if (!m.find())
        {
            throw new IOException("model.json has no SHA-256 for " + file);
        }
        return m.group(1);
    }

    private static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("the JDK has no SHA-256", ex);
        }
    }
}
