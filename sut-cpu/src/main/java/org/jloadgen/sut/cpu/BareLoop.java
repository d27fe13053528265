package org.jloadgen.sut.cpu;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtException;

/**
 * ONNX Runtime driven by a bare Java loop, with no load generator: the baseline the Offline throughput of
 * JLoadGen is compared with, and the calibration of the default job's expected QPS. Each thread runs batches of
 * consecutive samples of a contiguous block exactly as a {@link CpuSut} worker does (an input tensor over the
 * block's memory, outputs into a pre-allocated tensor), with nothing in between.
 */
public final class BareLoop
{
    private BareLoop()
    {
    }

    /**
     * What a loop did.
     *
     * @param samples   samples inferred in the measured interval.
     * @param elapsedNs length of the measured interval.
     * @param cpuNs     CPU time the loop threads used in the measured interval.
     */
    public record Result(long samples, long elapsedNs, long cpuNs)
    {
        /**
         * @return samples per second.
         */
        public double samplesPerSecond()
        {
            return elapsedNs <= 0 ? 0 : samples * 1e9 / elapsedNs;
        }

        /**
         * @return CPU nanoseconds per sample: the inference cost, whatever else the machine runs.
         */
        public double cpuNsPerSample()
        {
            return samples <= 0 ? 0 : (double)cpuNs / samples;
        }
    }

    /**
     * Runs the loop.
     *
     * @param model       the model (its session is shared by the threads, as by the SUT's workers).
     * @param data        {@code sampleCount} samples back to back.
     * @param sampleBytes bytes of one sample.
     * @param batch       samples per run.
     * @param threads     threads calling the session.
     * @param warmupNs    time before measuring.
     * @param durationNs  time measured.
     * @return samples and time of the measured interval.
     * @throws IllegalStateException if ONNX Runtime fails.
     */
    public static Result run(final OnnxModel model, final MemorySegment data, final long sampleBytes,
        final int batch, final int threads, final long warmupNs, final long durationNs)
    {
        final long sampleCount = data.byteSize() / sampleBytes;
        if (sampleCount < batch)
        {
            throw new IllegalArgumentException("a batch of " + batch + " needs at least as many samples, got "
                + sampleCount);
        }
        final long rowBytes = model.outputRowBytes();
        if (rowBytes < 0)
        {
            throw new IllegalArgumentException("the bare loop needs an output of fixed row size: " + model.describe());
        }
        final AtomicLong samples = new AtomicLong();
        final AtomicLong cpuNs = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final long[] window = new long[2];
        final CyclicBarrier start = new CyclicBarrier(threads, () ->
        {
            window[0] = System.nanoTime() + warmupNs;
            window[1] = window[0] + durationNs;
        });
        final List<Thread> loops = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final long firstSample = (sampleCount / threads) * t;
            loops.add(Thread.ofPlatform().name("bare-loop-" + t).start(() ->
            {
                try
                {
                    start.await();
                    samples.addAndGet(loop(model, data, sampleBytes, sampleCount, firstSample, batch, rowBytes,
                        window[0], window[1], cpuNs));
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }));
        }
        for (final Thread t : loops)
        {
            try
            {
                t.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", ex);
            }
        }
        if (failure.get() != null)
        {
            throw new IllegalStateException("bare loop failed: " + failure.get(), failure.get());
        }
        return new Result(samples.get(), durationNs, cpuNs.get());
    }

    private static long loop(final OnnxModel model, final MemorySegment data, final long sampleBytes,
        final long sampleCount, final long firstSample, final int batch, final long rowBytes, final long measureFromNs,
        final long measureToNs, final AtomicLong cpuNs) throws OrtException
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long[] inputShape = model.inputShape();
        inputShape[0] = batch;
        final long[] outputShape = model.outputShape();
        outputShape[0] = batch;
        try (Arena arena = Arena.ofConfined())
        {
            final ByteBuffer out = arena.allocate(Math.max(1, rowBytes * batch), 64).asByteBuffer()
                .order(ByteOrder.nativeOrder());
            try (OnnxTensor output = OnnxTensor.createTensor(model.env(), out, outputShape, model.outputType()))
            {
                final Map<String, OnnxTensor> outputs = Map.of(model.outputName(), output);
                long position = firstSample;
                long counted = 0;
                boolean measuring = false;
                long cpuStartNs = 0;
                long cpuEndNs = 0;
                while (true)
                {
                    final long nowNs = System.nanoTime();
                    if (nowNs - measureToNs >= 0)
                    {
                        cpuNs.addAndGet(cpuEndNs - cpuStartNs);
                        return counted;
                    }
                    if (!measuring && nowNs - measureFromNs >= 0)
                    {
                        measuring = true;
                        cpuStartNs = threads.getCurrentThreadCpuTime();
                        cpuEndNs = cpuStartNs;
                    }
                    if (position + batch > sampleCount)
                    {
                        position = 0;
                    }
                    final ByteBuffer in = data.asSlice(position * sampleBytes, batch * sampleBytes).asByteBuffer()
                        .order(ByteOrder.nativeOrder());
                    try (OnnxTensor input = OnnxTensor.createTensor(model.env(), in, inputShape, model.inputType()))
                    {
                        model.session().run(Map.of(model.inputName(), input), outputs).close();
                    }
                    position += batch;
                    if (measuring && System.nanoTime() - measureToNs < 0)
                    {
                        counted += batch;
                        cpuEndNs = threads.getCurrentThreadCpuTime();
                    }
                }
            }
        }
    }
}
