package org.jloadgen.sut.tensorrt;

import java.lang.foreign.MemorySegment;

import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.sut.BatchProcessor;
import org.jloadgen.sut.SampleBatch;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * An issue thread of one GPU (a {@link org.jloadgen.sut.BatchingSut} worker): forms a batch only when the GPU has a
 * free slot, enqueues its copies, inference and copy back on that slot's streams, and hands the slot to the GPU's
 * completion thread, which completes the batch. Samples adjacent in the loaded set (MultiStream queries, Offline
 * runs) are one copy per run of adjacent positions; a scattered batch of small samples (Server) is first gathered on
 * the host into the slot's pinned input buffer and copied once, as NVIDIA's harness does: a {@code cudaMemcpyAsync}
 * per sample made this thread the Server bottleneck on a GPU (sut-tensorrt/README.md, "On a GPU"). From the device
 * copy of the loaded set ({@code start-from-device}) it is one device-to-device copy per run. Nothing here allocates
 * or waits for the device.
 */
final class IssueProcessor implements BatchProcessor
{
    /** Host bytes a gather may copy for each device copy it saves (see {@link #worthGathering}). */
    static final long GATHER_BYTES_PER_SAVED_COPY = 16 * 1024;
    /** All of the address space, for host copies between raw addresses without a segment per copy. */
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final GpuPipeline pipeline;
    private final IdleStrategy slotIdle;
    private final SutStatistics.Recorder recorder;
    private final int enqueueStage;
    private final long sampleBytes;
    private final boolean rowsOnDemand;
    private boolean bound;
    private boolean waiting;
    private long batches;
    private long copies;
    private long gathers;
    private long slotWaits;

    /**
     * @param pipeline   the GPU this thread feeds.
     * @param statistics where the host time of enqueuing a batch goes.
     */
    IssueProcessor(final GpuPipeline pipeline, final SutStatistics statistics)
    {
        this.pipeline = pipeline;
        this.slotIdle = pipeline.settings.issueIdle().newIdleStrategy();
        this.recorder = statistics.newRecorder();
        this.enqueueStage = statistics.stage(GpuPipeline.STAGE_ENQUEUE);
        this.sampleBytes = pipeline.layout.sampleBytes();
        this.rowsOnDemand = pipeline.settings.rawOutputsOnDemand();
    }

    @Override
    public boolean readyForBatch()
    {
        if (!bound)
        {
            // Once per thread: CUDA binds the device to the calling thread.
            pipeline.gpu.makeCurrent();
            bound = true;
        }
        if (pipeline.hasFreeSlot())
        {
            waiting = false;
            return true;
        }
        if (!waiting)
        {
            slotWaits++;
            waiting = true;
        }
        return false;
    }

    @Override
    public void process(final SampleBatch batch, final QuerySampleResponses responses, final ResponseSink sink)
    {
        final long startNs = System.nanoTime();
        final StreamSlot slot = pipeline.acquire(slotIdle);
        final int n = batch.size();
        for (int i = 0; i < n; i++)
        {
            slot.setResponse(i, batch.responseId(i));
        }
        slot.size = n;
        slot.firstSampleIndex = batch.sampleIndex(0);
        slot.sink = sink;
        copyInput(batch, slot);
        slot.enqueueInference(n);
        slot.enqueueOutputCopy(n, rowsOnDemand);
        batches++;
        pipeline.submit(slot);
        recorder.recordStageNs(enqueueStage, System.nanoTime() - startNs);
    }

    /**
     * Copies the batch's samples into the slot's input buffer: one copy per run of adjacent loaded positions, from
     * the pinned slab or the device copy of it, or, where that is cheaper, a gather into the slot's pinned buffer and
     * one copy.
     */
    private void copyInput(final SampleBatch batch, final StreamSlot slot)
    {
        final DeviceStream stream = slot.copyStream;
        final long base = pipeline.inputBase();
        final boolean onDevice = pipeline.inputOnDevice();
        final long stride = pipeline.inputStride();
        final int n = batch.size();
        final boolean gather =
            !onDevice && slot.hostInput != 0 && worthGathering(batch.size(), runs(batch, stride), sampleBytes);
        stream.record(slot.h2dStart);
        int i = 0;
        while (i < n)
        {
            final int first = i;
            final int position = batch.position(i);
            // Merge adjacent positions only where samples are packed (stride = sample size): then a run is one range.
            while (stride == sampleBytes && i + 1 < n && batch.position(i + 1) == batch.position(i) + 1)
            {
                i++;
            }
            i++;
            final long offset = first * sampleBytes;
            final long source = base + position * stride;
            final long bytes = (i - first) * sampleBytes;
            if (gather)
            {
                MemorySegment.copy(EVERYTHING, source, EVERYTHING, slot.hostInput + offset, bytes);
            }
            else if (onDevice)
            {
                stream.copyOnDevice(slot.deviceInput + offset, source, bytes);
                copies++;
            }
            else
            {
                stream.copyToDevice(slot.deviceInput + offset, source, bytes);
                copies++;
            }
        }
        if (gather)
        {
            stream.copyToDevice(slot.deviceInput, slot.hostInput, n * sampleBytes);
            copies++;
            gathers++;
        }
        stream.record(slot.h2dDone);
    }

    /**
     * @param samples     the batch's samples.
     * @param runs        its runs of samples adjacent in the loaded set.
     * @param sampleBytes bytes per sample.
     * @return whether to gather the batch on the host: where the copies it saves cost more than the bytes it moves.
     *         One {@code cudaMemcpyAsync} costs the issue thread microseconds, what a host copy of some 16 KiB takes
     *         (sut-tensorrt/README.md, "On a GPU"); so a batch of 64 small samples is gathered, a batch of large ones
     *         (150 KiB images) or one that wraps round the loaded set once (two runs) is not.
     */
    static boolean worthGathering(final long samples, final long runs, final long sampleBytes)
    {
        return runs > 1 && samples * sampleBytes <= (runs - 1) * GATHER_BYTES_PER_SAVED_COPY;
    }

    /**
     * @return the batch's runs of samples adjacent in the loaded set (each a copy of its own unless gathered).
     */
    private long runs(final SampleBatch batch, final long stride)
    {
        final int n = batch.size();
        long runs = 1;
        for (int i = 1; i < n; i++)
        {
            if (stride != sampleBytes || batch.position(i) != batch.position(i - 1) + 1)
            {
                runs++;
            }
        }
        return runs;
    }

    /**
     * @return batches this thread enqueued (read after the run).
     */
    long batches()
    {
        return batches;
    }

    /**
     * @return input copies it enqueued: one per run of adjacent samples, one per gathered batch (read after the run).
     */
    long copies()
    {
        return copies;
    }

    /**
     * @return batches it gathered on the host before their one copy (read after the run).
     */
    long gathers()
    {
        return gathers;
    }

    /**
     * @return times it found every slot busy and held batch formation back until one was free (read after the run).
     */
    long slotWaits()
    {
        return slotWaits;
    }
}
