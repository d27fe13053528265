package org.jloadgen.sut.tensorrt.dense;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.jloadgen.sut.tensorrt.device.DeviceException;

/**
 * What the cublas backend "builds" for a model (its engine, as the engine cache keeps it): the ONNX model's bytes with
 * the build's largest batch, optimization profiles (execution contexts) and math mode. Loading parses the model
 * again, which takes milliseconds for an MLP.
 *
 * @param maxBatch the largest batch.
 * @param profiles execution contexts the engine reports (one per copy stream).
 * @param tf32     whether GEMMs may use TF32.
 * @param model    the ONNX model's bytes.
 */
public record DensePlan(int maxBatch, int profiles, boolean tf32, byte[] model)
{
    private static final byte[] MAGIC = "JLGDENSE1".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = MAGIC.length + 3 * Integer.BYTES;

    /**
     * @return the plan's bytes.
     */
    public byte[] encode()
    {
        final ByteBuffer out = ByteBuffer.allocate(HEADER + model.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putInt(maxBatch).putInt(profiles).putInt(tf32 ? 1 : 0).put(model);
        return out.array();
    }

    /**
     * @param plan   bytes from {@link #encode()}.
     * @param source where they came from, for messages.
     * @return the plan.
     * @throws DeviceException when the bytes are not a dense plan (e.g. a TensorRT engine in the cache).
     */
    public static DensePlan decode(final byte[] plan, final String source)
    {
        final ByteBuffer in = ByteBuffer.wrap(plan).order(ByteOrder.LITTLE_ENDIAN);
        final byte[] magic = new byte[MAGIC.length];
        if (plan.length < HEADER || !java.util.Arrays.equals(in.get(magic).array(), 0, MAGIC.length, MAGIC, 0,
            MAGIC.length))
        {
            throw new DeviceException(source + " is not a plan of the cublas backend");
        }
        final int maxBatch = in.getInt();
        final int profiles = in.getInt();
        final boolean tf32 = in.getInt() != 0;
        if (maxBatch < 1 || profiles < 1)
        {
            throw new DeviceException(source + " is a damaged plan of the cublas backend");
        }
        final byte[] model = new byte[in.remaining()];
        in.get(model);
        return new DensePlan(maxBatch, profiles, tf32, model);
    }
}
