package org.jloadgen.sut.tensorrt;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.jloadgen.api.QuerySampleLibrary;

/**
 * The benchmark's baseline: the SUT's own engine, slots, streams, graphs and pinned slab driven by a bare loop per
 * GPU, with no LoadGen, no batcher and no completion thread: each slot in turn waits for its previous batch, then
 * takes the next full batch of adjacent samples (one copy), inference and copy back. What JLoadGen's Offline run
 * reaches against this is the harness's cost ({@code sut-tensorrt/README.md}, "Benchmark").
 */
public final class BareLoop
{
    private BareLoop()
    {
    }

    /**
     * @param samplesPerSecond samples completed per second over the measured window, all GPUs.
     * @param samples          samples completed in it.
     * @param elapsedNs        its length.
     */
    public record Result(double samplesPerSecond, long samples, long elapsedNs)
    {
    }

    /**
     * Runs the loop on every GPU of the SUT (nothing else may be running on it).
     *
     * @param sut        the SUT, idle.
     * @param warmupNs   unmeasured time first.
     * @param durationNs measured time.
     * @return the throughput.
     */
    public static Result run(final TensorRtSut sut, final long warmupNs, final long durationNs)
    {
        final QuerySampleLibrary library = sut.library();
        final long[] set = LongStream.range(0, library.performanceSampleCount()).toArray();
        library.loadSamplesToRam(set);
        try
        {
            final AtomicLong measured = new AtomicLong();
            final long startNs = System.nanoTime();
            final long measureFromNs = startNs + warmupNs;
            final long endNs = measureFromNs + durationNs;
            final List<Thread> threads = new ArrayList<>();
            final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (final GpuPipeline pipeline : sut.pipelines())
            {
                final Thread t = new Thread(() ->
                {
                    try
                    {
                        measured.addAndGet(loop(pipeline, set.length, measureFromNs, endNs));
                    }
                    catch (final Throwable ex)
                    {
                        failures.add(ex);
                    }
                }, "bare-loop-gpu" + pipeline.gpu.ordinal());
                threads.add(t);
                t.start();
            }
            for (final Thread t : threads)
            {
                t.join();
            }
            if (!failures.isEmpty())
            {
                throw new IllegalStateException("the bare loop failed: " + failures.get(0), failures.get(0));
            }
            // Batches the loop ran are not part of the next test's statistics.
            sut.statistics().reset();
            return new Result(measured.get() * 1e9 / durationNs, measured.get(), durationNs);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        finally
        {
            library.unloadSamplesFromRam(set);
        }
    }

    private static long loop(final GpuPipeline pipeline, final int loaded, final long measureFromNs,
        final long endNs)
    {
        pipeline.gpu.makeCurrent();
        final BusySpinIdleStrategy idle = new BusySpinIdleStrategy();
        final List<StreamSlot> slots = new ArrayList<>();
        for (int i = 0; i < pipeline.slots.size(); i++)
        {
            slots.add(pipeline.acquire(idle));
        }
        final int batch = Math.min(pipeline.settings.maxBatchSize(), loaded);
        final long sampleBytes = pipeline.layout.sampleBytes();
        final long stride = pipeline.inputStride();
        final long base = pipeline.inputBase();
        final boolean onDevice = pipeline.inputOnDevice();
        final boolean[] busy = new boolean[slots.size()];
        long counted = 0;
        int position = 0;
        try
        {
            for (int i = 0; System.nanoTime() - endNs < 0; i = (i + 1) % slots.size())
            {
                final StreamSlot slot = slots.get(i);
                if (busy[i])
                {
                    slot.d2hDone.synchronize();
                    final long completedNs = System.nanoTime();
                    if (completedNs - measureFromNs >= 0 && completedNs - endNs < 0)
                    {
                        counted += slot.size;
                    }
                }
                if (position + batch > loaded)
                {
                    position = 0;
                }
                slot.size = batch;
                slot.copyStream.record(slot.h2dStart);
                if (onDevice)
                {
                    slot.copyStream.copyOnDevice(slot.deviceInput, base + position * stride, batch * sampleBytes);
                }
                else
                {
                    slot.copyStream.copyToDevice(slot.deviceInput, base + position * stride, batch * sampleBytes);
                }
                slot.copyStream.record(slot.h2dDone);
                slot.enqueueInference(batch);
                slot.enqueueOutputCopy(batch, false);
                busy[i] = true;
                position += batch;
            }
        }
        finally
        {
            for (final StreamSlot slot : slots)
            {
                slot.d2hDone.synchronize();
                pipeline.release(slot);
            }
        }
        return counted;
    }
}
