package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Sorts {@code long}s in place in native memory. Hand-written because the JDK sorts only heap arrays, and
 * copying tens of millions of latencies to the heap would double the memory per sample the engine promises.
 * Introsort: three-way quicksort (median of three) so runs of equal latencies (an Offline batch completes many
 * samples at one timestamp) cost linear time, insertion sort for short ranges, heapsort past a depth limit.
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
        final int depthLimit = 2 * (64 - Long.numberOfLeadingZeros(count));
        introsort(segment, 0, count - 1, depthLimit);
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
