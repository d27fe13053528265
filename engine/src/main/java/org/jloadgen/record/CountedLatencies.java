package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A large series' sample latencies in sorted order without sorting them: the latencies in
 * {@code [0, 2^}{@value #COUNTED_BITS}{@code ) ns} (4.19 ms) are counted per nanosecond while they are computed,
 * and only the others (longer, or negative) are kept in native memory and sorted. A rank is then found in the counts.
 * Exact, as LoadGen's sort is: every latency keeps its value, and a rank's latency is the one LoadGen's sorted array
 * holds there.
 * <p>
 * Why not sort: after a VALID 10 s null-SUT SingleStream run the 64M latencies took 0.48 s to sort (a counting sort
 * already, {@link LongSegmentSort}) after a 0.49 s pass that computed them and a 0.15 s pass that summed them;
 * counting in the computing pass leaves one pass (benchmarks/README.md, "Start to finish", session 7). Nothing reads
 * more than a few dozen ranks of a series' latencies (percentiles, early stopping, minimum and maximum).
 * <p>
 * Filled by one thread ({@link #add}), then {@link #finish finished}; read-only after that.
 */
final class CountedLatencies implements SortedLatencies
{
    /** Latencies below 2^COUNTED_BITS ns are counted: 16 MiB of {@code int} counters. */
    static final int COUNTED_BITS = 22;
    private static final int BLOCK_BITS = 12;
    private static final int BLOCKS = 1 << (COUNTED_BITS - BLOCK_BITS);

    private final int[] counts = new int[1 << COUNTED_BITS];
    /** {@code blockStarts[b]}: counted latencies in the blocks before block b; {@code blockStarts[BLOCKS]}: all. */
    private final long[] blockStarts = new long[BLOCKS + 1];
    private final MemorySegment kept;
    private long keptCount;
    private long countedCount;
    private long sum;
    /** Kept latencies below 0: they rank before every counted one. */
    private long keptNegative;
    private boolean finished;

    /** The last value found and the ranks it spans, for callers that read ranks in order. */
    private long runValue;
    private long runFirstRank = -1;
    private long runEndRank = -1;

    /**
     * @param kept where latencies outside the counted range go, 8 bytes each; room for every latency of the series.
     */
    CountedLatencies(final MemorySegment kept)
    {
        this.kept = kept;
    }

    /**
     * @param maxLatencies the most latencies the series can have.
     * @return whether the counters fit: each counts at most {@link Integer#MAX_VALUE}.
     */
    static boolean canCount(final long maxLatencies)
    {
        return maxLatencies < Integer.MAX_VALUE;
    }

    /**
     * Adds one latency.
     *
     * @param latencyNs the latency.
     */
    void add(final long latencyNs)
    {
        sum += latencyNs;
        if (latencyNs >>> COUNTED_BITS == 0)
        {
            counts[(int)latencyNs]++;
        }
        else
        {
            kept.set(ValueLayout.JAVA_LONG, keptCount++ << 3, latencyNs);
        }
    }

    /**
     * Sorts the kept latencies and sums the counts per block. Call once, after the last {@link #add}.
     *
     * @return this.
     */
    CountedLatencies finish()
    {
        LongSegmentSort.sort(kept, keptCount);
        long low = 0;
        long high = keptCount;
        while (low < high)
        {
            final long mid = (low + high) >>> 1;
            if (keptAt(mid) < 0)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        keptNegative = low;
        long counted = 0;
        for (int b = 0; b < BLOCKS; b++)
        {
            blockStarts[b] = counted;
            for (int v = b << BLOCK_BITS, end = v + (1 << BLOCK_BITS); v < end; v++)
            {
                counted += counts[v];
            }
        }
        blockStarts[BLOCKS] = counted;
        countedCount = counted;
        finished = true;
        return this;
    }

    @Override
    public long count()
    {
        return countedCount + keptCount;
    }

    @Override
    public long get(final long i)
    {
        if (!finished)
        {
            throw new IllegalStateException("latencies read before they were all added");
        }
        if (i < 0 || i >= count())
        {
            throw new IndexOutOfBoundsException("latency rank " + i + " of " + count());
        }
        if (i < keptNegative)
        {
            return keptAt(i);
        }
        final long rank = i - keptNegative;
        if (rank >= countedCount)
        {
            return keptAt(i - countedCount);
        }
        if (rank >= runFirstRank && rank < runEndRank)
        {
            return runValue;
        }
        // The last block whose first rank is at most this one, then the value within it.
        int low = 0;
        int high = BLOCKS;
        while (high - low > 1)
        {
            final int mid = (low + high) >>> 1;
            if (blockStarts[mid] <= rank)
            {
                low = mid;
            }
            else
            {
                high = mid;
            }
        }
        long before = blockStarts[low];
        int v = low << BLOCK_BITS;
        while (before + counts[v] <= rank)
        {
            before += counts[v];
            v++;
        }
        runValue = v;
        runFirstRank = before;
        runEndRank = before + counts[v];
        return v;
    }

    @Override
    public long sum()
    {
        return sum;
    }

    private long keptAt(final long i)
    {
        return kept.get(ValueLayout.JAVA_LONG, i << 3);
    }
}
