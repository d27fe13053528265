package org.jloadgen.sut.tensorrt;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.device.EngineTensor;
import org.jloadgen.sut.tensorrt.simulated.SimulatedModel;

/**
 * The embedded Fashion-MNIST model run by ONNX Runtime inside the simulated device: the TensorRT SUT's whole data
 * path (slab, copies, slots, outputs, device argmax, responses) over a real model, without a GPU.
 */
final class OrtModel implements SimulatedModel, AutoCloseable
{
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;

    OrtModel(final Path model) throws OrtException
    {
        this.session = env.createSession(model.toString(), new OrtSession.SessionOptions());
    }

    @Override
    public EngineTensor input()
    {
        return new EngineTensor("pixels", true, "uint8", DType.UINT8, 1, new long[] {-1, 1, 28, 28});
    }

    @Override
    public EngineTensor output()
    {
        return new EngineTensor("logits", false, "float32", DType.FLOAT32, 4, new long[] {-1, 10});
    }

    @Override
    public void infer(final MemorySegment input, final MemorySegment output, final int batch)
    {
        try (OnnxTensor tensor = OnnxTensor.createTensor(env, input.asByteBuffer().order(ByteOrder.nativeOrder()),
            new long[] {batch, 1, 28, 28}, OnnxJavaType.UINT8);
            OrtSession.Result result = session.run(Map.of("pixels", tensor)))
        {
            final FloatBuffer logits = ((OnnxTensor)result.get(0)).getFloatBuffer();
            for (int i = 0; i < batch * 10; i++)
            {
                output.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, logits.get(i));
            }
        }
        catch (final OrtException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() throws OrtException
    {
        session.close();
    }
}
