package org.jloadgen.benchmarks.overhead;

import java.util.SplittableRandom;

import org.HdrHistogram.Histogram;

/**
 * The floor of Server latency on this machine, without the engine: one thread busy-spins on
 * {@code System.nanoTime()} until each deadline of a Poisson schedule and records how late it saw it, exactly as
 * the Server issue loop waits (but issues nothing). What it measures is the machine: clock cost, timer interrupts,
 * hypervisor exits and preemption by other processes. Its p99 is the best p99 any issue loop can reach here at that
 * rate; it also counts the stalls (clock reads more than 1 µs apart) that cause it.
 */
public final class SpinFloor
{
    private static final long STALL_NS = 1_000;

    private SpinFloor()
    {
    }

    /**
     * What one measurement saw.
     *
     * @param deadlines       deadlines waited for.
     * @param p50Ns           median lateness.
     * @param p99Ns           99th percentile lateness.
     * @param p999Ns          99.9th percentile lateness.
     * @param maxNs           largest lateness.
     * @param stalls          clock reads more than 1 µs after the previous one.
     * @param stalledFraction time spent in such gaps, over the measured time.
     */
    public record Result(long deadlines, long p50Ns, long p99Ns, long p999Ns, long maxNs, long stalls,
        double stalledFraction)
    {
    }

    /**
     * Spins through a Poisson schedule after a one-second warm-up of the same loop.
     *
     * @param ratePerSecond mean deadlines per second (the Server target QPS).
     * @param durationMs    measured time.
     * @param seed          seed of the schedule.
     * @return the lateness distribution and the stalls.
     */
    public static Result measure(final double ratePerSecond, final long durationMs, final long seed)
    {
        run(ratePerSecond, 1_000, seed + 1);
        return run(ratePerSecond, durationMs, seed);
    }

    private static Result run(final double ratePerSecond, final long durationMs, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final Histogram lateness = new Histogram(60_000_000_000L, 3);
        final double meanGapNs = 1e9 / ratePerSecond;
        final long startNs = System.nanoTime();
        final long endNs = startNs + durationMs * 1_000_000L;
        long deadlineNs = startNs;
        long previousNs = startNs;
        long stalls = 0;
        long stalledNs = 0;
        long nowNs = startNs;
        while (nowNs - endNs < 0)
        {
            deadlineNs += (long)(-Math.log(1.0 - random.nextDouble()) * meanGapNs);
            while (true)
            {
                nowNs = System.nanoTime();
                final long gapNs = nowNs - previousNs;
                previousNs = nowNs;
                if (gapNs > STALL_NS)
                {
                    stalls++;
                    stalledNs += gapNs;
                }
                if (deadlineNs - nowNs <= 0)
                {
                    break;
                }
                Thread.onSpinWait();
            }
            lateness.recordValue(Math.min(nowNs - deadlineNs, lateness.getHighestTrackableValue()));
        }
        return new Result(lateness.getTotalCount(), lateness.getValueAtPercentile(50),
            lateness.getValueAtPercentile(99), lateness.getValueAtPercentile(99.9), lateness.getMaxValue(), stalls,
            (double)stalledNs / (nowNs - startNs));
    }
}
