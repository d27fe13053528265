package org.jloadgen.sut.tensorrt.dense;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The dense chain's arithmetic on the CPU, in FP32 with the device kernels' order of operations (each prologue step
 * rounded on its own, products summed over k in order): the simulated device runs it, and {@link DenseReference}
 * scores a model with it.
 */
public final class DenseMath
{
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private DenseMath()
    {
    }

    /**
     * @param input     {@code rows x cols} elements.
     * @param inputType a {@link DenseKernels} input code.
     * @param output    {@code rows x cols} floats.
     * @param rows      rows.
     * @param cols      columns.
     * @param constants {@code steps x cols} floats.
     * @param opCodes   packed operations.
     * @param steps     steps.
     */
    public static void prepareInput(final MemorySegment input, final int inputType, final MemorySegment output,
        final int rows, final int cols, final MemorySegment constants, final long opCodes, final int steps)
    {
        for (long i = 0; i < (long)rows * cols; i++)
        {
            float v = switch (inputType)
            {
                case DenseKernels.INPUT_UINT8 -> input.get(ValueLayout.JAVA_BYTE, i) & 0xff;
                case DenseKernels.INPUT_INT8 -> input.get(ValueLayout.JAVA_BYTE, i);
                default -> input.getAtIndex(FLOAT, i);
            };
            final int c = (int)(i % cols);
            for (int s = 0; s < steps; s++)
            {
                final float k = constants.getAtIndex(FLOAT, (long)s * cols + c);
                v = switch ((int)(opCodes >>> (4 * s)) & 0xf)
                {
                    case 0 -> v * k;
                    case 1 -> v + k;
                    case 2 -> v - k;
                    default -> v / k;
                };
            }
            output.setAtIndex(FLOAT, i, v);
        }
    }

    /**
     * @param x          {@code rows x in} floats.
     * @param w          the weights.
     * @param transposed whether {@code w} is {@code out x in}.
     * @param alpha      the scale.
     * @param y          {@code rows x out} floats.
     * @param rows       rows.
     * @param in         inputs.
     * @param out        outputs.
     */
    public static void gemm(final MemorySegment x, final MemorySegment w, final boolean transposed, final float alpha,
        final MemorySegment y, final int rows, final int in, final int out)
    {
        final float[] row = new float[in];
        final float[] sums = new float[out];
        for (int r = 0; r < rows; r++)
        {
            MemorySegment.copy(x, FLOAT, (long)r * in * Float.BYTES, row, 0, in);
            java.util.Arrays.fill(sums, 0f);
            for (int k = 0; k < in; k++)
            {
                final float xk = row[k];
                for (int m = 0; m < out; m++)
                {
                    sums[m] += xk * w.getAtIndex(FLOAT, transposed ? (long)m * in + k : (long)k * out + m);
                }
            }
            for (int m = 0; m < out; m++)
            {
                y.setAtIndex(FLOAT, (long)r * out + m, alpha == 1f ? sums[m] : alpha * sums[m]);
            }
        }
    }

    /**
     * @param y          {@code rows x cols} floats, in place.
     * @param bias       {@code cols} floats, or {@code null}.
     * @param rows       rows.
     * @param cols       columns.
     * @param activation 0 none, 1 relu.
     */
    public static void biasActivation(final MemorySegment y, final MemorySegment bias, final int rows, final int cols,
        final int activation)
    {
        for (long i = 0; i < (long)rows * cols; i++)
        {
            float v = y.getAtIndex(FLOAT, i);
            if (bias != null)
            {
                v += bias.getAtIndex(FLOAT, i % cols);
            }
            if (activation == 1 && !(v > 0f))
            {
                v = v != v ? v : 0f;
            }
            y.setAtIndex(FLOAT, i, v);
        }
    }

    /**
     * @param y    {@code rows x cols} floats, in place.
     * @param rows rows.
     * @param cols columns.
     */
    public static void softmax(final MemorySegment y, final int rows, final int cols)
    {
        for (int r = 0; r < rows; r++)
        {
            final long base = (long)r * cols;
            float max = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < cols; c++)
            {
                max = Math.max(max, y.getAtIndex(FLOAT, base + c));
            }
            float sum = 0f;
            for (int c = 0; c < cols; c++)
            {
                final float e = (float)Math.exp(y.getAtIndex(FLOAT, base + c) - max);
                y.setAtIndex(FLOAT, base + c, e);
                sum += e;
            }
            for (int c = 0; c < cols; c++)
            {
                y.setAtIndex(FLOAT, base + c, y.getAtIndex(FLOAT, base + c) / sum);
            }
        }
    }
}
