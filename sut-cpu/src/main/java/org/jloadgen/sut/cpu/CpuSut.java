package org.jloadgen.sut.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.accuracy.Labels;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.bindings.ThreadAffinity;
import org.jloadgen.samples.ArraySource;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.FileSetSource;
import org.jloadgen.samples.RawFormat;
import org.jloadgen.samples.SampleSource;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutStatistics;

/**
 * The CPU system under test: an ONNX model on ONNX Runtime, fed from a {@link SampleStore} through the SUT
 * toolkit's {@link BatchingSut} (dynamic batcher plus worker threads), each worker running whole batches and
 * completing each with one call whose payloads are the samples' output rows (float32 logits for a classifier).
 * <p>
 * {@link #open} checks everything it can before a run and fails with a message naming the file and the problem:
 * a missing or unparsable model, a dataset whose dtype or sample shape does not fit the model input, missing or
 * too few labels. What ONNX Runtime only finds while running a batch ends the run through
 * {@link ResponseSink#fail}: the engine stops, logs the error and marks the run INVALID.
 */
public final class CpuSut implements SystemUnderTest, AutoCloseable
{
    /** Default budget for the QSL's performance samples when none is given: 1 GiB. */
    public static final long PERFORMANCE_BYTES_DEFAULT = 1L << 30;

    private final String name;
    private final ModelDescriptor descriptor;
    private final InferenceSettings settings;
    private final OnnxModel model;
    private final SampleStoreLibrary library;
    private final int[] labels;
    private final List<OnnxBatchProcessor> processors = new ArrayList<>();
    private final BatchingSut pool;
    private final SutStatistics statistics;
    private final String note;

    private CpuSut(final ModelDescriptor descriptor, final InferenceSettings settings, final OnnxModel model,
        final SampleStoreLibrary library, final int[] labels, final String note)
    {
        this.descriptor = descriptor;
        this.settings = settings;
        this.model = model;
        this.library = library;
        this.labels = labels;
        this.note = note;
        this.name = descriptor.sutName() != null ? descriptor.sutName()
            : "ONNXRuntime-CPU(" + model.file().getFileName() + ")";
        final long sampleBytes = library.store().source().sampleBytes(0);
        this.statistics = new SutStatistics(name, settings.maxBatchSize(), List.of(OnnxBatchProcessor.STAGE));
        this.pool = new BatchingSut(name, settings.batcherSettings(), statistics, worker ->
        {
            final OnnxBatchProcessor p = new OnnxBatchProcessor(model, library.store(), sampleBytes,
                settings.maxBatchSize(), statistics);
            processors.add(p);
            return p;
        }, CpuSut::pin);
        statistics.counter("zero_copy_batches", this::zeroCopyBatches);
        statistics.counter("staged_batches", this::stagedBatches);
    }

    /**
     * Loads the model, opens and checks the dataset and labels, and starts the workers.
     *
     * @param descriptor model, data and labels.
     * @param inference  batching and threads.
     * @return the SUT; close it to stop the workers and free the session and samples.
     * @throws IllegalArgumentException saying what is wrong with the model, the data or the labels.
     */
    public static CpuSut open(final ModelDescriptor descriptor, final InferenceSettings inference)
    {
        final OnnxModel model = OnnxModel.open(descriptor.modelFile(), descriptor.inputName(),
            descriptor.outputName(), inference.intraOpThreads(), inference.ortSpinning());
        SampleSource source = null;
        try
        {
            source = openSource(descriptor, model);
            final long total = source.sampleCount();
            if (total == 0)
            {
                throw new IllegalArgumentException("dataset " + source.description() + " has no samples");
            }
            checkShapes(source, model);
            final long sampleBytes = source.sampleBytes(0);
            InferenceSettings settings = inference;
            String note = "";
            if (model.batchOfOne() && settings.maxBatchSize() > 1)
            {
                settings = settings.withMaxBatchSize(1);
                note = "the model's batch axis is fixed at 1, so batches hold one sample";
            }
            if (sampleBytes > 0 && settings.maxBatchSize() > Integer.MAX_VALUE / sampleBytes)
            {
                throw new IllegalArgumentException("a batch of " + settings.maxBatchSize() + " samples of "
                    + sampleBytes + " bytes exceeds 2 GiB; lower --sut-opt batch");
            }
            final int[] labels = readLabels(descriptor.labels(), total);
            final long performance = descriptor.performanceCount() > 0
                ? Math.min(descriptor.performanceCount(), total)
                : Math.min(total, Math.max(1, PERFORMANCE_BYTES_DEFAULT / Math.max(1, sampleBytes)));
            final SampleStore store = SampleStore.builder(source).placement(descriptor.placement()).build();
            final SampleStoreLibrary library = new SampleStoreLibrary(
                "SampleStoreQSL(" + descriptor.dataset().getFileName() + ")", store, performance);
            source = null;
            try
            {
                return new CpuSut(descriptor, settings, model, library, labels, note);
            }
            catch (final RuntimeException ex)
            {
                library.close();
                throw ex;
            }
        }
        catch (final RuntimeException ex)
        {
            if (source != null)
            {
                source.close();
            }
            model.close();
            throw ex;
        }
    }

