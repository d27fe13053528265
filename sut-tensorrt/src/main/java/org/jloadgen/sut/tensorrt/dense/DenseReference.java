package org.jloadgen.sut.tensorrt.dense;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A dense model computed on the CPU in plain Java ({@link DenseMath}), one batch at a time: the reference the GPU
 * check compares the cublas backend with where ONNX Runtime is not at hand (the device bundle leaves it out).
 */
public final class DenseReference
{
    private final DenseModel model;
    private final MemorySegment[] weights;
    private final MemorySegment[] biases;
    private final MemorySegment constants;
    private final long opCodes;

    /**
     * @param model the model.
     */
    public DenseReference(final DenseModel model)
    {
        this.model = model;
        final int layers = model.layers().size();
        this.weights = new MemorySegment[layers];
        this.biases = new MemorySegment[layers];
        for (int l = 0; l < layers; l++)
        {
            weights[l] = MemorySegment.ofArray(model.layers().get(l).weights());
            final float[] bias = model.layers().get(l).bias();
            biases[l] = bias == null ? null : MemorySegment.ofArray(bias);
        }
        final int steps = model.steps().size();
        final float[] expanded = new float[Math.max(1, steps * model.features())];
        long codes = 0;
        for (int s = 0; s < steps; s++)
        {
            codes |= (long)model.steps().get(s).op().ordinal() << (4 * s);
            for (int c = 0; c < model.features(); c++)
            {
                expanded[s * model.features() + c] = model.steps().get(s).constant(c);
            }
        }
        this.constants = MemorySegment.ofArray(expanded);
        this.opCodes = codes;
    }

    /**
     * @param input  {@code rows} samples, back to back, of the model's input type.
     * @param rows   samples.
     * @return {@code rows x classes} outputs.
     */
    public float[] infer(final MemorySegment input, final int rows)
    {
        try (Arena arena = Arena.ofConfined())
        {
            MemorySegment x = input;
            if (model.hasPrologue())
            {
                final int type = switch (model.input().typeName())
                {
                    case "uint8" -> DenseKernels.INPUT_UINT8;
                    case "int8" -> DenseKernels.INPUT_INT8;
                    default -> DenseKernels.INPUT_FLOAT32;
                };
                final MemorySegment converted = arena.allocate((long)rows * model.features() * Float.BYTES);
                DenseMath.prepareInput(input, type, converted, rows, model.features(), constants, opCodes,
                    model.steps().size());
                x = converted;
            }
            for (int l = 0; l < weights.length; l++)
            {
                final DenseModel.Layer layer = model.layers().get(l);
                final MemorySegment y = arena.allocate((long)rows * layer.outFeatures() * Float.BYTES);
                DenseMath.gemm(x, weights[l], layer.transposed(), layer.alpha(), y, rows, layer.inFeatures(),
                    layer.outFeatures());
                DenseMath.biasActivation(y, biases[l], rows, layer.outFeatures(), layer.activation().ordinal());
                x = y;
            }
            if (model.softmax())
            {
                DenseMath.softmax(x, rows, model.classes());
            }
            return x.toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    /**
     * @param logits {@code rows x classes} values.
     * @param row    a row.
     * @param classes columns.
     * @return the best column (first of equals, numbers before NaN).
     */
    public static long top1(final float[] logits, final int row, final int classes)
    {
        int best = -1;
        for (int c = 0; c < classes; c++)
        {
            final float v = logits[row * classes + c];
            if (!Float.isNaN(v) && (best < 0 || v > logits[row * classes + best]))
            {
                best = c;
            }
        }
        return Math.max(best, 0);
    }

    /**
     * @param logits  {@code rows x classes} values.
     * @param row     a row.
     * @param classes columns.
     * @return the best value minus the second best (0 when tied).
     */
    public static float margin(final float[] logits, final int row, final int classes)
    {
        final int best = (int)top1(logits, row, classes);
        float second = Float.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++)
        {
            if (c != best)
            {
                second = Math.max(second, logits[row * classes + c]);
            }
        }
        return logits[row * classes + best] - second;
    }
}
