package org.jloadgen.sut.tensorrt.dense;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.google.protobuf.InvalidProtocolBufferException;
import org.jloadgen.sut.tensorrt.device.EngineTensor;
import org.jloadgen.sut.tensorrt.dense.proto.OnnxDense;

/**
 * An ONNX model that is a chain of dense layers, as the cublas backend runs it: an input prologue (Flatten,
 * Reshape to {@code [N, features]}, Cast to float, and Mul / Add / Sub / Div by constants, applied in order per
 * element), then layers (MatMul or Gemm with an initializer as weights, an optional bias from Gemm's C or a following
 * Add, an optional Relu), then an optional Softmax over the last axis. Weights come from the model's initializers.
 * Anything else stops the read with the node's name and operator.
 *
 * @param source      the model, for messages.
 * @param input       the graph input (batch axis first).
 * @param output      the graph output, float32 {@code [N, classes]}.
 * @param features    input elements per sample (the first layer's inputs).
 * @param steps       the prologue's element-wise steps, in order.
 * @param layers      the dense layers, in order.
 * @param softmax     whether a softmax over each output row ends the chain.
 */
public record DenseModel(String source, EngineTensor input, EngineTensor output, int features, List<Step> steps,
    List<Layer> layers, boolean softmax)
{
    /** ONNX TensorProto.DataType FLOAT. */
    static final int ONNX_FLOAT = 1;
    /** ONNX UINT8. */
    static final int ONNX_UINT8 = 2;
    /** ONNX INT8. */
    static final int ONNX_INT8 = 3;
    /** ONNX INT64. */
    static final int ONNX_INT64 = 7;
    /** The operators the backend runs, for messages. */
    public static final String SUPPORTED = "chains of MatMul/Gemm, Add, Relu and Softmax (with Flatten, Reshape, "
        + "Cast, Identity, and Mul/Add/Sub/Div by constants before the first layer)";

    /** Element-wise operations of the input prologue; the code is the kernel's. */
    public enum Op
    {
        /** x * c. */
        MUL,
        /** x + c. */
        ADD,
        /** x - c. */
        SUB,
        /** x / c. */
        DIV
    }

    /** What follows a layer's GEMM and bias. */
    public enum Activation
    {
        /** Nothing. */
        NONE,
        /** max(0, x). */
        RELU
    }

    /**
     * One prologue step.
     *
     * @param op        the operation.
     * @param constants one value, or one per feature.
     * @param node      the ONNX node, for messages.
     */
    public record Step(Op op, float[] constants, String node)
    {
        /**
         * @param feature a feature index.
         * @return the constant applied to it.
         */
        public float constant(final int feature)
        {
            return constants.length == 1 ? constants[0] : constants[feature];
        }
    }

    /**
     * One dense layer: {@code y = act(alpha * x W + bias)}.
     *
     * @param name        the MatMul or Gemm node.
     * @param inFeatures  K.
     * @param outFeatures M.
     * @param weights     K x M values row-major, or M x K when {@code transposed} (Gemm transB=1).
     * @param transposed  whether the weights are stored M x K.
     * @param alpha       Gemm's alpha (1 for MatMul).
     * @param bias        M values (Gemm's beta already applied), or {@code null}.
     * @param activation  what follows.
     */
    public record Layer(String name, int inFeatures, int outFeatures, float[] weights, boolean transposed,
        float alpha, float[] bias, Activation activation)
    {
        /**
         * @param k an input feature.
         * @param m an output feature.
         * @return the weight from k to m.
         */
        public float weight(final int k, final int m)
        {
            return transposed ? weights[m * inFeatures + k] : weights[k * outFeatures + m];
        }

        Layer withBias(final float[] newBias)
        {
            return new Layer(name, inFeatures, outFeatures, weights, transposed, alpha, newBias, activation);
        }

        Layer withActivation(final Activation newActivation)
        {
            return new Layer(name, inFeatures, outFeatures, weights, transposed, alpha, bias, newActivation);
        }
    }

    /**
     * @return the input and the output.
     */
    public List<EngineTensor> tensors()
    {
        return List.of(input, output);
    }

    /**
     * @return the output features (classes).
     */
    public int classes()
    {
        return layers.get(layers.size() - 1).outFeatures();
    }

    /**
     * @return whether the input is converted before the first layer (a non-float input or any step).
     */
    public boolean hasPrologue()
    {
        return !steps.isEmpty() || !"float32".equals(input.typeName());
    }

    /**
     * @return e.g. {@code uint8 [N,1,28,28] -> 3 steps -> 784x256 relu -> 256x128 relu -> 128x10}.
     */
    public String describe()
    {
        final StringBuilder out = new StringBuilder(input.typeName()).append(' ').append(input.describeShape());
        if (!steps.isEmpty())
        {
            out.append(" -> ").append(steps.size()).append(" element-wise step").append(steps.size() == 1 ? "" : "s");
        }
        for (final Layer l : layers)
        {
            out.append(" -> ").append(l.inFeatures()).append('x').append(l.outFeatures())
                .append(l.activation() == Activation.RELU ? " relu" : "");
        }
        return out.append(softmax ? " -> softmax" : "").toString();
    }

    /**
     * Reads a model file.
     *
     * @param file the ONNX file.
     * @return the model.
     * @throws IllegalArgumentException naming the file and, for an unsupported graph, the node and its operator.
     */
    public static DenseModel read(final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("model file not found: " + file);
        }
        try
        {
            return parse(Files.readAllBytes(file), file.toString());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read model " + file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Reads a model from its bytes.
     *
     * @param bytes  the ONNX file's bytes.
     * @param source the file, for messages.
     * @return the model.
     * @throws IllegalArgumentException naming the source and, for an unsupported graph, the node and its operator.
     */
    public static DenseModel parse(final byte[] bytes, final String source)
    {
        final OnnxDense.ModelProto model;
        try
        {
            model = OnnxDense.ModelProto.parseFrom(bytes);
        }
        catch (final InvalidProtocolBufferException ex)
        {
            throw new IllegalArgumentException("cannot parse ONNX model " + source + ": not an ONNX protobuf ("
                + ex.getMessage() + ")", ex);
        }
        if (!model.hasGraph() || model.getGraph().getNodeCount() == 0)
        {
            throw new IllegalArgumentException("cannot parse ONNX model " + source + ": it has no graph nodes");
        }
        return new DenseModelReader(model.getGraph(), source).read();
    }
}
