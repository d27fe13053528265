package org.jloadgen.sut.network.kserve;

import java.util.List;

/**
 * Tensor shapes as KServe writes them: a batch axis first, -1 for a dimension of any size.
 */
public final class Shapes
{
    private Shapes()
    {
    }

    /**
     * @param shape dimensions, none negative.
     * @return their product.
     * @throws ArithmeticException on overflow.
     */
    public static long elements(final long[] shape)
    {
        long n = 1;
        for (final long d : shape)
        {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /**
     * @param pattern dimensions where -1 matches any size.
     * @param actual  dimensions.
     * @return whether {@code actual} fits {@code pattern}.
     */
    public static boolean fits(final long[] pattern, final long[] actual)
    {
        if (pattern.length != actual.length)
        {
            return false;
        }
        for (int i = 0; i < pattern.length; i++)
        {
            if (pattern[i] >= 0 && pattern[i] != actual[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param shape dimensions.
     * @return e.g. {@code [-1,3,224,224]}.
     */
    public static String format(final long[] shape)
    {
        final StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++)
        {
            b.append(i == 0 ? "" : ",").append(shape[i]);
        }
        return b.append(']').toString();
    }

    /**
     * @param shape dimensions as protobuf returns them.
     * @return as an array.
     */
    public static long[] of(final List<Long> shape)
    {
        final long[] dims = new long[shape.size()];
        for (int i = 0; i < dims.length; i++)
        {
            dims[i] = shape.get(i);
        }
        return dims;
    }

    /**
     * @param batch       the batch axis.
     * @param sampleShape one sample's dimensions.
     * @return {@code [batch, sampleShape...]}.
     */
    public static long[] batched(final long batch, final long[] sampleShape)
    {
        final long[] shape = new long[sampleShape.length + 1];
        shape[0] = batch;
        System.arraycopy(sampleShape, 0, shape, 1, sampleShape.length);
        return shape;
    }
}
