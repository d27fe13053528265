package org.jloadgen.sut.tensorrt;

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
 * runs) are one copy per run of adjacent positions. Nothing here allocates or waits for the device.
 */
final class IssueProcessor implements BatchProcessor
{
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
     * Copies the batch's samples into the slot's input buffer: one copy per run of adjacent loaded positions (a
     * contiguous batch is one copy), from the pinned slab or the device copy of it.
     */
    private void copyInput(final SampleBatch batch, final StreamSlot slot)
    {
        final DeviceStream stream = slot.copyStream;
        final long base = pipeline.inputBase();
        final boolean onDevice = pipeline.inputOnDevice();
        final long stride = pipeline.inputStride();
        final int n = batch.size();
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
            final long destination = slot.deviceInput + first * sampleBytes;
            final long source = base + position * stride;
            final long bytes = (i - first) * sampleBytes;
            if (onDevice)
            {
                stream.copyOnDevice(destination, source, bytes);
            }
            else
            {
                stream.copyToDevice(destination, source, bytes);
            }
            copies++;
        }
        stream.record(slot.h2dDone);
    }

    /**
     * @return batches this thread enqueued (read after the run).
     */
    long batches()
    {
        return batches;
    }

    /**
     * @return input copies it enqueued: one per run of adjacent samples (read after the run).
     */
    long copies()
    {
        return copies;
    }

    /**
     * @return times it found every slot busy and held batch formation back until one was free (read after the run).
     */
    long slotWaits()
    {
        return slotWaits;
    }
}
