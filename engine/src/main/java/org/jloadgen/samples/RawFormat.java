package org.jloadgen.samples;

import java.util.Arrays;

/**
 * How to read raw binary samples, which carry no header of their own: the element type, the bytes to skip at the
 * start of the file, and the shape of one sample.
 *
 * @param dtype       element type.
 * @param headerBytes bytes before the first sample (0 for none).
 * @param sampleShape shape of one sample, or {@code null} for per-sample files whose shape is one axis as long as
 *                    the file allows.
 */
public record RawFormat(DType dtype, long headerBytes, long[] sampleShape)
{
    /**
     * @throws IllegalArgumentException for a negative header size or dimension.
     */
    public RawFormat
    {
        if (dtype == null)
        {
            throw new IllegalArgumentException("dtype is required");
        }
        if (headerBytes < 0)
        {
            throw new IllegalArgumentException("headerBytes must not be negative: " + headerBytes);
        }
        if (sampleShape != null)
        {
            sampleShape = sampleShape.clone();
            for (final long dim : sampleShape)
            {
                if (dim < 0)
                {
                    throw new IllegalArgumentException("negative dimension in sample shape " +
                        NpyHeader.formatShape(sampleShape));
                }
            }
        }
    }

    /**
     * @param dtype       element type.
     * @param sampleShape shape of one sample.
     * @return a format without a file header.
     */
    public static RawFormat of(final DType dtype, final long... sampleShape)
    {
        return new RawFormat(dtype, 0, sampleShape);
    }

    /**
     * @return the shape of one sample, copied, or {@code null}.
     */
    @Override
    public long[] sampleShape()
    {
        return sampleShape == null ? null : sampleShape.clone();
    }

    /**
     * @return bytes of one sample.
     * @throws IllegalStateException without a sample shape.
     * @throws ArithmeticException   when the shape overflows.
     */
    public long sampleBytes()
    {
        if (sampleShape == null)
        {
            throw new IllegalStateException("no sample shape");
        }
        return Math.multiplyExact(NpyHeader.elementCount(sampleShape), (long)dtype.itemBytes());
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final RawFormat that && dtype.equals(that.dtype) && headerBytes == that.headerBytes &&
            Arrays.equals(sampleShape, that.sampleShape);
    }

    @Override
    public int hashCode()
    {
        return dtype.hashCode() * 31 + Arrays.hashCode(sampleShape);
    }

    @Override
    public String toString()
    {
        return "RawFormat{" + dtype + ", headerBytes=" + headerBytes + ", sampleShape=" +
            (sampleShape == null ? "from file size" : NpyHeader.formatShape(sampleShape)) + "}";
    }
}
