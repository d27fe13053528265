package org.jloadgen.sut.cpu;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.bindings.ThreadAffinity;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutDataset;
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
public final class CpuSut implements AbortableSut, AutoCloseable
{
    private final String name;
    private final ModelDescriptor descriptor;
    private final InferenceSettings settings;
    private final OnnxModel model;
    private final SutDataset dataset;
    private final List<OnnxBatchProcessor> processors = new ArrayList<>();
    private final BatchingSut pool;
    private final SutStatistics statistics;
    private final String note;

    private CpuSut(final ModelDescriptor descriptor, final InferenceSettings settings, final OnnxModel model,
        final SutDataset dataset, final String note)
    {
        this.descriptor = descriptor;
        this.settings = settings;
        this.model = model;
        this.dataset = dataset;
        this.note = note;
        this.name = descriptor.sutName() != null ? descriptor.sutName()
            : "ONNXRuntime-CPU(" + model.file().getFileName() + ")";
        final SampleStoreLibrary library = dataset.library();
        final long sampleBytes = dataset.sampleBytes();
        this.statistics = new SutStatistics(name, settings.maxBatchSize(),
            List.of(SutStatistics.HANDOFF_STAGE, OnnxBatchProcessor.STAGE));
        this.pool = new BatchingSut(name, settings.batcherSettings(), statistics, worker ->
        {
            final OnnxBatchProcessor p = new OnnxBatchProcessor(model, library.store(), sampleBytes,
                settings.maxBatchSize(), statistics);
            processors.add(p);
            return p;
        }, ThreadAffinity::tryPinCurrentThreadTo);
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
        SutDataset dataset = null;
        try
        {
            dataset = SutDataset.open(descriptor.data(), model);
            final long sampleBytes = dataset.sampleBytes();
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
            return new CpuSut(descriptor, settings, model, dataset, note);
        }
        catch (final RuntimeException ex)
        {
            if (dataset != null)
            {
                dataset.close();
            }
            model.close();
            throw ex;
        }
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
     * Drops the queued samples when the engine abandons a test: the workers finish the batch they run and stop.
     */
    @Override
    public void dropQueuedSamples()
    {
        pool.dropQueuedSamples();
    }

    /**
     * @return the sample library (the QSL to hand the engine with this SUT).
     */
    public SampleStoreLibrary library()
    {
        return dataset.library();
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
        return dataset.hasLabels();
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
        return dataset.accuracy(accuracyLog, TensorTypes.accuracyType(model.outputType()));
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
        return "model    " + model.describe() + "\n"
            + dataset.describe() + "\n"
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
                dataset.close();
            }
        }
    }
}
