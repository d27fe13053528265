package org.jloadgen.sut.tensorrt;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * Everything one GPU runs, as NVIDIA's LWIS harness does: {@code copy-streams} slots (each a batch in flight with
 * its own copy stream, execution context and buffers), {@code infer-streams} inference streams they share
 * round-robin, a free-slot queue that holds the issue threads back when every slot is busy (back-pressure: the
 * batcher keeps queueing, and the next batch takes everything that arrived), and a completion thread that waits for
 * each batch's last event and completes the batch with one call of its pre-built responses.
 * <p>
 * Samples come from the loaded set: the pinned host slab (one {@code cudaMemcpyAsync} per run of adjacent samples)
 * or, with {@code start-from-device}, this GPU's copy of it (device-to-device copies).
 */
final class GpuPipeline implements AutoCloseable
{
    /** Stage names recorded into the statistics. */
    static final String STAGE_ENQUEUE = "enqueue";
    /** Host to device copies of a batch. */
    static final String STAGE_H2D = "h2d";
    /** Inference (and top-k) of a batch. */
    static final String STAGE_INFER = "infer";
    /** Device to host copy of a batch. */
    static final String STAGE_D2H = "d2h";

    final Gpu gpu;
    final PipelineSettings settings;
    final IoLayout layout;
    final List<StreamSlot> slots = new ArrayList<>();
    private final List<DeviceStream> inferStreams = new ArrayList<>();
    private final DeviceStream fetchStream;
    private final DeviceStream setupStream;
    private final ManyToManyConcurrentArrayQueue<StreamSlot> free;
    private final ManyToOneConcurrentArrayQueue<StreamSlot> inFlight;
    private final SutStatistics statistics;
    private final Thread completionThread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    // The loaded samples: written on the engine's thread at load time, before any batch is issued.
    private volatile long inputBase;
    private volatile boolean inputOnDevice;
    private long inputStride;
    private long deviceSlab;
    private long deviceSlabBytes;

    /**
     * Creates the slots, captures the graphs, runs the warm-up and starts the completion thread.
     *
     * @param gpu        the GPU, current on the calling thread.
     * @param engine     the engine on it.
     * @param layout     inputs and outputs.
     * @param settings   the pipeline settings.
     * @param statistics where stage times go.
     * @param name       the SUT's name, for thread names.
     */
    GpuPipeline(final Gpu gpu, final Engine engine, final IoLayout layout, final PipelineSettings settings,
        final SutStatistics statistics, final String name)
    {
        this.gpu = gpu;
        this.settings = settings;
        this.layout = layout;
        this.statistics = statistics;
        this.free = new ManyToManyConcurrentArrayQueue<>(Math.max(2, settings.copyStreams()));
        this.inFlight = new ManyToOneConcurrentArrayQueue<>(Math.max(2, settings.copyStreams()));
        this.fetchStream = gpu.newStream();
        this.setupStream = gpu.newStream();
        try
        {
            for (int s = 0; s < settings.inferStreams(); s++)
            {
                inferStreams.add(gpu.newStream());
            }
            final int[] graphSizes = settings.graphSizes();
            final boolean dynamic = engine.tensors().stream().anyMatch(t -> t.name().equals(layout.input())
                && java.util.Arrays.stream(t.shape()).anyMatch(d -> d < 0));
            // A gather buffer only where some batch could be worth gathering: samples from the host, small enough
            // that a batch of scattered ones is cheaper to gather than to copy one by one.
            final boolean gathers = !settings.startFromDevice() && IssueProcessor.worthGathering(
                settings.maxBatchSize(), settings.maxBatchSize(), layout.sampleBytes());
            for (int i = 0; i < settings.copyStreams(); i++)
            {
                // With dynamic shapes TensorRT gives an optimization profile to one context at a time: one per slot.
                final int profile = dynamic ? i % engine.profiles() : 0;
                slots.add(new StreamSlot(i, gpu, engine, profile, inferStreams.get(i % inferStreams.size()),
                    fetchStream, layout, settings.maxBatchSize(), graphSizes, settings.stageTimes(),
                    settings.completionWait() == CompletionWait.BLOCK, gathers));
            }
            for (final StreamSlot slot : slots)
            {
                slot.captureGraphs();
            }
            warmUp();
        }
        catch (final RuntimeException ex)
        {
            closeDevice();
            throw ex;
        }
        for (final StreamSlot slot : slots)
        {
            free.offer(slot);
        }
        completionThread = new Thread(this::completeBatches, name + "-gpu" + gpu.ordinal() + "-completion");
        completionThread.setDaemon(true);
        completionThread.start();
    }

