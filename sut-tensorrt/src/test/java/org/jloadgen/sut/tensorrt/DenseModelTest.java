package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.google.protobuf.ByteString;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.tensorrt.dense.DenseModel;
import org.jloadgen.sut.tensorrt.dense.DensePlan;
import org.jloadgen.sut.tensorrt.dense.DenseReference;
import org.jloadgen.sut.tensorrt.dense.proto.OnnxDense;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.EngineTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cublas backend's model reader: the embedded Fashion-MNIST MLP's layers, shapes and weights from its ONNX
 * initializers (checked by scoring it as ONNX Runtime does), small hand-built models computed by hand (Gemm with
 * transB, alpha and beta, MatMul followed by Add, Softmax), and the errors for what it does not run.
 */
class DenseModelTest
{
    @TempDir
    Path dir;

    @Test
    void shouldReadTheEmbeddedModelsLayersShapesAndPrologue()
    {
        final ModelDescriptor fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final DenseModel model = DenseModel.read(fashion.modelFile());
        assertEquals(new EngineTensor("pixels", true, "uint8", org.jloadgen.samples.DType.UINT8, 1,
            new long[] {-1, 1, 28, 28}), model.input());
        assertEquals("logits", model.output().name());
        assertArrayEquals(new long[] {-1, 10}, model.output().shape());
        assertEquals(784, model.features());
        assertEquals(List.of(DenseModel.Op.MUL, DenseModel.Op.SUB, DenseModel.Op.DIV),
            model.steps().stream().map(DenseModel.Step::op).toList());
        assertEquals(1f / 255, model.steps().get(0).constant(0), 1e-9f);
        assertEquals("uint8 [N,1,28,28] -> 3 element-wise steps -> 784x256 relu -> 256x128 relu -> 128x10",
            model.describe());
        final List<DenseModel.Layer> layers = model.layers();
        assertEquals(List.of("fc1", "fc2", "fc3"), layers.stream().map(DenseModel.Layer::name).toList());
        assertEquals(784 * 256, layers.get(0).weights().length);
        assertEquals(256, layers.get(0).bias().length);
        assertFalse(layers.get(0).transposed());
        assertEquals(DenseModel.Activation.NONE, layers.get(2).activation());
        assertFalse(model.softmax());
    }

