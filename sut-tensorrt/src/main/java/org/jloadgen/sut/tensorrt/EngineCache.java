package org.jloadgen.sut.tensorrt;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

import org.jloadgen.sut.AtomicFiles;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * Built engines on disk, so a model is built once per GPU kind, TensorRT version and build settings: the key is the
 * SHA-256 of the model file's SHA-256, the TensorRT version, the GPU's identity (name and compute capability) and
 * every build setting ({@link EngineBuild#canonical()}). An engine is kept as {@code <model>-<key prefix>.engine}
 * with a {@code .txt} beside it listing what the key was made of. Within one process an engine is built once per
 * key even without a cache folder (several GPUs of one kind).
 */
public final class EngineCache
{
    /** The first line of every key, changed when the key's recipe changes. */
    public static final String KEY_VERSION = "jloadgen-tensorrt-engine-key-v1";
    /** Hex digits of the key in the file name. */
    public static final int NAME_KEY_DIGITS = 16;

    private final Path dir;
    private final Map<String, byte[]> built = new HashMap<>();

    /**
     * @param dir the cache folder, or {@code null} to keep engines in this process only.
     */
    public EngineCache(final Path dir)
    {
        this.dir = dir;
    }

    /**
     * An engine and where it came from.
     *
     * @param plan        the serialized engine.
     * @param key         its cache key.
     * @param file        the cached file, or {@code null}.
     * @param built       whether it was built just now.
     * @param description one line for the console.
     */
    public record Obtained(byte[] plan, String key, Path file, boolean built, String description)
    {
    }

    /**
     * @param modelSha256 the model file's SHA-256.
     * @param tensorRt    the TensorRT version.
     * @param gpu         the GPU's identity.
     * @param build       the build settings.
     * @return the cache key, 64 hex digits.
     */
    public static String key(final String modelSha256, final String tensorRt, final String gpu,
        final EngineBuild build)
    {
        return sha256(recipe(modelSha256, tensorRt, gpu, build).getBytes(StandardCharsets.UTF_8));
    }

    private static String recipe(final String modelSha256, final String tensorRt, final String gpu,
        final EngineBuild build)
    {
        return KEY_VERSION + "\nmodel_sha256 " + modelSha256 + "\ntensorrt " + tensorRt + "\ngpu " + gpu + "\nbuild "
            + build.canonical() + "\n";
    }

    /**
     * Returns the cached engine for the key, or builds it on the GPU and caches it.
     *
     * @param backend builds the engine.
     * @param gpu     the GPU it is for.
     * @param build   what to build.
     * @return the engine.
     * @throws UncheckedIOException when the model cannot be read or the cache cannot be written.
     */
    public Obtained obtain(final DeviceBackend backend, final Gpu gpu, final EngineBuild build)
    {
        final String modelSha = sha256(build.model());
        final String recipe = recipe(modelSha, backend.tensorRtVersion(), gpu.identity(), build);
        final String key = sha256(recipe.getBytes(StandardCharsets.UTF_8));
        final Path file = file(build.model(), key);
        final byte[] kept = built.get(key);
        if (kept != null)
        {
            return new Obtained(kept, key, file, false, "the engine already built for GPU " + gpu.ordinal()
                + "'s kind");
        }
        try
        {
            if (file != null && Files.isRegularFile(file))
            {
                final byte[] plan = Files.readAllBytes(file);
                built.put(key, plan);
                return new Obtained(plan, key, file, false, "cached engine " + file);
            }
            final long startNs = System.nanoTime();
            final byte[] plan = backend.build(gpu, build);
            final double seconds = (System.nanoTime() - startNs) / 1e9;
            built.put(key, plan);
            if (file == null)
            {
                return new Obtained(plan, key, null, true, String.format(Locale.ROOT,
                    "built in %.1f s (engine cache off)", seconds));
            }
            Files.createDirectories(dir);
            AtomicFiles.write(file, plan);
            AtomicFiles.write(file.resolveSibling(file.getFileName() + ".txt"),
                recipe.getBytes(StandardCharsets.UTF_8));
            return new Obtained(plan, key, file, true, String.format(Locale.ROOT, "built in %.1f s, cached as %s",
                seconds, file));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("engine cache " + dir + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Forgets an engine that did not deserialize (written by another TensorRT, or damaged), so the next
     * {@link #obtain} builds it again.
     *
     * @param obtained what {@link #obtain} returned.
     */
    public void evict(final Obtained obtained)
    {
        built.remove(obtained.key());
        if (obtained.file() != null)
        {
            try
            {
                Files.deleteIfExists(obtained.file());
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot remove the unusable cached engine " + obtained.file(), ex);
            }
        }
    }

    /**
     * @param model the model.
     * @param key   its key.
     * @return where the engine is cached, or {@code null} without a cache folder.
     */
    public Path file(final Path model, final String key)
    {
        if (dir == null)
        {
            return null;
        }
        final String name = model.getFileName().toString();
        final String stem = name.toLowerCase(Locale.ROOT).endsWith(".onnx") ? name.substring(0, name.length() - 5)
            : name;
        return dir.resolve(stem + "-" + key.substring(0, NAME_KEY_DIGITS) + ".engine");
    }

    /**
     * @return the cache folder, or {@code null}.
     */
    public Path dir()
    {
        return dir;
    }

    /**
     * @param file a file.
     * @return its SHA-256 in hex.
     * @throws UncheckedIOException naming the file when it cannot be read.
     */
    public static String sha256(final Path file)
    {
        final MessageDigest digest = digest();
        try (InputStream in = Files.newInputStream(file))
        {
            final byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer))
            {
                digest.update(buffer, 0, n);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read model " + file + ": " + ex.getMessage(), ex);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static String sha256(final byte[] bytes)
    {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    private static MessageDigest digest()
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
