package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import org.junit.jupiter.api.Test;

class TopKTest
{
    private static int[] topK(final float[] row, final int k)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment logits = arena.allocateFrom(ValueLayout.JAVA_FLOAT, row);
            final MemorySegment ids = arena.allocate(4L * k);
            TopK.compute(logits, ids, 1, row.length, k);
            return ids.toArray(ValueLayout.JAVA_INT);
        }
    }

    @Test
    void shouldRankLargerFirstLowerColumnFirstAmongEqualsAndNaNLast()
    {
        final float nan = Float.NaN;
        assertArrayEquals(new int[] {2, 0, 3, 1}, topK(new float[] {5, nan, 7, 5}, 4));
        assertArrayEquals(new int[] {1}, topK(new float[] {nan, Float.NEGATIVE_INFINITY, nan}, 1),
            "any number beats NaN");
        assertArrayEquals(new int[] {0, 1, 2}, topK(new float[] {nan, nan, nan}, 3), "all NaN: column order");
        assertArrayEquals(new int[] {3}, topK(new float[] {1, 2, 3, Float.POSITIVE_INFINITY}, 1));
        assertArrayEquals(new int[] {1, 2}, topK(new float[] {0, -0.0f + 1, 1}, 2), "ties keep the first");
    }

    @Test
    void shouldAgreeWithTheArgmaxTheAccuracyCheckerUses()
    {
        final Random random = new Random(42);
        final int rows = 500;
        final int cols = 37;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment logits = arena.allocate(4L * rows * cols);
            for (long i = 0; i < (long)rows * cols; i++)
            {
                // Few distinct values: many ties.
                logits.setAtIndex(ValueLayout.JAVA_FLOAT, i, random.nextInt(9) - 4);
            }
            final MemorySegment ids = arena.allocate(4L * rows * 5);
            TopK.compute(logits, ids, rows, cols, 5);
            for (int r = 0; r < rows; r++)
            {
                int best = 0;
                for (int c = 1; c < cols; c++)
                {
                    // ClassificationAccuracy's argmax of float32 logits: strictly greater replaces.
                    if (logits.getAtIndex(ValueLayout.JAVA_FLOAT, (long)r * cols + c)
                        > logits.getAtIndex(ValueLayout.JAVA_FLOAT, (long)r * cols + best))
                    {
                        best = c;
                    }
                }
                assertEquals(best, ids.getAtIndex(ValueLayout.JAVA_INT, r * 5L), "row " + r);
                for (int j = 1; j < 5; j++)
                {
                    final float previous = logits.getAtIndex(ValueLayout.JAVA_FLOAT,
                        (long)r * cols + ids.getAtIndex(ValueLayout.JAVA_INT, r * 5L + j - 1));
                    final float current = logits.getAtIndex(ValueLayout.JAVA_FLOAT,
                        (long)r * cols + ids.getAtIndex(ValueLayout.JAVA_INT, r * 5L + j));
                    assertEquals(true, previous >= current, "row " + r + " is ranked");
                }
            }
        }
    }

    @Test
    void shouldRejectKAboveTheColumns()
    {
        assertThrows(IllegalArgumentException.class, () -> topK(new float[] {1, 2}, 3));
        assertThrows(IllegalArgumentException.class, () -> topK(new float[] {1, 2}, 0));
    }
}
