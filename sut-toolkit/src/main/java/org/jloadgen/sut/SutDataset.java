package org.jloadgen.sut;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.accuracy.Labels;
import org.jloadgen.samples.ArraySource;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.FileSetSource;
import org.jloadgen.samples.RawFormat;
import org.jloadgen.samples.SampleSource;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;

/**
 * A SUT's samples and labels, opened from a {@link DatasetDescriptor} and checked against the model input: the
 * sample library (a {@link SampleStoreLibrary}, samples of one shape), the labels by QSL index, and top-1 scoring of
 * accuracy logs with the same code as {@code jloadgen accuracy}. Shared by the {@code cpu} and {@code tensorrt} SUTs.
 */
public final class SutDataset implements AutoCloseable
{
    /** Default budget for the QSL's performance samples when none is given: 1 GiB. */
    public static final long PERFORMANCE_BYTES_DEFAULT = 1L << 30;

    private final DatasetDescriptor descriptor;
    private final SampleStoreLibrary library;
    private final int[] labels;

    private SutDataset(final DatasetDescriptor descriptor, final SampleStoreLibrary library, final int[] labels)
    {
        this.descriptor = descriptor;
        this.library = library;
        this.labels = labels;
    }

    /**
     * What the model expects of a sample, for the raw-file defaults and the checks.
     */
    public interface ModelInput
    {
        /**
         * @return the element type of the input, the default for raw files.
         * @throws IllegalArgumentException when no NumPy dtype holds it.
         */
        DType dtype();

        /**
         * @return the input's shape after the batch axis when every dimension is fixed, else {@code null}.
         */
        long[] fixedSampleShape();

        /**
         * @return the input's shape for messages, e.g. {@code [N,3,224,224]}.
         */
        String describeShape();

        /**
         * @param dtype       the samples' element type.
         * @param sampleShape the shape of one sample.
         * @param dataset     the dataset, for the message.
         * @throws IllegalArgumentException saying what does not fit the input.
         */
        void checkSamples(DType dtype, long[] sampleShape, String dataset);
    }

    /**
     * Opens and checks the dataset and labels.
     *
     * @param descriptor the dataset.
     * @param input      what the model expects.
     * @return the samples, labels and accuracy scoring; close it to free the samples.
     * @throws IllegalArgumentException naming the file and what is wrong: missing, empty, samples of another shape or
     *                                  type than the model input, too few labels.
     */
    public static SutDataset open(final DatasetDescriptor descriptor, final ModelInput input)
    {
        SampleSource source = openSource(descriptor, input);
        try
        {
            final long total = source.sampleCount();
            if (total == 0)
            {
                throw new IllegalArgumentException("dataset " + source.description() + " has no samples");
            }
            checkShapes(source, input);
            final long sampleBytes = source.sampleBytes(0);
            final int[] labels = readLabels(descriptor.labels(), total);
            final long performance = descriptor.performanceCount() > 0
                ? Math.min(descriptor.performanceCount(), total)
                : Math.min(total, Math.max(1, PERFORMANCE_BYTES_DEFAULT / Math.max(1, sampleBytes)));
            final SampleStore store = SampleStore.builder(source).placement(descriptor.placement()).build();
            source = null;
            return new SutDataset(descriptor, new SampleStoreLibrary(
                "SampleStoreQSL(" + descriptor.dataset().getFileName() + ")", store, performance), labels);
        }
        finally
        {
            if (source != null)
            {
                source.close();
            }
        }
    }

    private static SampleSource openSource(final DatasetDescriptor d, final ModelInput input)
    {
        final Path dataset = d.dataset();
        try
        {
            if (Files.isDirectory(dataset))
            {
                final String glob = d.fileGlob() != null ? d.fileGlob() : containsNpy(dataset) ? "*.npy" : "*";
                final List<Path> files = FileSetSource.filesIn(dataset, glob);
                return glob.toLowerCase(Locale.ROOT).endsWith(".npy") ? FileSetSource.npy(files)
                    : FileSetSource.raw(files, rawFormat(d, input));
            }
            if (!Files.isRegularFile(dataset))
            {
                throw new IllegalArgumentException("dataset not found: " + dataset);
            }
            if (dataset.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy"))
            {
                return ArraySource.npy(dataset);
            }
            return ArraySource.raw(dataset, rawFormat(d, input), d.sampleCount());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read dataset " + dataset + ": " + ex.getMessage(), ex);
        }
    }

    private static boolean containsNpy(final Path dir) throws IOException
    {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.npy"))
        {
            return entries.iterator().hasNext();
        }
    }

    private static RawFormat rawFormat(final DatasetDescriptor d, final ModelInput input)
    {
        final DType dtype = d.dtype() != null ? d.dtype() : input.dtype();
        final long[] shape = d.sampleShape() != null ? d.sampleShape() : input.fixedSampleShape();
        if (shape == null)
        {
            throw new IllegalArgumentException("raw dataset " + d.dataset() + ": the model input "
                + input.describeShape() + " has dynamic dimensions, so give the sample shape: "
                + "--sut-opt sample-shape=...");
        }
        return new RawFormat(dtype, d.headerBytes(), shape);
    }

    private static void checkShapes(final SampleSource source, final ModelInput input)
    {
        final long[] first = source.sampleShape(0);
        input.checkSamples(source.dtype(), first, source.description());
        if (source instanceof final FileSetSource files)
        {
            for (long i = 1; i < source.sampleCount(); i++)
            {
                if (!Arrays.equals(first, source.sampleShape(i)))
                {
                    throw new IllegalArgumentException("dataset " + source.description() + ": sample " + i + " ("
                        + files.file(i) + ") is " + formatShape(source.sampleShape(i)) + ", sample 0 is "
                        + formatShape(first) + "; a batch needs samples of one shape");
                }
            }
        }
    }

    private static int[] readLabels(final Path file, final long samples)
    {
        if (file == null)
        {
            return null;
        }
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("labels file not found: " + file);
        }
        final int[] labels;
        try
        {
            labels = Labels.read(file);
        }
        catch (final UncheckedIOException ex)
        {
            throw new IllegalArgumentException("cannot read labels " + file + ": " + ex.getMessage(), ex);
        }
        if (labels.length < samples)
        {
            throw new IllegalArgumentException("labels " + file + " has " + labels.length + " labels but the dataset "
                + "has " + samples + " samples");
        }
        return labels;
    }