    private static SampleSource openSource(final ModelDescriptor d, final OnnxModel model)
    {
        final Path dataset = d.dataset();
        try
        {
            if (Files.isDirectory(dataset))
            {
                final String glob = d.fileGlob() != null ? d.fileGlob() : containsNpy(dataset) ? "*.npy" : "*";
                final List<Path> files = FileSetSource.filesIn(dataset, glob);
                return glob.toLowerCase(Locale.ROOT).endsWith(".npy") ? FileSetSource.npy(files)
                    : FileSetSource.raw(files, rawFormat(d, model));
            }
            if (!Files.isRegularFile(dataset))
            {
                throw new IllegalArgumentException("dataset not found: " + dataset);
            }
            if (dataset.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy"))
            {
                return ArraySource.npy(dataset);
            }
            return ArraySource.raw(dataset, rawFormat(d, model), d.sampleCount());
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

    private static RawFormat rawFormat(final ModelDescriptor d, final OnnxModel model)
    {
        final DType dtype = d.dtype() != null ? d.dtype() : TensorTypes.dtype(model.inputType());
        final long[] shape = d.sampleShape() != null ? d.sampleShape() : model.fixedSampleShape();
        if (shape == null)
        {
            throw new IllegalArgumentException("raw dataset " + d.dataset() + ": the model input "
                + TensorTypes.format(model.inputShape(), "N") + " has dynamic dimensions, so give the sample shape: "
                + "--sut-opt sample-shape=...");
        }
        return new RawFormat(dtype, d.headerBytes(), shape);
    }

    private static void checkShapes(final SampleSource source, final OnnxModel model)
    {
        final long[] first = source.sampleShape(0);
        model.checkSamples(source.dtype(), first, source.description());
        if (source instanceof final FileSetSource files)
        {
            for (long i = 1; i < source.sampleCount(); i++)
            {
                if (!Arrays.equals(first, source.sampleShape(i)))
                {
                    throw new IllegalArgumentException("dataset " + source.description() + ": sample " + i + " ("
                        + files.file(i) + ") is " + TensorTypes.format(source.sampleShape(i), null) + ", sample 0 is "
                        + TensorTypes.format(first, null) + "; a batch needs samples of one shape");
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

    private static void pin(final int cpu)
    {
        final BitSet set = new BitSet();
        set.set(cpu);
        ThreadAffinity.tryPinCurrentThread(set);
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        pool.issueQuery(samples, sink);
    }

    @Override
    public void flushQueries()
    {
        pool.flushQueries();
    }

    /**
     * @return the sample library (the QSL to hand the engine with this SUT).
     */
    public SampleStoreLibrary library()
    {
        return library;
    }

    /**
     * @return the loaded model.
     */
    public OnnxModel model()
    {
        return model;
    }

    /**
     * @return the model and data description it was opened with.
     */
    public ModelDescriptor descriptor()
    {
        return descriptor;
    }

    /**
     * @return the batching and thread settings in effect.
     */
    public InferenceSettings settings()
    {
        return settings;
    }

    /**
     * @return whether labels were given.
     */
    public boolean hasLabels()
    {
        return labels != null;
    }

    /**
     * Scores an accuracy log of this SUT with the same code as {@code jloadgen accuracy}.
     *
     * @param accuracyLog {@code mlperf_log_accuracy.json} of an AccuracyOnly run.
     * @return the score.
     * @throws IllegalStateException without labels.
     */
    public ClassificationAccuracy.Report accuracy(final Path accuracyLog)
    {
        if (labels == null)
        {
            throw new IllegalStateException("no labels were given (--labels)");
        }
        return ClassificationAccuracy.score(accuracyLog, labels, TensorTypes.accuracyType(model.outputType()),
            descriptor.labelOffset());
    }

    /**
     * @return batch sizes, the {@value OnnxBatchProcessor#STAGE} times of every batch and the zero-copy / staged
     *         batch counts, per test.
     */
    public SutStatistics statistics()
    {
        return statistics;
    }

    /**
     * @return batches so far that ONNX Runtime read straight from the sample slab (read after the run).
     */
    public long zeroCopyBatches()
    {
        return processors.stream().mapToLong(OnnxBatchProcessor::zeroCopyBatches).sum();
    }

    /**
     * @return batches so far that were copied into a staging buffer first (read after the run).
     */
    public long stagedBatches()
    {
        return processors.stream().mapToLong(OnnxBatchProcessor::stagedBatches).sum();
    }

    /**
     * @return what runs on what, in a few lines for the console.
     */
    public String describe()
    {
        final SampleSource source = library.store().source();
        return "model    " + model.describe() + "\n"
            + "dataset  " + source.description() + ", " + library.totalSampleCount() + " samples, "
            + library.performanceSampleCount() + " per performance set, " + descriptor.placement() + "\n"
            + (descriptor.preprocessing().isEmpty() ? "" : "preproc  " + descriptor.preprocessing() + "\n")
            + "labels   " + (labels == null ? "none" : descriptor.labels() + (descriptor.labelOffset() == 0 ? ""
                : " (offset " + descriptor.labelOffset() + ")")) + "\n"
            + "runtime  " + settings.describe() + (note.isEmpty() ? "" : " (" + note + ")");
    }

    /**
     * Stops the workers after their current batch, then frees the processors, the session and the samples.
     */
    @Override
    public void close()
    {
        try
        {
            pool.close();
        }
        finally
        {
            try
            {
                model.close();
            }
            finally
            {
                library.close();
            }
        }
    }
}
