package org.jloadgen.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LongSegmentSortTest
{
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 17, 100, 4095, 4096, 5000, 100_000, 1_000_003})
    void shouldSortLikeArraysSort(final int n)
    {
        final SplittableRandom random = new SplittableRandom(n);
        for (int shape = 0; shape < 7; shape++)
        {
            final long[] values = new long[n];
            for (int i = 0; i < n; i++)
            {
                values[i] = switch (shape)
                {
                    case 0 -> random.nextLong(1_000_000_000L);         // latencies
                    case 1 -> 49_520_982L;                               // an Offline batch: all equal
                    case 2 -> random.nextLong();                         // negatives and full range
                    case 3 -> random.nextInt(4);                         // few distinct values
                    case 4 -> 9_000L + i / 1024 * 5_000L;                // an Offline query: ascending chunks
                    case 5 -> i == n / 2 ? 1L : 9_000L + i;              // ascending but for one value
                    default -> (long)i * 7 % 1000 - 500;                 // patterned, with negatives
                };
            }
            assertSorted(values);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {10_000, 1_000_000})
    void shouldCountDenseRangesAndKeepOutliersInOrder(final int n)
    {
        final SplittableRandom random = new SplittableRandom(n + 1);
        final long[] latencies = new long[n];
        final long[] tailed = new long[n];
        final long[] negative = new long[n];
        final long[] wideButDense = new long[n];
        for (int i = 0; i < n; i++)
        {
            // A null-SUT SingleStream run: 37..150 ns, the whole array counted.
            latencies[i] = 37 + random.nextInt(113);
            // Mostly small with a 1% tail up to 10 ms: the small values' radix bucket is counted.
            tailed[i] = random.nextInt(100) == 0 ? random.nextLong(10_000_000L) : 50 + random.nextInt(200);
            // Negative TPOT-like values around zero.
            negative[i] = random.nextInt(2_000) - 1_000;
            // A range just at the counting limit.
            wideButDense[i] = 1_000_000_000L + random.nextInt(Math.min(n / 2, 1 << 22));
        }
        assertSorted(latencies);
        assertSorted(tailed);
        assertSorted(negative);
        assertSorted(wideButDense);
        assertSorted(new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0, 5, 5, Long.MIN_VALUE});
    }

    private static void assertSorted(final long[] values)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = arena.allocate(Math.max(8, 8L * values.length), 8);
            MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_LONG, 0, values.length);
            LongSegmentSort.sort(segment, values.length);
            final long[] expected = values.clone();
            Arrays.sort(expected);
            assertArrayEquals(expected, segment.asSlice(0, 8L * values.length).toArray(ValueLayout.JAVA_LONG));
        }
    }
}