    @Test
    void shouldScoreTheEmbeddedModelAsOnnxRuntimeDoesWithThePureJavaReference() throws Exception
    {
        final ModelDescriptor fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final DenseModel model = DenseModel.read(fashion.modelFile());
        final int samples = 2_000;
        final byte[] images = Files.readAllBytes(fashion.data().dataset());
        final MemorySegment pixels = MemorySegment.ofArray(images).asSlice(FashionMnist.IMAGE_HEADER_BYTES,
            (long)samples * 784);
        final float[] logits = new DenseReference(model).infer(pixels, samples);
        final float[] ort;
        try (OrtModel onnx = new OrtModel(fashion.modelFile()))
        {
            final MemorySegment out = MemorySegment.ofArray(new float[samples * 10]);
            onnx.infer(pixels, out, samples);
            ort = out.toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT);
        }
        int differentTop1 = 0;
        float worst = 0;
        for (int r = 0; r < samples; r++)
        {
            if (DenseReference.top1(logits, r, 10) != DenseReference.top1(ort, r, 10))
            {
                differentTop1++;
            }
            for (int c = 0; c < 10; c++)
            {
                worst = Math.max(worst, Math.abs(logits[r * 10 + c] - ort[r * 10 + c]));
            }
        }
        assertEquals(0, differentTop1, "top-1 of the pure-Java reference against ONNX Runtime");
        assertTrue(worst < 1e-3f, "largest logit difference " + worst);
    }

    @Test
    void shouldComputeGemmWithTransposedWeightsAlphaBetaMatMulAddAndSoftmaxAsByHand()
    {
        // x [N,2] float -> Gemm(W^T stored [3,2], transB=1, alpha 2, beta 0.5, C) -> Relu -> MatMul([3,2]) -> Add
        // -> Softmax
        final OnnxDense.GraphProto.Builder g = OnnxDense.GraphProto.newBuilder()
            .addInput(value("x", 1, -1, 2)).addOutput(value("p", 1, -1, 2))
            .addInitializer(floats("w1", new long[] {3, 2}, 1, 2, 3, 4, 5, 6))
            .addInitializer(floats("c1", new long[] {3}, 2, -40, 0))
            .addInitializer(floats("w2", new long[] {3, 2}, 1, 0, 0, 1, 1, 1))
            .addInitializer(floats("b2", new long[] {2}, 0.5f, -0.5f))
            .addNode(node("l1", "Gemm", List.of("x", "w1", "c1"), "h1").addAttribute(intAttr("transB", 1))
                .addAttribute(floatAttr("alpha", 2f)).addAttribute(floatAttr("beta", 0.5f)))
            .addNode(node("r1", "Relu", List.of("h1"), "a1"))
            .addNode(node("l2", "MatMul", List.of("a1", "w2"), "h2"))
            .addNode(node("add", "Add", List.of("h2", "b2"), "z"))
            .addNode(node("sm", "Softmax", List.of("z"), "p"));
        final DenseModel model = parse(g);
        assertEquals(2, model.layers().size());
        assertTrue(model.layers().get(0).transposed());
        assertArrayEquals(new float[] {1, -20, 0}, model.layers().get(0).bias());
        assertArrayEquals(new float[] {0.5f, -0.5f}, model.layers().get(1).bias());
        assertTrue(model.softmax());
        assertFalse(model.hasPrologue());
        final float[] out = new DenseReference(model).infer(MemorySegment.ofArray(new float[] {1, 1, 2, -1}), 2);
        // Row 0: W^T x = [3, 7, 11] * 2 + [1, -20, 0] = [7, -6, 22] -> relu [7, 0, 22] -> [29, 22] + [0.5, -0.5]
        final double e0 = Math.exp(29.5 - 29.5);
        final double e1 = Math.exp(21.5 - 29.5);
        assertEquals(e0 / (e0 + e1), out[0], 1e-6);
        assertEquals(e1 / (e0 + e1), out[1], 1e-6);
        // Row 1: W^T x = [0, 2, 4] * 2 + [1, -20, 0] = [1, -16, 8] -> relu [1, 0, 8] -> [9, 8] + [0.5, -0.5]
        final double f0 = 1;
        final double f1 = Math.exp(7.5 - 9.5);
        assertEquals(f0 / (f0 + f1), out[2], 1e-6);
        assertEquals(DenseModel.Activation.NONE, model.layers().get(1).activation());
    }

    @Test
    void shouldNameTheNodeAndOperatorItDoesNotRun()
    {
        final IllegalArgumentException conv = assertThrows(IllegalArgumentException.class, () -> parse(
            OnnxDense.GraphProto.newBuilder().addInput(value("x", 1, -1, 4)).addOutput(value("y", 1, -1, 4))
                .addInitializer(floats("w", new long[] {4, 4}, new float[16]))
                .addNode(node("conv_1", "Conv", List.of("x", "w"), "y"))));
        assertTrue(conv.getMessage().contains("node 'conv_1' (Conv) is not supported"), conv.getMessage());
        assertTrue(conv.getMessage().contains("MatMul/Gemm, Add, Relu and Softmax"), conv.getMessage());

        final IllegalArgumentException shapes = assertThrows(IllegalArgumentException.class, () -> parse(
            OnnxDense.GraphProto.newBuilder().addInput(value("x", 1, -1, 4)).addOutput(value("y", 1, -1, 2))
                .addInitializer(floats("w", new long[] {3, 2}, new float[6]))
                .addNode(node("fc", "MatMul", List.of("x", "w"), "y"))));
        assertTrue(shapes.getMessage().contains("node 'fc' (MatMul) takes 3 features but the chain has 4"),
            shapes.getMessage());

        final IllegalArgumentException dynamicWeights = assertThrows(IllegalArgumentException.class, () -> parse(
            OnnxDense.GraphProto.newBuilder().addInput(value("x", 1, -1, 4)).addInput(value("w", 1, 4, 2))
                .addOutput(value("y", 1, -1, 2)).addNode(node("fc", "MatMul", List.of("x", "w"), "y"))));
        assertTrue(dynamicWeights.getMessage().contains("exactly one graph input"), dynamicWeights.getMessage());

        final IllegalArgumentException late = assertThrows(IllegalArgumentException.class, () -> parse(
            OnnxDense.GraphProto.newBuilder().addInput(value("x", 1, -1, 2)).addOutput(value("z", 1, -1, 2))
                .addInitializer(floats("w", new long[] {2, 2}, 1, 0, 0, 1))
                .addInitializer(floats("k", new long[] {1}, 3))
                .addNode(node("fc", "MatMul", List.of("x", "w"), "y"))
                .addNode(node("scale", "Mul", List.of("y", "k"), "z"))));
        assertTrue(late.getMessage().contains("node 'scale' (Mul) comes after a dense layer"), late.getMessage());

        final IllegalArgumentException noCast = assertThrows(IllegalArgumentException.class, () -> parse(
            OnnxDense.GraphProto.newBuilder().addInput(value("x", 2, -1, 2)).addOutput(value("y", 1, -1, 2))
                .addInitializer(floats("w", new long[] {2, 2}, 1, 0, 0, 1))
                .addNode(node("fc", "MatMul", List.of("x", "w"), "y"))));
        assertTrue(noCast.getMessage().contains("without a Cast to float"), noCast.getMessage());

        final IllegalArgumentException garbage = assertThrows(IllegalArgumentException.class,
            () -> DenseModel.parse(new byte[] {8, (byte)0xff, (byte)0xff}, "junk.onnx"));
        assertTrue(garbage.getMessage().startsWith("cannot parse ONNX model junk.onnx"), garbage.getMessage());
    }

    @Test
    void shouldKeepTheBuildSettingsInItsPlanAndRefuseOtherBytes()
    {
        final DensePlan plan = new DensePlan(64, 4, false, new byte[] {1, 2, 3});
        final DensePlan back = DensePlan.decode(plan.encode(), "x");
        assertEquals(64, back.maxBatch());
        assertEquals(4, back.profiles());
        assertFalse(back.tf32());
        assertArrayEquals(new byte[] {1, 2, 3}, back.model());
        final DeviceException other = assertThrows(DeviceException.class,
            () -> DensePlan.decode("a TensorRT plan".getBytes(java.nio.charset.StandardCharsets.UTF_8), "m.engine"));
        assertEquals("m.engine is not a plan of the cublas backend", other.getMessage());
    }

    private DenseModel parse(final OnnxDense.GraphProto.Builder graph)
    {
        final byte[] bytes = OnnxDense.ModelProto.newBuilder().setIrVersion(8).setGraph(graph.setName("g")).build()
            .toByteArray();
        try
        {
            return DenseModel.read(Files.write(dir.resolve("m.onnx"), bytes));
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    static OnnxDense.ValueInfoProto value(final String name, final int type, final long... dims)
    {
        final OnnxDense.TensorShapeProto.Builder shape = OnnxDense.TensorShapeProto.newBuilder();
        for (final long d : dims)
        {
            shape.addDim(d < 0 ? OnnxDense.TensorShapeProto.Dimension.newBuilder().setDimParam("N")
                : OnnxDense.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        return OnnxDense.ValueInfoProto.newBuilder().setName(name).setType(OnnxDense.TypeProto.newBuilder()
            .setTensorType(OnnxDense.TypeProto.Tensor.newBuilder().setElemType(type).setShape(shape))).build();
    }

    static OnnxDense.TensorProto floats(final String name, final long[] dims, final float... values)
    {
        final ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float v : values)
        {
            raw.putFloat(v);
        }
        final OnnxDense.TensorProto.Builder t = OnnxDense.TensorProto.newBuilder().setName(name).setDataType(1)
            .setRawData(ByteString.copyFrom(raw.array()));
        for (final long d : dims)
        {
            t.addDims(d);
        }
        return t.build();
    }

    static OnnxDense.NodeProto.Builder node(final String name, final String op, final List<String> inputs,
        final String output)
    {
        return OnnxDense.NodeProto.newBuilder().setName(name).setOpType(op).addAllInput(inputs).addOutput(output);
    }

    static OnnxDense.AttributeProto intAttr(final String name, final long value)
    {
        return OnnxDense.AttributeProto.newBuilder().setName(name).setI(value).setType(2).build();
    }

    static OnnxDense.AttributeProto floatAttr(final String name, final float value)
    {
        return OnnxDense.AttributeProto.newBuilder().setName(name).setF(value).setType(1).build();
    }
}
