package org.jloadgen.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * Counted latencies rank as the sorted array does, rank for rank, in order and at random, with latencies inside the
 * counted range, past it, negative, all equal, or none.
 */
class CountedLatenciesTest
{
    @Test
    void shouldRankAsTheSortedArrayDoes()
    {
        final SplittableRandom random = new SplittableRandom(20);
        final long counted = 1L << CountedLatencies.COUNTED_BITS;
        for (int shape = 0; shape < 7; shape++)
        {
            final int n = shape == 6 ? 0 : 50_000 + shape;
            final long[] values = new long[n];
            for (int i = 0; i < n; i++)
            {
                values[i] = switch (shape)
                {
                    case 0 -> 37 + random.nextInt(200);                        // a null SUT's SingleStream
                    case 1 -> random.nextLong(3 * counted);                     // a third counted, the rest kept
                    case 2 -> random.nextInt(10) == 0 ? -random.nextLong(1, 1_000) : random.nextLong(counted);
                    case 3 -> 4_096L * random.nextInt(1_000);                   // block boundaries, sparse
                    case 4 -> counted - 1 + random.nextInt(2);                  // both sides of the edge
                    case 5 -> 12_345L;                                          // all equal
                    default -> 0;
                };
            }
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment kept = arena.allocate(Math.max(8, 8L * n));
                final CountedLatencies latencies = new CountedLatencies(kept);
                long sum = 0;
                for (final long v : values)
                {
                    latencies.add(v);
                    sum += v;
                }
                latencies.finish();
                final long[] sorted = values.clone();
                Arrays.sort(sorted);
                assertEquals(n, latencies.count(), "shape " + shape);
                assertEquals(sum, latencies.sum(), "shape " + shape);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(sorted[i], latencies.get(i), "shape " + shape + " rank " + i);
                }
                for (int k = 0; k < 1_000 && n > 0; k++)
                {
                    final int i = random.nextInt(n);
                    assertEquals(sorted[i], latencies.get(i), "shape " + shape + " random rank " + i);
                }
                assertThrows(IndexOutOfBoundsException.class, () -> latencies.get(n));
                assertThrows(IndexOutOfBoundsException.class, () -> latencies.get(-1));
            }
        }
    }

    @Test
    void shouldRefuseReadsBeforeTheLastLatency()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final CountedLatencies latencies = new CountedLatencies(arena.allocate(8));
            latencies.add(5);
            assertThrows(IllegalStateException.class, () -> latencies.get(0));
        }
    }
}
