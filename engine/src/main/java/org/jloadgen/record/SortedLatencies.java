package org.jloadgen.record;

import java.util.Arrays;

/**
 * Latencies in ns sorted ascending, as LoadGen sorts them before taking percentiles (spec §7.1;
 * {@code loadgen/results.cc}, {@code PerformanceSummary::ProcessLatencies}). The engine
 * keeps large arrays off-heap and sorts them in place; small ones (tests, query latencies) live on the heap.
 */
public interface SortedLatencies
{
    /**
     * @return number of latencies.
     */
    long count();

    /**
     * @param i rank in {@code [0, count())}.
     * @return the latency of that rank.
     */
    long get(long i);

    /**
     * @return the int64 sum of all latencies (for LoadGen's integer mean).
     */
    long sum();

    /**
     * @param latenciesNs latencies in any order; the array is sorted in place.
     * @return a view over the sorted array.
     */
    static SortedLatencies sortInPlace(final long[] latenciesNs)
    {
        Arrays.sort(latenciesNs);
        long sum = 0;
        for (final long l : latenciesNs)
        {
            sum += l;
        }
        final long total = sum;
        return new SortedLatencies()
        {
            @Override
            public long count()
            {
                return latenciesNs.length;
            }

            @Override
            public long get(final long i)
            {
                return latenciesNs[(int)i];
            }

            @Override
            public long sum()
            {
                return total;
            }
        };
    }
}
