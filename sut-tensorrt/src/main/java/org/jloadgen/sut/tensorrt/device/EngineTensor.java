package org.jloadgen.sut.tensorrt.device;

import java.util.Arrays;
import java.util.Objects;

import org.jloadgen.samples.DType;
import org.jloadgen.sut.SutDataset;

/**
 * An input or output binding of a network or engine: its direction, its element type as TensorRT names it and the
 * full shape with the batch axis first. Not the toolkit's {@code spi.TensorSpec}, which is one served sample's
 * tensor as a SUT describes it to {@code jloadgen serve}.
 *
 * @param name         its name.
 * @param input        whether it is an input.
 * @param typeName     TensorRT's element type in NumPy words: {@code float32}, {@code float16}, {@code uint8},
 *                     {@code bfloat16}, {@code fp8}...
 * @param dtype        the NumPy dtype with the same bytes (native order), or {@code null} where there is none
 *                     ({@code bfloat16}, {@code fp8}, 4-bit types).
 * @param elementBytes bytes per element, 0 for sub-byte types.
 * @param shape        dimensions, the batch axis first; negative ones are dynamic.
 */
public record EngineTensor(String name, boolean input, String typeName, DType dtype, int elementBytes, long[] shape)
{
    /**
     * Copies the shape.
     */
    public EngineTensor
    {
        Objects.requireNonNull(name, "name");
        shape = shape.clone();
    }

    @Override
    public long[] shape()
    {
        return shape.clone();
    }

    /**
     * @return the dimensions after the batch axis.
     */
    public long[] sampleShape()
    {
        return Arrays.copyOfRange(shape, 1, shape.length);
    }

    /**
     * @return e.g. {@code input 'pixels' uint8 [N,1,28,28]}.
     */
    public String describe()
    {
        final StringBuilder dims = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++)
        {
            dims.append(i == 0 ? "" : ",").append(shape[i] >= 0 ? Long.toString(shape[i]) : i == 0 ? "N" : "?");
        }
        return (input ? "input '" : "output '") + name + "' " + typeName + " " + dims.append(']');
    }

    /**
     * @return the shape for messages, e.g. {@code [N,1,28,28]}.
     */
    public String describeShape()
    {
        return describe().substring(describe().lastIndexOf(' ') + 1);
    }

    /**
     * @param sampleShape the dataset's sample shape, filling the dynamic dimensions after the batch axis.
     * @return bytes of one batch row.
     * @throws IllegalArgumentException for sub-byte types or dimensions still unknown.
     */
    public long rowBytes(final long[] sampleShape)
    {
        if (elementBytes <= 0)
        {
            throw new IllegalArgumentException(describe() + ": sub-byte element types are not supported as I/O");
        }
        long bytes = elementBytes;
        for (int i = 1; i < shape.length; i++)
        {
            final long dim = shape[i] >= 0 ? shape[i] : sampleShape != null && i - 1 < sampleShape.length
                ? sampleShape[i - 1] : -1;
            if (dim < 0)
            {
                throw new IllegalArgumentException(describe() + ": dimension " + i + " is only known at run time");
            }
            bytes = Math.multiplyExact(bytes, dim);
        }
        return bytes;
    }

    /**
     * @param model the model, for messages.
     * @return this input as the dataset check sees it.
     */
    public SutDataset.ModelInput asModelInput(final String model)
    {
        final EngineTensor spec = this;
        return new SutDataset.ModelInput()
        {
            @Override
            public DType dtype()
            {
                if (spec.dtype == null)
                {
                    throw new IllegalArgumentException("no NumPy dtype holds " + spec.describe() + " of " + model);
                }
                return spec.dtype;
            }

            @Override
            public long[] fixedSampleShape()
            {
                final long[] sample = spec.sampleShape();
                return Arrays.stream(sample).allMatch(d -> d >= 0) ? sample : null;
            }

            @Override
            public String describeShape()
            {
                return spec.describeShape();
            }

            @Override
            public void checkSamples(final DType sampleType, final long[] sampleShape, final String dataset)
            {
                SutDataset.checkSampleFits(sampleType, sampleShape, spec.dtype, spec.shape,
                    "model " + model + " input '" + spec.name + "' expects " + spec.typeName + " "
                        + spec.describeShape(), dataset);
            }
        };
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final EngineTensor that && name.equals(that.name) && input == that.input
            && typeName.equals(that.typeName) && Objects.equals(dtype, that.dtype)
            && elementBytes == that.elementBytes && Arrays.equals(shape, that.shape);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(name, input, typeName, dtype, elementBytes) * 31 + Arrays.hashCode(shape);
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
