package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.jloadgen.samples.ArraySource;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.FileSetSource;
import org.jloadgen.samples.RawFormat;
import org.jloadgen.samples.SampleSource;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.sut.network.SutOptions;

/**
 * The samples a network client sends: a dataset file or folder read into a {@link SampleStore} as it is (the QDL
 * rules forbid converting, padding or batching them), or synthetic bytes when no dataset is given.
 * <p>
 * Keys: {@value #DATASET} (a {@code .npy} whose first axis is the samples, a raw file, or a folder of per-sample
 * {@code .npy}/raw files), {@value #DTYPE}, {@value #SAMPLE_SHAPE}, {@value #HEADER_BYTES}, {@value #SAMPLE_COUNT}
 * and {@value #FILES} for raw data, {@value #PERFORMANCE_COUNT}; without a dataset {@value #SAMPLE_BYTES}
 * synthetic bytes per sample and the command line's {@code --qsl-total}/{@code --qsl-performance}.
 */
public final class Dataset
{
    /** The dataset path. */
    public static final String DATASET = "dataset";
    /** Raw dtype. */
    public static final String DTYPE = "dtype";
    /** Raw sample shape. */
    public static final String SAMPLE_SHAPE = "sample-shape";
    /** Raw header bytes. */
    public static final String HEADER_BYTES = "header-bytes";
    /** Raw sample count. */
    public static final String SAMPLE_COUNT = "sample-count";
    /** Glob of a folder's files. */
    public static final String FILES = "files";
    /** QSL performance count. */
    public static final String PERFORMANCE_COUNT = "performance-count";
    /** Synthetic sample size. */
    public static final String SAMPLE_BYTES = "sample-bytes";
    /** Default synthetic sample size. */
    public static final long SAMPLE_BYTES_DEFAULT = 64;
    /** Default budget of the performance set when none is given: 1 GiB. */
    public static final long PERFORMANCE_BYTES_DEFAULT = 1L << 30;

    private Dataset()
    {
    }

    /**
     * What the dataset options say, read before anything is opened so that a bad option fails first.
     *
     * @param dataset     the dataset path, or {@code null} for synthetic samples.
     * @param raw         the raw format, or {@code null}.
     * @param sampleCount raw sample count, -1 for the whole file.
     * @param files       glob of a folder's files, or {@code null}.
     * @param performance performance sample count, 0 for the default.
     * @param sampleBytes synthetic sample size.
     */
    public record Spec(Path dataset, RawFormat raw, long sampleCount, String files, long performance,
        long sampleBytes)
    {
        /**
         * Opens the samples.
         *
         * @param qslTotalCount       {@code --qsl-total}, for synthetic samples.
         * @param qslPerformanceCount {@code --qsl-performance}, for synthetic samples.
         * @return a sample library over a copied slab.
         * @throws IllegalArgumentException naming the file that is wrong.
         */
        public SampleStoreLibrary open(final long qslTotalCount, final long qslPerformanceCount)
        {
            if (dataset == null)
            {
                final SyntheticSource source = new SyntheticSource(qslTotalCount, sampleBytes);
                return library("SyntheticBytesQSL(" + sampleBytes + " B)", source,
                    performance > 0 ? Math.min(performance, qslTotalCount) : qslPerformanceCount);
            }
            final SampleSource source = openSource(dataset, raw, sampleCount, files);
            if (source.sampleCount() == 0)
            {
                source.close();
                throw new IllegalArgumentException("dataset " + source.description() + " has no samples");
            }
            final long perf = performance > 0 ? Math.min(performance, source.sampleCount())
                : Math.min(source.sampleCount(),
                    Math.max(1, PERFORMANCE_BYTES_DEFAULT / Math.max(1, source.sampleBytes(0))));
            return library("SampleStoreQSL(" + dataset.getFileName() + ")", source, perf);
        }
    }

