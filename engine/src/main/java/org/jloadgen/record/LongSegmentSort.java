package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Sorts {@code long}s in place in native memory. Hand-written because the JDK sorts only heap arrays, and
 * copying tens of millions of latencies to the heap would double the memory per sample the engine promises.
 * <p>
 * Large arrays already in ascending order (an Offline query completed chunk by chunk in issue order) are left as
 * they are after the first pass. Others use an in-place MSD radix sort (American flag sort) on bytes, starting at
 * the highest byte in which the values differ: latencies span a few bytes, so a sort is a few linear passes, with
 * no extra memory.
 * Where many values share a narrow range (the whole array, or one radix bucket: {@code n >= 2 * range} and
 * {@code range <= 2^22}) they are counting-sorted instead, two sequential passes with an {@code int} per value of
 * the range (at most 16 MiB, at most a quarter of the sorted bytes): a null-SUT SingleStream run's tens of
 * millions of latencies lie within a few hundred thousand ns, and the in-place permutation's random swaps miss the
 * cache where counting reads and writes in sequence (the per-value costs are in benchmarks/README.md, "Measurements
 * behind the code"). Small buckets fall back to an introsort (three-way quicksort, so runs of equal latencies are
 * linear; insertion sort for short ranges; heapsort past a depth limit).
 */
public final class LongSegmentSort
{
    private static final int INSERTION_THRESHOLD = 24;

    private LongSegmentSort()
    {
    }

    /**
     * Sorts the first {@code count} longs of {@code segment} ascending.
     *
     * @param segment the memory.
     * @param count   number of longs.
     */
    public static void sort(final MemorySegment segment, final long count)
    {
        if (count < 2)
        {
            return;
        }
        if (count < RADIX_THRESHOLD)
        {
            introsort(segment, 0, count - 1, depthLimit(count));
            return;
        }
        // Radix order on (value ^ sign bit) as unsigned equals signed order.
        final long first = get(segment, 0) ^ Long.MIN_VALUE;
        long differing = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long previous = Long.MIN_VALUE;
        boolean ascending = true;
        for (long i = 0; i < count; i++)
        {
            final long v = get(segment, i);
            differing |= (v ^ Long.MIN_VALUE) ^ first;
            min = Math.min(min, v);
            max = Math.max(max, v);
            ascending &= v >= previous;
            previous = v;
        }
        if (differing == 0 || ascending)
        {
            // Already in order: an Offline query's samples completed chunk by chunk, in the order they were issued.
            return;
        }
        final long span = max - min;
        if (span >= 0 && dense(count, span + 1))
        {
            countingSort(segment, 0, count, min, (int)(span + 1));
            return;
        }
        final int highestBit = 63 - Long.numberOfLeadingZeros(differing);
        radix(segment, 0, count, (highestBit >>> 3) << 3);
    }

    private static final long RADIX_THRESHOLD = 4096;
    /** Largest value range counted (16 MiB of counters). */
    private static final int COUNTING_MAX_RANGE = 1 << 22;

    /**
     * @return whether {@code n} values within a range of {@code range} values are worth counting.
     */
    private static boolean dense(final long n, final long range)
    {
        return range <= COUNTING_MAX_RANGE && n >= 2 * range && n < Integer.MAX_VALUE;
    }

    /**
     * Sorts {@code [lo, hi)}, whose values all lie in {@code [min, min + range)}, by counting each value.
     */
    private static void countingSort(final MemorySegment s, final long lo, final long hi, final long min,
        final int range)
    {
        final int[] counts = new int[range];
        for (long i = lo; i < hi; i++)
        {
            counts[(int)(get(s, i) - min)]++;
        }
        long at = lo;
        for (int v = 0; v < range; v++)
        {
            final long value = min + v;
            for (int c = counts[v]; c > 0; c--)
            {
                set(s, at++, value);
            }
        }
    }

    private static int depthLimit(final long n)
    {
        return 2 * (64 - Long.numberOfLeadingZeros(n));
    }

    private static int digit(final long value, final int shift)
    {
        return (int)(((value ^ Long.MIN_VALUE) >>> shift) & 0xFF);
    }