    /**
     * The check every tensor-fed SUT makes: samples of the input's element type, in this machine's byte order, and
     * of its shape after the batch axis (a negative input dimension takes any size).
     *
     * @param sample      the samples' element type.
     * @param sampleShape one sample's shape.
     * @param input       the input's element type, or {@code null} when no sample type can feed it.
     * @param inputShape  the input's shape, batch axis first.
     * @param expected    what the input expects, for the message: {@code model m.onnx input 'x' expects float32 [N,3]}.
     * @param dataset     the dataset, for the message.
     * @throws IllegalArgumentException saying what differs.
     */
    public static void checkSampleFits(final DType sample, final long[] sampleShape, final DType input,
        final long[] inputShape, final String expected, final String dataset)
    {
        if (input == null || sample.kind() != input.kind() || sample.itemBytes() != input.itemBytes())
        {
            throw new IllegalArgumentException("dataset " + dataset + ": samples are " + sample + " "
                + formatShape(sampleShape) + " but " + expected + " (element types differ; convert the data or give "
                + "--sut-opt dtype=... for raw files)");
        }
        if (!sample.isNativeOrder())
        {
            throw new IllegalArgumentException("dataset " + dataset + ": samples are " + sample + ", not in this "
                + "machine's byte order; convert them to native order");
        }
        boolean match = sampleShape.length == inputShape.length - 1;
        for (int i = 0; match && i < sampleShape.length; i++)
        {
            match = inputShape[i + 1] < 0 || inputShape[i + 1] == sampleShape[i];
        }
        if (!match)
        {
            throw new IllegalArgumentException("dataset " + dataset + ": a sample is " + sample.descr() + " "
                + formatShape(sampleShape) + " but " + expected + " (sample shapes differ)");
        }
    }

    /**
     * @param shape dimensions, negative ones dynamic.
     * @return e.g. {@code [3,224,224]}, {@code ?} for a dynamic dimension.
     */
    public static String formatShape(final long[] shape)
    {
        final StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++)
        {
            sb.append(i == 0 ? "" : ",").append(shape[i] >= 0 ? Long.toString(shape[i]) : "?");
        }
        return sb.append(']').toString();
    }

    /**
     * @return the descriptor it was opened from.
     */
    public DatasetDescriptor descriptor()
    {
        return descriptor;
    }

    /**
     * @return the sample library (the QSL to hand the engine).
     */
    public SampleStoreLibrary library()
    {
        return library;
    }

    /**
     * @return the store the samples are loaded into.
     */
    public SampleStore store()
    {
        return library.store();
    }

    /**
     * @return bytes of one sample (all samples have one shape).
     */
    public long sampleBytes()
    {
        return library.store().source().sampleBytes(0);
    }

    /**
     * @return the shape of one sample.
     */
    public long[] sampleShape()
    {
        return library.store().source().sampleShape(0);
    }

    /**
     * @return whether labels were given.
     */
    public boolean hasLabels()
    {
        return labels != null;
    }

    /**
     * Scores an accuracy log with the same code as {@code jloadgen accuracy}.
     *
     * @param accuracyLog {@code mlperf_log_accuracy.json} of an AccuracyOnly run.
     * @param type        how a response encodes its class.
     * @return the score.
     * @throws IllegalStateException without labels.
     */
    public ClassificationAccuracy.Report accuracy(final Path accuracyLog, final ClassificationAccuracy.DataType type)
    {
        if (labels == null)
        {
            throw new IllegalStateException("no labels were given (--labels)");
        }
        return ClassificationAccuracy.score(accuracyLog, labels, type, descriptor.labelOffset());
    }

    /**
     * @return the dataset, preprocessing and labels lines for the console.
     */
    public String describe()
    {
        return "dataset  " + library.store().source().description() + ", " + library.totalSampleCount()
            + " samples, " + library.performanceSampleCount() + " per performance set, " + descriptor.placement()
            + "\n"
            + (descriptor.preprocessing().isEmpty() ? "" : "preproc  " + descriptor.preprocessing() + "\n")
            + "labels   " + (labels == null ? "none" : descriptor.labels() + (descriptor.labelOffset() == 0 ? ""
                : " (offset " + descriptor.labelOffset() + ")"));
    }

    /**
     * Frees the samples and closes the files.
     */
    @Override
    public void close()
    {
        library.close();
    }
}