    /**
     * Reads the dataset options.
     *
     * @param options the SUT's options.
     * @return what they say.
     * @throws IllegalArgumentException naming the option that is wrong.
     */
    public static Spec spec(final SutOptions options)
    {
        final Path dataset = options.path(DATASET);
        final String dtype = options.string(DTYPE, null);
        final String shape = options.string(SAMPLE_SHAPE, null);
        final long headerBytes = options.integer(HEADER_BYTES, 0, 0);
        final long sampleCount = options.integer(SAMPLE_COUNT, -1, -1);
        final String files = options.string(FILES, null);
        final long performance = options.integer(PERFORMANCE_COUNT, 0, 0);
        final long syntheticBytes = options.integer(SAMPLE_BYTES, SAMPLE_BYTES_DEFAULT, 0);
        if (dataset == null)
        {
            if (dtype != null || shape != null || files != null || options.has(HEADER_BYTES)
                || options.has(SAMPLE_COUNT))
            {
                throw new IllegalArgumentException("dtype, sample-shape, header-bytes, sample-count and files "
                    + "describe a dataset: give --dataset too");
            }
            return new Spec(null, null, -1, null, performance, syntheticBytes);
        }
        if (options.has(SAMPLE_BYTES))
        {
            throw new IllegalArgumentException("sample-bytes makes up synthetic samples; it cannot go with --dataset");
        }
        final RawFormat raw = dtype == null && shape == null ? null
            : new RawFormat(parseDtype(dtype), headerBytes, shape == null ? null : parseShape(shape));
        return new Spec(dataset, raw, sampleCount, files, performance, syntheticBytes);
    }

    private static SampleStoreLibrary library(final String name, final SampleSource source, final long performance)
    {
        try
        {
            return new SampleStoreLibrary(name, SampleStore.builder(source).build(), performance);
        }
        catch (final RuntimeException ex)
        {
            source.close();
            throw ex;
        }
    }

    private static SampleSource openSource(final Path dataset, final RawFormat raw, final long sampleCount,
        final String glob)
    {
        try
        {
            if (Files.isDirectory(dataset))
            {
                final String pattern = glob != null ? glob : containsNpy(dataset) ? "*.npy" : "*";
                final List<Path> files = FileSetSource.filesIn(dataset, pattern);
                if (pattern.toLowerCase(Locale.ROOT).endsWith(".npy"))
                {
                    return FileSetSource.npy(files);
                }
                return FileSetSource.raw(files, requireRaw(dataset, raw));
            }
            if (!Files.isRegularFile(dataset))
            {
                throw new IllegalArgumentException("dataset not found: " + dataset);
            }
            if (dataset.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy"))
            {
                return ArraySource.npy(dataset);
            }
            final RawFormat format = requireRaw(dataset, raw);
            if (format.sampleShape() == null)
            {
                throw new IllegalArgumentException("raw dataset " + dataset + " needs --sut-opt sample-shape=...");
            }
            return ArraySource.raw(dataset, format, sampleCount);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read dataset " + dataset + ": " + ex.getMessage(), ex);
        }
    }

    private static RawFormat requireRaw(final Path dataset, final RawFormat raw)
    {
        if (raw == null || raw.dtype() == null)
        {
            throw new IllegalArgumentException("raw dataset " + dataset + " needs --sut-opt dtype=... (e.g. float32) "
                + "and sample-shape=...; a network client sends samples as they are and cannot take them from a model");
        }
        return raw;
    }

    private static boolean containsNpy(final Path dir) throws IOException
    {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.npy"))
        {
            return entries.iterator().hasNext();
        }
    }

    private static DType parseDtype(final String text)
    {
        if (text == null)
        {
            throw new IllegalArgumentException("sample-shape needs dtype too (e.g. --sut-opt dtype=float32)");
        }
        try
        {
            return DType.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(DTYPE + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param text dimensions separated by commas, {@code x} or spaces, optionally in brackets: {@code 3,224,224}.
     * @return the dimensions.
     */
    static long[] parseShape(final String text)
    {
        final String inner = text.strip().replaceAll("^[\\[(]|[\\])]$", "").strip();
        if (inner.isEmpty())
        {
            return new long[0];
        }
        final String[] parts = inner.split("\\s*[,x]\\s*|\\s+");
        final long[] dims = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                dims[i] = Long.parseLong(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(SAMPLE_SHAPE + " must be dimensions such as 3,224,224, got '"
                    + text + "'", ex);
            }
            if (dims[i] < 0)
            {
                throw new IllegalArgumentException(SAMPLE_SHAPE + " has a negative dimension: '" + text + "'");
            }
        }
        return dims;
    }
}
