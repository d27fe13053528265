package org.jloadgen.schedule;

import java.util.Arrays;

import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * SyLT's trace generator: queries of one sample, each drawn uniformly with replacement from the sample library,
 * at the times of a Poisson process of a given average rate, one entry at a time until both the minimum length
 * and the minimum duration are met. The arrival times are exactly those of LoadGen's Server schedule with
 * {@code schedule_rng_seed} = the schedule seed and the same target QPS (the same {@code mt19937} and libstdc++
 * {@code exponential_distribution} draws, truncated to whole ns, and the same stopping rule), so a generated
 * trace replays the arrivals of a generated Server run.
 */
public final class PoissonTrace
{
    /** Most queries one trace may hold (the replay keeps them on the heap). */
    public static final long MAX_QUERIES = 1L << 28;

    private PoissonTrace()
    {
    }

    /**
     * @param qps             average arrival rate (positive).
     * @param minQueries      at least this many queries (at least 1).
     * @param minDurationNs   the last query arrives at or after this offset (0 for no minimum).
     * @param librarySize     sample indices are drawn from {@code [0, librarySize)}.
     * @param scheduleSeed    seed of the arrival times' {@code mt19937}.
     * @param sampleSeed      seed of the sample choice's {@code mt19937}.
     * @return the trace.
     * @throws IllegalArgumentException naming the bad value, or when the trace would exceed {@link #MAX_QUERIES}.
     */
    public static ReplayQueries generate(final double qps, final long minQueries, final long minDurationNs,
        final long librarySize, final long scheduleSeed, final long sampleSeed)
    {
        if (!(qps > 0) || Double.isInfinite(qps))
        {
            throw new IllegalArgumentException("trace QPS must be a positive number, got " + qps);
        }
        if (minQueries < 1 || minDurationNs < 0)
        {
            throw new IllegalArgumentException("a trace needs at least 1 query and a duration of at least 0 ns; got "
                + minQueries + " queries, " + minDurationNs + " ns");
        }
        if (librarySize < 1)
        {
            throw new IllegalArgumentException("the sample library must hold at least 1 sample, got " + librarySize);
        }
        final double expected = Math.max(minQueries, qps * (minDurationNs / 1e9));
        if (expected > MAX_QUERIES)
        {
            throw new IllegalArgumentException("a trace of " + (long)expected + " queries is over the limit of "
                + MAX_QUERIES + "; lower the QPS or the minimum duration");
        }
        final Mt19937 scheduleRng = new Mt19937(scheduleSeed);
        final Mt19937 sampleRng = new Mt19937(sampleSeed);
        int capacity = (int)Math.min(MAX_QUERIES, (long)(expected * 1.05) + 64);
        long[] offsets = new long[capacity];
        long[] indices = new long[capacity];
        int queries = 0;
        long timestampNs = 0;
        long previousNs = 0;
        // LoadGen's loop: while (prev_timestamp < gen_duration || queries.size() < min_queries).
        while (previousNs < minDurationNs || queries < minQueries)
        {
            if (queries == capacity)
            {
                if (capacity >= MAX_QUERIES)
                {
                    throw new IllegalArgumentException("the trace grew over " + MAX_QUERIES + " queries");
                }
                capacity = (int)Math.min(MAX_QUERIES, capacity * 2L);
                offsets = Arrays.copyOf(offsets, capacity);
                indices = Arrays.copyOf(indices, capacity);
            }
            indices[queries] = StdRandom.uniformInt(sampleRng, 0, librarySize - 1);
            offsets[queries] = timestampNs;
            queries++;
            previousNs = timestampNs;
            timestampNs += (long)(StdRandom.exponential(scheduleRng, qps) * 1e9);
        }
        final int[] counts = new int[queries];
        Arrays.fill(counts, 1);
        return new ReplayQueries("Poisson trace at " + qps + " QPS", Arrays.copyOf(offsets, queries), counts,
            Arrays.copyOf(indices, queries));
    }
}
