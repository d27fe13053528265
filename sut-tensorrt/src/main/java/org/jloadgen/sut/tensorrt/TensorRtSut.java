package org.jloadgen.sut.tensorrt;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.bindings.ThreadAffinity;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutDataset;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * The TensorRT system under test: an ONNX model (or a serialized engine) on every GPU chosen, fed from a
 * {@link SampleStore} through the toolkit's {@link BatchingSut}, with NVIDIA's LWIS design on each GPU
 * ({@link GpuPipeline}).
 * <p>
 * {@link #open} does everything that can fail before a run, in order, and fails with a message naming the file or
 * option: the model's tensors (or the engine's), the dataset against the input, the batch against the input's batch
 * axis, the post-processing against the output, then per GPU the engine (from the cache, built, or loaded), its
 * profiles against the copy streams, the slots, the graphs and the warm-up. What the device only finds during the
 * run (an inference that fails) ends the run through {@link ResponseSink#fail}.
 */
public final class TensorRtSut implements AbortableSut, AutoCloseable
{
    private final String name;
    private final DeviceBackend backend;
    private final SutDataset dataset;
    private final PipelineSettings settings;
    private final IoLayout layout;
    private final List<Gpu> gpus;
    private final List<Engine> engines;
    private final List<GpuPipeline> pipelines;
    private final List<IssueProcessor> processors = new ArrayList<>();
    private final SutStatistics statistics;
    private final BatchingSut pool;
    private final List<String> engineSources;
    private final List<String> warnings = new ArrayList<>();
    private final PrintStream console;
    private final DeviceSampleLibrary library = new DeviceSampleLibrary();
    private AutoCloseable hostRegistration;

    TensorRtSut(final TensorRtSutBuilder b)
    {
        this.name = b.name;
        this.backend = b.backend;
        this.dataset = b.dataset;
        this.settings = b.settings;
        this.layout = b.layout;
        this.gpus = List.copyOf(b.gpus);
        this.engines = List.copyOf(b.engines);
        this.pipelines = List.copyOf(b.pipelines);
        this.engineSources = List.copyOf(b.engineSources);
        this.statistics = b.statistics;
        this.console = b.console;
        final int gpuCount = pipelines.size();
        this.pool = new BatchingSut(name, settings.batcherSettings(gpuCount), statistics, worker ->
        {
            final IssueProcessor processor = new IssueProcessor(pipelines.get(worker % gpuCount), statistics);
            processors.add(processor);
            return processor;
        }, ThreadAffinity::tryPinCurrentThreadTo);
        statistics.counter("batches_issued", () -> processors.stream().mapToLong(IssueProcessor::batches).sum());
        statistics.counter("input_copies", () -> processors.stream().mapToLong(IssueProcessor::copies).sum());
        statistics.counter("host_gathers", () -> processors.stream().mapToLong(IssueProcessor::gathers).sum());
        statistics.counter("full_pipeline_waits", () -> processors.stream().mapToLong(IssueProcessor::slotWaits)
            .sum());
        statistics.counter("graph_launches", () -> slots().mapToLong(s -> s.graphLaunches).sum());
        statistics.counter("plain_enqueues", () -> slots().mapToLong(s -> s.enqueues).sum());
        statistics.counter("graph_padding_samples", () -> slots().mapToLong(s -> s.paddedSamples).sum());
        // Warm-up inferences are not part of any test.
        statistics.reset();
    }

    private java.util.stream.Stream<StreamSlot> slots()
    {
        return pipelines.stream().flatMap(p -> p.slots.stream());
    }

    /**
     * Opens the model and data, builds or loads the engine on every GPU, sets up the pipelines, captures the graphs,
     * warms up and starts the threads.
     *
     * @param options the options.
     * @param backend the device backend (closed with the SUT, or on failure).
     * @param console where progress goes (engine builds take a while), or {@code null}.
     * @return the SUT; close it to free everything.
     * @throws IllegalArgumentException saying what is wrong with the options, model, engine or data.
     * @throws DeviceException          when a device call fails.
     */
    public static TensorRtSut open(final TensorRtOptions options, final DeviceBackend backend,
        final PrintStream console)
    {
        final TensorRtSutBuilder b = new TensorRtSutBuilder(options, backend, console);
        try
        {
            b.run();
            return new TensorRtSut(b);
        }
        catch (final RuntimeException ex)
        {
            try
            {
                b.closeAll();
            }
            catch (final RuntimeException closing)
            {
                ex.addSuppressed(closing);
            }
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
     * Drops the queued samples when the engine abandons a test: each GPU's issue thread finishes the batches in
     * flight and finds nothing more.
     */
    @Override
    public void dropQueuedSamples()
    {
        pool.dropQueuedSamples();
    }

    /**
     * @return the sample library: loading copies or pins the samples for the GPUs.
     */
    public QuerySampleLibrary library()
    {
        return library;
    }

    /**
     * @return batch sizes, the {@code enqueue}, {@code h2d}, {@code infer} and {@code d2h} times of every batch, and
     *         counts of graph launches, plain enqueues, input copies and waits for a free stream.
     */
    public SutStatistics statistics()
    {
        return statistics;
    }

    /**
     * @return inputs, outputs and what a response holds.
     */
    public IoLayout layout()
    {
        return layout;
    }

    /**
     * @return the settings in effect.
     */
    public PipelineSettings settings()
    {
        return settings;
    }

    /**
     * @return the GPUs in use.
     */
    public int gpuCount()
    {
        return gpus.size();
    }

    /**
     * @return whether labels were given.
     */
    public boolean hasLabels()
    {
        return dataset.hasLabels();
    }

    /**
     * @param accuracyLog {@code mlperf_log_accuracy.json} of an AccuracyOnly run.
     * @return its top-1 score, read as the responses are encoded (class ids, or raw rows).
     */
    public ClassificationAccuracy.Report accuracy(final Path accuracyLog)
    {
        return dataset.accuracy(accuracyLog, layout.accuracyType());
    }

    /**
     * @return what was asked and not obtained (pinning the slab), one line each.
     */
    public List<String> warnings()
    {
        return List.copyOf(warnings);
    }

    /**
     * @return the slots free on every GPU now (all of them between batches; for tests).
     */
    int freeSlots()
    {
        return pipelines.stream().mapToInt(GpuPipeline::freeSlots).sum();
    }

    /**
     * @return the per-GPU pipelines (the benchmark's bare loop drives them directly).
     */
    List<GpuPipeline> pipelines()
    {
        return pipelines;
    }

    /**
     * @return the issue threads' processors (for tests).
     */
    List<IssueProcessor> processors()
    {
        return List.copyOf(processors);
    }

    /**
     * @return what runs on what, in a few lines for the console.
     */
    public String describe()
    {
        final StringBuilder out = new StringBuilder();
        out.append("backend  ").append(backend.describe()).append('\n');
        for (int g = 0; g < gpus.size(); g++)
        {
            out.append("gpu ").append(gpus.get(g).ordinal()).append("    ").append(gpus.get(g).identity()).append(": ")
                .append(engineSources.get(g)).append('\n');
        }
        out.append("model    input '").append(layout.input()).append("' ").append(SutDataset.formatShape(
            layout.sampleShape())).append(" per sample; returns ").append(layout.topK() > 0 ? "top-" + layout.topK()
            + " class ids of '" + layout.returnedOutput() + "'" : "output '" + layout.returnedOutput() + "' rows of "
            + layout.responseBytes() + " bytes").append('\n');
        out.append(dataset.describe()).append('\n');
        out.append("runtime  ").append(settings.describe());
        return out.toString();
    }

    /**
     * Stops the threads after their current batch, then frees the pipelines, engines, devices and samples.
     */
    @Override
    public void close()
    {
        final Deque<AutoCloseable> closing = new ArrayDeque<>();
        closing.push(backend);
        closing.push(dataset);
        gpus.forEach(closing::push);
        engines.forEach(closing::push);
        pipelines.forEach(closing::push);
        if (hostRegistration != null)
        {
            closing.push(hostRegistration);
        }
        closing.push(pool);
        closeInOrder(closing);
    }

    static void closeInOrder(final Deque<AutoCloseable> closing)
    {
        RuntimeException first = null;
        while (!closing.isEmpty())
        {
            try
            {
                closing.pop().close();
            }
            catch (final Exception ex)
            {
                if (first == null)
                {
                    first = ex instanceof final RuntimeException r ? r : new IllegalStateException(ex.getMessage(), ex);
                }
                else
                {
                    first.addSuppressed(ex);
                }
            }
        }
        if (first != null)
        {
            throw first;
        }
    }

    /**
     * The QSL the engine loads: the dataset's library, plus pinning the slab for the GPUs (or copying it to them).
     */
    private final class DeviceSampleLibrary implements QuerySampleLibrary
    {
        @Override
        public String name()
        {
            return dataset.library().name();
        }

        @Override
        public long totalSampleCount()
        {
            return dataset.library().totalSampleCount();
        }

        @Override
        public long performanceSampleCount()
        {
            return dataset.library().performanceSampleCount();
        }

        @Override
        public void loadSamplesToRam(final long[] indices)
        {
            dataset.library().loadSamplesToRam(indices);
            final SampleStore store = dataset.store();
            final java.lang.foreign.MemorySegment slab = store.slab();
            final long stride = store.strideBytes();
            if (settings.startFromDevice())
            {
                for (final GpuPipeline pipeline : pipelines)
                {
                    pipeline.useDeviceSamples(slab, stride);
                }
                return;
            }
            gpus.get(0).makeCurrent();
            try
            {
                hostRegistration = gpus.get(0).register(slab.address(), slab.byteSize());
            }
            catch (final DeviceException ex)
            {
                final String warning = "the sample slab could not be pinned (" + ex.getMessage() + "): batches are "
                    + "copied from pageable memory, which is slower";
                if (!warnings.contains(warning))
                {
                    warnings.add(warning);
                    if (console != null)
                    {
                        console.println("warning: " + warning);
                    }
                }
            }
            for (final GpuPipeline pipeline : pipelines)
            {
                pipeline.useHostSamples(slab, stride);
            }
        }

        @Override
        public void unloadSamplesFromRam(final long[] indices)
        {
            final AutoCloseable registration = hostRegistration;
            hostRegistration = null;
            if (registration != null)
            {
                gpus.get(0).makeCurrent();
                try
                {
                    registration.close();
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException("unpinning the sample slab failed: " + ex.getMessage(), ex);
                }
            }
            dataset.library().unloadSamplesFromRam(indices);
        }
    }
}