    /**
     * @return the batch sizes warmed up: every graph size, 1 and the largest batch.
     */
    int[] warmupSizes()
    {
        final TreeSet<Integer> sizes = new TreeSet<>();
        for (final int size : settings.graphSizes())
        {
            sizes.add(size);
        }
        sizes.add(1);
        sizes.add(settings.maxBatchSize());
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }

    private void warmUp()
    {
        if (settings.warmupIterations() == 0)
        {
            return;
        }
        final long bytes = settings.maxBatchSize() * layout.sampleBytes();
        final long zeros = gpu.allocatePinned(Math.max(1, bytes));
        try
        {
            MemorySegment.ofAddress(zeros).reinterpret(Math.max(1, bytes)).fill((byte)0);
            for (final StreamSlot slot : slots)
            {
                for (final int size : warmupSizes())
                {
                    for (int it = 0; it < settings.warmupIterations(); it++)
                    {
                        slot.copyStream.record(slot.h2dStart);
                        slot.copyStream.copyToDevice(slot.deviceInput, zeros, size * layout.sampleBytes());
                        slot.copyStream.record(slot.h2dDone);
                        slot.enqueueInference(size);
                        slot.enqueueOutputCopy(size, false);
                        slot.d2hDone.synchronize();
                    }
                }
            }
        }
        finally
        {
            gpu.freePinned(zeros);
        }
    }

    /**
     * Samples come from the pinned host slab. Engine thread, at load time.
     *
     * @param slab   the loaded set (registered with the device by the caller).
     * @param stride bytes from one sample to the next.
     */
    void useHostSamples(final MemorySegment slab, final long stride)
    {
        inputStride = stride;
        inputOnDevice = false;
        inputBase = slab.address();
    }

    /**
     * Copies the loaded set to this GPU and takes samples from there ({@code start-from-device}). Engine thread, at
     * load time; the device copy is kept (and grown) across loads.
     *
     * @param slab   the loaded set.
     * @param stride bytes from one sample to the next.
     */
    void useDeviceSamples(final MemorySegment slab, final long stride)
    {
        gpu.makeCurrent();
        final long bytes = Math.max(1, slab.byteSize());
        if (deviceSlabBytes < bytes)
        {
            if (deviceSlab != 0)
            {
                gpu.free(deviceSlab);
                deviceSlab = 0;
            }
            deviceSlab = gpu.allocate(bytes);
            deviceSlabBytes = bytes;
        }
        setupStream.copyToDevice(deviceSlab, slab.address(), slab.byteSize());
        setupStream.synchronize();
        inputStride = stride;
        inputOnDevice = true;
        inputBase = deviceSlab;
    }

    /**
     * @return the address of position 0 of the loaded set (host or device).
     */
    long inputBase()
    {
        return inputBase;
    }

    /**
     * @return whether {@link #inputBase()} is device memory.
     */
    boolean inputOnDevice()
    {
        return inputOnDevice;
    }

    /**
     * @return bytes from one loaded sample to the next.
     */
    long inputStride()
    {
        return inputStride;
    }

    /**
     * @return whether a slot is free (the issue thread forms a batch only then).
     */
    boolean hasFreeSlot()
    {
        return !free.isEmpty() || failure != null;
    }

    /**
     * Takes a free slot, waiting while all are busy. Issue threads.
     *
     * @param idle how to wait.
     * @return the slot.
     * @throws IllegalStateException when the pipeline failed or is closing.
     */
    StreamSlot acquire(final IdleStrategy idle)
    {
        StreamSlot slot = free.poll();
        if (slot == null)
        {
            idle.reset();
            while ((slot = free.poll()) == null)
            {
                checkHealthy();
                idle.idle();
            }
        }
        checkHealthy();
        return slot;
    }

