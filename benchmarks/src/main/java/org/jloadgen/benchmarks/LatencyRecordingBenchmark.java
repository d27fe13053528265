package org.jloadgen.benchmarks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.record.LatencyIntervalLog;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Recording one sample latency, single-threaded: the engine's exact store (one {@code long} written into the
 * series' off-heap slot array, sorted after the run) against the HdrHistogram alternatives: the wait-free
 * multi-writer {@link Recorder} the engine feeds for the {@code .hlog} (what it adds per completion), a
 * {@link SingleWriterRecorder}, and a plain {@link Histogram}. Latencies cycle through {@value #VALUES}
 * pre-drawn values (mostly 50-300 ns with a 1% tail up to 10 ms), so neither value nor bucket is constant;
 * slots cycle through {@value #SLOTS} (8 MiB, beyond L2), as a long series streams through memory.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class LatencyRecordingBenchmark
{
    /** Distinct latency values (a power of two). */
    static final int VALUES = 1 << 12;
    /** Off-heap slots (a power of two). */
    static final int SLOTS = 1 << 20;

    private final long[] latencies = new long[VALUES];
    private Arena arena;
    private MemorySegment slots;
    private Recorder recorder;
    private SingleWriterRecorder singleWriter;
    private Histogram histogram;
    private int value;
    private long slot;

    /**
     * Draws the latencies and allocates the recorders.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < VALUES; i++)
        {
            latencies[i] = random.nextInt(100) == 0 ? random.nextLong(300, 10_000_000) : random.nextLong(50, 300);
        }
        arena = Arena.ofShared();
        slots = arena.allocate((long)SLOTS << 3, 4096);
        recorder = LatencyIntervalLog.newRecorder();
        singleWriter = new SingleWriterRecorder(1, LatencyIntervalLog.HIGHEST_TRACKABLE_NS, 3);
        histogram = new Histogram(1, LatencyIntervalLog.HIGHEST_TRACKABLE_NS, 3);
    }

    /**
     * Frees the slots.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        arena.close();
    }

    private long nextLatency()
    {
        final int v = value;
        value = (v + 1) & (VALUES - 1);
        return latencies[v];
    }

    /**
     * @return the next latency, nothing recorded: the floor of the others.
     */
    @Benchmark
    public long baseline()
    {
        return nextLatency();
    }

    /**
     * @return the slot written: the engine's exact recording.
     */
    @Benchmark
    public long offHeapSlot()
    {
        final long s = slot;
        slot = (s + 1) & (SLOTS - 1);
        slots.set(ValueLayout.JAVA_LONG, s << 3, nextLatency());
        return s;
    }

    /**
     * Records into the multi-writer {@link Recorder} (the engine's {@code .hlog} feed).
     *
     * @return the recorder.
     */
    @Benchmark
    public Recorder hdrRecorder()
    {
        recorder.recordValue(nextLatency());
        return recorder;
    }

    /**
     * Records into a {@link SingleWriterRecorder}.
     *
     * @return the recorder.
     */
    @Benchmark
    public SingleWriterRecorder hdrSingleWriterRecorder()
    {
        singleWriter.recordValue(nextLatency());
        return singleWriter;
    }

    /**
     * Records into a plain {@link Histogram} (not safe to read while written).
     *
     * @return the histogram.
     */
    @Benchmark
    public Histogram hdrHistogram()
    {
        histogram.recordValue(nextLatency());
        return histogram;
    }
}
