package org.jloadgen.sut.tensorrt.simulated;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * The simulated device's default model: a deterministic "classifier" whose float32 logits are a hash of the sample's
 * bytes and the class, so any test or dry run can check that each response belongs to its sample
 * ({@link #expected}) without a real model. Allocates nothing.
 */
public final class HashClassifier implements SimulatedModel
{
    /** The input's name. */
    public static final String INPUT = "input";
    /** The output's name. */
    public static final String OUTPUT = "logits";

    private final EngineTensor input;
    private final EngineTensor output;
    private final long sampleBytes;
    private final int classes;

    /**
     * @param inputType   the input's element type.
     * @param sampleShape one sample's shape.
     * @param classes     logits per sample.
     */
    public HashClassifier(final DType inputType, final long[] sampleShape, final int classes)
    {
        final long[] shape = new long[sampleShape.length + 1];
        shape[0] = -1;
        System.arraycopy(sampleShape, 0, shape, 1, sampleShape.length);
        this.input = new EngineTensor(INPUT, true, typeName(inputType), inputType, inputType.itemBytes(), shape);
        this.output = new EngineTensor(OUTPUT, false, "float32", DType.FLOAT32, Float.BYTES, new long[] {-1, classes});
        long bytes = inputType.itemBytes();
        for (final long d : sampleShape)
        {
            bytes *= d;
        }
        this.sampleBytes = bytes;
        this.classes = classes;
    }

    /**
     * @param dtype a dtype.
     * @return its TensorRT-style name ({@code float32}, {@code uint8}...).
     */
    static String typeName(final DType dtype)
    {
        return switch (dtype.kind())
        {
            case 'f' -> "float" + 8 * dtype.itemBytes();
            case 'u' -> "uint" + 8 * dtype.itemBytes();
            case 'i' -> "int" + 8 * dtype.itemBytes();
            case 'b' -> "bool";
            default -> dtype.descr();
        };
    }

    @Override
    public EngineTensor input()
    {
        return input;
    }

    @Override
    public EngineTensor output()
    {
        return output;
    }

    @Override
    public void infer(final MemorySegment in, final MemorySegment out, final int batch)
    {
        for (int r = 0; r < batch; r++)
        {
            final long hash = fnv(in, r * sampleBytes, sampleBytes);
            for (int c = 0; c < classes; c++)
            {
                out.set(ValueLayout.JAVA_FLOAT_UNALIGNED, ((long)r * classes + c) * Float.BYTES, logit(hash, c));
            }
        }
    }

    /**
     * @param sample one sample's bytes.
     * @param cls    a class.
     * @return the logit the model computes for it.
     */
    public static float expected(final MemorySegment sample, final int cls)
    {
        return logit(fnv(sample, 0, sample.byteSize()), cls);
    }

    private static float logit(final long hash, final int cls)
    {
        long z = hash + 0x9E3779B97F4A7C15L * (cls + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 40) / (float)(1 << 24);
    }

    private static long fnv(final MemorySegment data, final long offset, final long bytes)
    {
        long hash = 0xcbf29ce484222325L;
        for (long i = 0; i < bytes; i++)
        {
            hash ^= data.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFF;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