    /**
     * American flag sort of {@code [lo, hi)} on the byte at {@code shift}, then each bucket on the next byte.
     */
    private static void radix(final MemorySegment s, final long lo, final long hi, final int shift)
    {
        final int bucketBits = shift + 8;
        if (bucketBits < 63 && dense(hi - lo, 1L << bucketBits))
        {
            // Every value here shares the bits above bucketBits (of value ^ sign bit): one range to count.
            final long base = (((get(s, lo) ^ Long.MIN_VALUE) >>> bucketBits) << bucketBits) ^ Long.MIN_VALUE;
            countingSort(s, lo, hi, base, 1 << bucketBits);
            return;
        }
        final long[] counts = new long[256];
        for (long i = lo; i < hi; i++)
        {
            counts[digit(get(s, i), shift)]++;
        }
        final long[] next = new long[256];
        final long[] end = new long[256];
        long at = lo;
        for (int b = 0; b < 256; b++)
        {
            next[b] = at;
            at += counts[b];
            end[b] = at;
        }
        for (int b = 0; b < 256; b++)
        {
            while (next[b] < end[b])
            {
                long v = get(s, next[b]);
                int d = digit(v, shift);
                // Cycle: carry v to its bucket, pick up what was there, until one belongs to bucket b.
                while (d != b)
                {
                    final long slot = next[d]++;
                    final long displaced = get(s, slot);
                    set(s, slot, v);
                    v = displaced;
                    d = digit(v, shift);
                }
                set(s, next[b]++, v);
            }
        }
        if (shift == 0)
        {
            return;
        }
        long start = lo;
        for (int b = 0; b < 256; b++)
        {
            final long stop = end[b];
            final long n = stop - start;
            if (n > 1)
            {
                if (n < RADIX_THRESHOLD)
                {
                    introsort(s, start, stop - 1, depthLimit(n));
                }
                else
                {
                    radix(s, start, stop, shift - 8);
                }
            }
            start = stop;
        }
    }

    private static void introsort(final MemorySegment s, final long lo, final long hi, final int depth)
    {
        long left = lo;
        long right = hi;
        int remainingDepth = depth;
        while (right - left > INSERTION_THRESHOLD)
        {
            if (remainingDepth-- == 0)
            {
                heapsort(s, left, right);
                return;
            }
            final long pivot = medianOfThree(get(s, left), get(s, left + ((right - left) >>> 1)), get(s, right));
            // Dutch flag partition: [left, lt) < pivot, [lt, i) == pivot, (gt, right] > pivot.
            long lt = left;
            long gt = right;
            long i = left;
            while (i <= gt)
            {
                final long v = get(s, i);
                if (v < pivot)
                {
                    swap(s, lt++, i++);
                }
                else if (v > pivot)
                {
                    swap(s, i, gt--);
                }
                else
                {
                    i++;
                }
            }
            // Recurse into the smaller side, loop on the larger: O(log n) stack.
            if (lt - left < right - gt)
            {
                introsort(s, left, lt - 1, remainingDepth);
                left = gt + 1;
            }
            else
            {
                introsort(s, gt + 1, right, remainingDepth);
                right = lt - 1;
            }
        }
        insertionSort(s, left, right);
    }

    private static long medianOfThree(final long a, final long b, final long c)
    {
        if (a < b)
        {
            return b < c ? b : Math.max(a, c);
        }
        return a < c ? a : Math.max(b, c);
    }

    private static void insertionSort(final MemorySegment s, final long lo, final long hi)
    {
        for (long i = lo + 1; i <= hi; i++)
        {
            final long v = get(s, i);
            long j = i - 1;
            while (j >= lo && get(s, j) > v)
            {
                set(s, j + 1, get(s, j));
                j--;
            }
            set(s, j + 1, v);
        }
    }

    private static void heapsort(final MemorySegment s, final long lo, final long hi)
    {
        final long n = hi - lo + 1;
        for (long i = n / 2 - 1; i >= 0; i--)
        {
            siftDown(s, lo, i, n);
        }
        for (long end = n - 1; end > 0; end--)
        {
            swap(s, lo, lo + end);
            siftDown(s, lo, 0, end);
        }
    }

    private static void siftDown(final MemorySegment s, final long base, final long start, final long n)
    {
        long root = start;
        while (true)
        {
            long child = 2 * root + 1;
            if (child >= n)
            {
                return;
            }
            if (child + 1 < n && get(s, base + child + 1) > get(s, base + child))
            {
                child++;
            }
            if (get(s, base + root) >= get(s, base + child))
            {
                return;
            }
            swap(s, base + root, base + child);
            root = child;
        }
    }

    private static long get(final MemorySegment s, final long i)
    {
        return s.get(ValueLayout.JAVA_LONG, i << 3);
    }

    private static void set(final MemorySegment s, final long i, final long v)
    {
        s.set(ValueLayout.JAVA_LONG, i << 3, v);
    }

    private static void swap(final MemorySegment s, final long i, final long j)
    {
        final long t = get(s, i);
        set(s, i, get(s, j));
        set(s, j, t);
    }
}
