package org.jloadgen.spi;

import java.util.Arrays;
import java.util.Objects;

import org.jloadgen.samples.DType;

/**
 * One sample's input or output tensor as a SUT reads or writes it: what a server that exposes the SUT by tensor
 * ({@code jloadgen serve}) advertises and checks requests against.
 *
 * @param name        the tensor's name in the model.
 * @param dtype       its element type.
 * @param sampleShape the shape of one sample, without the batch axis; -1 where the size varies.
 */
public record TensorSpec(String name, DType dtype, long[] sampleShape)
{
    /**
     * Copies the shape.
     */
    public TensorSpec
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        sampleShape = sampleShape.clone();
    }

    @Override
    public long[] sampleShape()
    {
        return sampleShape.clone();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final TensorSpec t && name.equals(t.name) && dtype.equals(t.dtype)
            && Arrays.equals(sampleShape, t.sampleShape);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(name, dtype, Arrays.hashCode(sampleShape));
    }

    @Override
    public String toString()
    {
        return name + " " + dtype + " " + Arrays.toString(sampleShape);
    }
}
