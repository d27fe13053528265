package org.jloadgen.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

import org.jloadgen.bindings.JvmFlags;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

/**
 * The physical floor of a hand-off between the issue thread and one completing thread on another core: a
 * busy-spin ping-pong over two padded {@code long}s (release stores, acquire loads), no engine code. DESIGN.md
 * quotes about 120 ns (p50) per round trip on the development machine; {@link DispatchBenchmark}'s SingleStream
 * score with {@code sut=null-worker} is this plus the engine's own work. Sample mode, because the mean is
 * dominated by the rare milliseconds a spinning thread loses to the OS on a small machine: read the {@code ping}
 * percentiles (p0.50 is the figure DESIGN.md quotes); the aux counter {@code spins} counts the pong side's empty
 * polls.
 * <p>
 * Both threads spin, so the benchmark needs two otherwise idle cores: on the two-core development machine JIT,
 * GC and the OS preempt them now and then, which shows as a long tail in {@code -bm sample}.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class PingPongBenchmark
{
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** ping at index 16, pong at index 32: each alone on its 128-byte pair of cache lines. */
    private static final int PING = 16;
    private static final int PONG = 32;

    private final long[] cells = new long[48];

    /**
     * Counts of the answering side.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class PongCounters
    {
        /** Polls that found no new ping. */
        public long spins;

        /**
         * Clears the count before each iteration.
         */
        @Setup(Level.Iteration)
        public void clear()
        {
            spins = 0;
        }
    }

    /**
     * Sends the next ping and waits for its pong: one round trip.
     *
     * @param control tells the wait to give up when the iteration ends (the pong thread may have stopped).
     * @return the sequence number.
     */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long ping(final Control control)
    {
        final long[] c = cells;
        final long seq = (long)LONGS.getOpaque(c, PING) + 1;
        LONGS.setRelease(c, PING, seq);
        while ((long)LONGS.getAcquire(c, PONG) != seq && !control.stopMeasurement)
        {
            Thread.onSpinWait();
        }
        return seq;
    }

    /**
     * Answers the next ping (if one comes before the iteration ends).
     *
     * @param counters this thread's counts.
     * @return the sequence number answered.
     */
    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public long pong(final PongCounters counters)
    {
        final long[] c = cells;
        final long answered = (long)LONGS.getOpaque(c, PONG);
        final long seq = (long)LONGS.getAcquire(c, PING);
        if (seq != answered)
        {
            LONGS.setRelease(c, PONG, seq);
        }
        else
        {
            counters.spins++;
            Thread.onSpinWait();
        }
        return seq;
    }
}