    private void checkHealthy()
    {
        final Throwable failed = failure;
        if (failed != null)
        {
            throw new IllegalStateException("GPU " + gpu.ordinal() + " stopped: " + failed.getMessage(), failed);
        }
        if (!running)
        {
            throw new IllegalStateException("GPU " + gpu.ordinal() + " pipeline is closed");
        }
    }

    /**
     * Returns a slot taken with {@link #acquire} whose batch was waited for by its taker (the benchmark's bare loop).
     *
     * @param slot the slot, idle.
     */
    void release(final StreamSlot slot)
    {
        free.offer(slot);
    }

    /**
     * Hands an enqueued batch to the completion thread. Issue threads.
     *
     * @param slot the slot, its batch enqueued up to {@code d2hDone}.
     */
    void submit(final StreamSlot slot)
    {
        // Never full: the queue holds every slot.
        inFlight.offer(slot);
    }

    private void completeBatches()
    {
        gpu.makeCurrent();
        final SutStatistics.Recorder recorder = statistics.newRecorder();
        final int h2d = statistics.stage(STAGE_H2D);
        final int infer = statistics.stage(STAGE_INFER);
        final int d2h = statistics.stage(STAGE_D2H);
        final IdleStrategy idle = settings.completionWait().newIdleStrategy();
        final boolean block = settings.completionWait() == CompletionWait.BLOCK;
        final StreamSlot[] pending = new StreamSlot[slots.size()];
        int count = 0;
        ResponseSink lastSink = null;
        try
        {
            while (running)
            {
                StreamSlot next;
                while (count < pending.length && (next = inFlight.poll()) != null)
                {
                    pending[count++] = next;
                }
                if (count == 0)
                {
                    idle.idle();
                    continue;
                }
                if (block)
                {
                    pending[0].d2hDone.synchronize();
                }
                int done = 0;
                int kept = 0;
                for (int i = 0; i < count; i++)
                {
                    final StreamSlot slot = pending[i];
                    lastSink = slot.sink;
                    if (slot.d2hDone.isComplete())
                    {
                        complete(slot, recorder, h2d, infer, d2h);
                        done++;
                    }
                    else
                    {
                        pending[kept++] = slot;
                    }
                }
                for (int i = kept; i < count; i++)
                {
                    pending[i] = null;
                }
                count = kept;
                if (done == 0)
                {
                    idle.idle();
                }
                else
                {
                    idle.reset();
                }
            }
        }
        catch (final Throwable t)
        {
            failure = t;
            if (lastSink != null)
            {
                lastSink.fail(new IllegalStateException("GPU " + gpu.ordinal() + " failed while completing a batch: "
                    + t.getMessage(), t));
            }
        }
    }

    private void complete(final StreamSlot slot, final SutStatistics.Recorder recorder, final int h2d,
        final int infer, final int d2h)
    {
        if (settings.stageTimes())
        {
            recorder.recordStageNs(h2d, slot.h2dDone.elapsedNs(slot.h2dStart));
            recorder.recordStageNs(infer, slot.inferDone.elapsedNs(slot.inferStart));
            recorder.recordStageNs(d2h, slot.d2hDone.elapsedNs(slot.d2hStart));
        }
        final ResponseSink sink = slot.sink;
        slot.sink = null;
        if (slot.rowsOnDevice)
        {
            sink.complete(slot.responses, slot.size, slot.fetchRow);
        }
        else
        {
            sink.complete(slot.responses, slot.size);
        }
        free.offer(slot);
    }

    /**
     * @return the failure that stopped this GPU, or {@code null}.
     */
    Throwable failure()
    {
        return failure;
    }

    /**
     * @return slots free now (all of them when idle).
     */
    int freeSlots()
    {
        return free.size();
    }

    /**
     * Stops the completion thread, then frees the slots, streams and device copy of the samples.
     */
    @Override
    public void close()
    {
        running = false;
        try
        {
            completionThread.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        gpu.makeCurrent();
        closeDevice();
    }

    private void closeDevice()
    {
        for (final StreamSlot slot : slots)
        {
            slot.close();
        }
        slots.clear();
        for (final DeviceStream stream : inferStreams)
        {
            stream.close();
        }
        inferStreams.clear();
        fetchStream.close();
        setupStream.close();
        if (deviceSlab != 0)
        {
            gpu.free(deviceSlab);
            deviceSlab = 0;
        }
    }
}
