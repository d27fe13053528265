package org.jloadgen.sut.tensorrt.dense;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import com.google.protobuf.ByteString;
import org.jloadgen.sut.tensorrt.dense.proto.OnnxDense;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * Dense ONNX models made in code, and one batch through a backend without the pipeline: the kernel check of the
 * device bundle uses them to test every kernel of the cublas backend (prologue with per-feature constants, Gemm with
 * transposed weights and alpha, bias and relu, MatMul then Add, softmax) against {@link DenseMath}.
 */
public final class DenseModels
{
    private DenseModels()
    {
    }

    /**
     * {@code x} uint8 {@code [N, in]} -> Cast -> Mul(1/255) -> Sub(per-feature means) -> Gemm(transB=1, alpha 0.5,
     * bias) -> Relu -> MatMul -> Add(bias) -> Softmax -> {@code y} float32 {@code [N, classes]}.
     *
     * @param random  the weights' source.
     * @param in      input features.
     * @param hidden  hidden units.
     * @param classes outputs.
     * @return the model's bytes.
     */
    public static byte[] randomMlp(final Random random, final int in, final int hidden, final int classes)
    {
        final OnnxDense.GraphProto.Builder g = OnnxDense.GraphProto.newBuilder().setName("random_mlp")
            .addInput(value("x", 2, in)).addOutput(value("y", 1, classes))
            .addInitializer(tensor("scale", new long[] {1}, new float[] {1f / 255}))
            .addInitializer(tensor("means", new long[] {in}, values(random, in, 0.5f)))
            .addInitializer(tensor("w1", new long[] {hidden, in}, values(random, hidden * in, 0.1f)))
            .addInitializer(tensor("b1", new long[] {hidden}, values(random, hidden, 0.1f)))
            .addInitializer(tensor("w2", new long[] {hidden, classes}, values(random, hidden * classes, 0.3f)))
            .addInitializer(tensor("b2", new long[] {classes}, values(random, classes, 0.1f)))
            .addNode(node("cast", "Cast", List.of("x"), "xf").addAttribute(attribute("to", 1)))
            .addNode(node("scale", "Mul", List.of("xf", "scale"), "xs"))
            .addNode(node("center", "Sub", List.of("xs", "means"), "xc"))
            .addNode(node("fc1", "Gemm", List.of("xc", "w1", "b1"), "h").addAttribute(attribute("transB", 1))
                .addAttribute(OnnxDense.AttributeProto.newBuilder().setName("alpha").setF(0.5f).setType(1)))
            .addNode(node("relu", "Relu", List.of("h"), "hr"))
            .addNode(node("fc2", "MatMul", List.of("hr", "w2"), "z0"))
            .addNode(node("bias2", "Add", List.of("z0", "b2"), "z"))
            .addNode(node("softmax", "Softmax", List.of("z"), "y"));
        return OnnxDense.ModelProto.newBuilder().setIrVersion(8).setGraph(g).build().toByteArray();
    }

    /**
     * Runs one batch through a backend's engine and one context, without the pipeline.
     *
     * @param backend a dense backend.
     * @param gpu     one of its devices, current.
     * @param model   the model file.
     * @param input   {@code rows} samples of the model's input.
     * @param rows    samples.
     * @param classes outputs per sample.
     * @return the outputs.
     */
    public static float[] runOnce(final DeviceBackend backend, final Gpu gpu, final Path model, final byte[] input,
        final int rows, final int classes)
    {
        final DenseModel dense = DenseModel.read(model);
        final byte[] plan = backend.build(gpu, new EngineBuild(model, dense.input().name(),
            dense.input().sampleShape(), rows, rows, 1, false, false, false, 0, -1));
        final long outBytes = (long)rows * classes * Float.BYTES;
        try (Engine engine = backend.load(gpu, plan, model.toString()); DeviceStream stream = gpu.newStream())
        {
            final long hostIn = gpu.allocatePinned(input.length);
            final long hostOut = gpu.allocatePinned(outBytes);
            final long deviceIn = gpu.allocate(input.length);
            final long deviceOut = gpu.allocate(outBytes);
            try (ExecutionContext context = engine.newContext(0, stream))
            {
                MemorySegment.copy(input, 0, MemorySegment.ofAddress(hostIn).reinterpret(input.length),
                    ValueLayout.JAVA_BYTE, 0, input.length);
                context.prepare(dense.input().name(), dense.input().sampleShape());
                context.bind(dense.input().name(), deviceIn);
                context.bind(dense.output().name(), deviceOut);
                context.setBatch(rows);
                stream.copyToDevice(deviceIn, hostIn, input.length);
                context.enqueue(stream);
                stream.copyToHost(hostOut, deviceOut, outBytes);
                stream.synchronize();
                return MemorySegment.ofAddress(hostOut).reinterpret(outBytes).toArray(ValueLayout.JAVA_FLOAT);
            }
            finally
            {
                gpu.free(deviceIn);
                gpu.free(deviceOut);
                gpu.freePinned(hostIn);
                gpu.freePinned(hostOut);
            }
        }
    }

    private static float[] values(final Random random, final int n, final float scale)
    {
        final float[] v = new float[n];
        for (int i = 0; i < n; i++)
        {
            v[i] = (random.nextFloat() * 2 - 1) * scale;
        }
        return v;
    }

    private static OnnxDense.ValueInfoProto value(final String name, final int type, final long features)
    {
        return OnnxDense.ValueInfoProto.newBuilder().setName(name).setType(OnnxDense.TypeProto.newBuilder()
            .setTensorType(OnnxDense.TypeProto.Tensor.newBuilder().setElemType(type).setShape(
                OnnxDense.TensorShapeProto.newBuilder()
                    .addDim(OnnxDense.TensorShapeProto.Dimension.newBuilder().setDimParam("N"))
                    .addDim(OnnxDense.TensorShapeProto.Dimension.newBuilder().setDimValue(features))))).build();
    }

    private static OnnxDense.TensorProto tensor(final String name, final long[] dims, final float[] values)
    {
        final ByteBuffer raw = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        raw.asFloatBuffer().put(values);
        final OnnxDense.TensorProto.Builder t = OnnxDense.TensorProto.newBuilder().setName(name).setDataType(1)
            .setRawData(ByteString.copyFrom(raw.array()));
        for (final long d : dims)
        {
            t.addDims(d);
        }
        return t.build();
    }

    private static OnnxDense.NodeProto.Builder node(final String name, final String op, final List<String> inputs,
        final String output)
    {
        return OnnxDense.NodeProto.newBuilder().setName(name).setOpType(op).addAllInput(inputs).addOutput(output);
    }

    private static OnnxDense.AttributeProto.Builder attribute(final String name, final long value)
    {
        return OnnxDense.AttributeProto.newBuilder().setName(name).setI(value).setType(2);
    }
}
