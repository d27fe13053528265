package org.jloadgen.sut.tensorrt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The CPU reference of the device post-processing kernel ({@code native/src/main/cuda/jlg_topk.cu}): the top-k
 * columns of each row of float32 logits, best first. Order: a number beats NaN, a larger value beats a smaller one,
 * and of equal values the lower column wins, so k = 1 is the argmax that keeps the first maximum (as
 * {@code ClassificationAccuracy} scores float32 logits). The simulated device runs this; the GPU tests compare the
 * kernel with it.
 */
public final class TopK
{
    private TopK()
    {
    }

    /**
     * @param va value a.
     * @param ia column of a.
     * @param vb value b.
     * @param ib column of b.
     * @return whether a comes before b.
     */
    public static boolean better(final float va, final int ia, final float vb, final int ib)
    {
        final boolean nanA = Float.isNaN(va);
        final boolean nanB = Float.isNaN(vb);
        if (nanA != nanB)
        {
            return nanB;
        }
        if (!nanA && va != vb)
        {
            return va > vb;
        }
        return ia < ib;
    }

    /**
     * Computes the ids the kernel computes. Allocates nothing.
     *
     * @param logits {@code rows x cols} float32 values in native order, row-major.
     * @param ids    receives {@code rows x k} int32 ids in native order.
     * @param rows   rows.
     * @param cols   columns, at least {@code k}.
     * @param k      ids per row, at least 1.
     */
    public static void compute(final MemorySegment logits, final MemorySegment ids, final int rows, final int cols,
        final int k)
    {
        if (k < 1 || cols < k)
        {
            throw new IllegalArgumentException("top-" + k + " of " + cols + " columns");
        }
        for (int r = 0; r < rows; r++)
        {
            final long row = (long)r * cols * Float.BYTES;
            final long out = (long)r * k * Integer.BYTES;
            for (int round = 0; round < k; round++)
            {
                int best = -1;
                float bestValue = 0;
                for (int c = 0; c < cols; c++)
                {
                    if (chosen(ids, out, round, c))
                    {
                        continue;
                    }
                    final float v = logits.get(ValueLayout.JAVA_FLOAT_UNALIGNED, row + (long)c * Float.BYTES);
                    if (best < 0 || better(v, c, bestValue, best))
                    {
                        best = c;
                        bestValue = v;
                    }
                }
                ids.set(ValueLayout.JAVA_INT_UNALIGNED, out + (long)round * Integer.BYTES, best);
            }
        }
    }

    private static boolean chosen(final MemorySegment ids, final long out, final int round, final int column)
    {
        for (int j = 0; j < round; j++)
        {
            if (ids.get(ValueLayout.JAVA_INT_UNALIGNED, out + (long)j * Integer.BYTES) == column)
            {
                return true;
            }
        }
        return false;
    }
}
