package org.jloadgen.sut.tensorrt.dense;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.dense.DenseModel.Activation;
import org.jloadgen.sut.tensorrt.dense.DenseModel.Layer;
import org.jloadgen.sut.tensorrt.dense.DenseModel.Op;
import org.jloadgen.sut.tensorrt.dense.DenseModel.Step;
import org.jloadgen.sut.tensorrt.dense.proto.OnnxDense;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * Reads a {@link DenseModel} from an ONNX graph: walks the nodes in order (ONNX stores them topologically sorted),
 * each continuing the chain from the graph input to the graph output.
 */
final class DenseModelReader
{
    private final OnnxDense.GraphProto graph;
    private final String source;
    private final Map<String, OnnxDense.TensorProto> initializers = new HashMap<>();
    private final List<Step> steps = new ArrayList<>();
    private final List<Layer> layers = new ArrayList<>();
    private boolean cast;
    private boolean softmax;
    private boolean biasAllowed;

    DenseModelReader(final OnnxDense.GraphProto graph, final String source)
    {
        this.graph = graph;
        this.source = source;
        for (final OnnxDense.TensorProto t : graph.getInitializerList())
        {
            initializers.put(t.getName(), t);
        }
    }

    private IllegalArgumentException bad(final String message)
    {
        return new IllegalArgumentException("model " + source + ": " + message);
    }

    private IllegalArgumentException unsupported(final OnnxDense.NodeProto node, final String why)
    {
        return bad("node '" + name(node) + "' (" + node.getOpType() + ") " + why + "; the cublas backend runs "
            + DenseModel.SUPPORTED + ", use the TensorRT backend for other models");
    }

    private static String name(final OnnxDense.NodeProto node)
    {
        return node.getName().isEmpty() ? node.getOutput(0) : node.getName();
    }

    DenseModel read()
    {
        final List<OnnxDense.ValueInfoProto> inputs = graph.getInputList().stream()
            .filter(v -> !initializers.containsKey(v.getName())).toList();
        if (inputs.size() != 1)
        {
            throw bad("the cublas backend needs exactly one graph input, the model has " + inputs.size() + " "
                + inputs.stream().map(OnnxDense.ValueInfoProto::getName).toList());
        }
        if (graph.getOutputCount() != 1)
        {
            throw bad("the cublas backend needs exactly one graph output, the model has "
                + graph.getOutputCount());
        }
        final EngineTensor input = spec(inputs.get(0), true);
        if (input.dtype() == null || !("float32".equals(input.typeName()) || "uint8".equals(input.typeName())
            || "int8".equals(input.typeName())))
        {
            throw bad("input " + input.describe() + ": the cublas backend takes float32, uint8 or int8 inputs");
        }
        long features = 1;
        for (final long d : input.sampleShape())
        {
            if (d <= 0)
            {
                throw bad("input " + input.describe() + " has a dynamic dimension after the batch axis");
            }
            features = Math.multiplyExact(features, d);
        }
        String current = input.name();
        int width = Math.toIntExact(features);
        for (final OnnxDense.NodeProto node : graph.getNodeList())
        {
            if (node.getOutputCount() < 1 || node.getInputCount() < 1)
            {
                throw unsupported(node, "has no input or output");
            }
            if (!node.getInput(0).equals(current) && !isCommutedConstant(node, current))
            {
                throw unsupported(node, "does not continue the chain (its first input is '" + node.getInput(0)
                    + "', the chain is at '" + current + "')");
            }
            if (softmax)
            {
                throw unsupported(node, "follows the Softmax");
            }
            width = apply(node, width);
            current = node.getOutput(0);
        }
        if (layers.isEmpty())
        {
            throw bad("no MatMul or Gemm node: the cublas backend runs " + DenseModel.SUPPORTED);
        }
        final OnnxDense.ValueInfoProto out = graph.getOutput(0);
        if (!out.getName().equals(current))
        {
            throw bad("the graph output '" + out.getName() + "' is not the end of the chain ('" + current + "')");
        }
        final long batch = input.shape()[0];
        final EngineTensor output = new EngineTensor(out.getName(), false, "float32", DType.FLOAT32, 4,
            new long[] {batch, width});
        if (!cast && !"float32".equals(input.typeName()))
        {
            throw bad("input " + input.describe() + " reaches the first layer without a Cast to float");
        }
        return new DenseModel(source, input, output, Math.toIntExact(features), List.copyOf(steps),
            List.copyOf(layers), softmax);
    }

    private boolean isCommutedConstant(final OnnxDense.NodeProto node, final String current)
    {
        final String op = node.getOpType();
        return ("Mul".equals(op) || "Add".equals(op)) && node.getInputCount() == 2
            && node.getInput(1).equals(current) && initializers.containsKey(node.getInput(0));
    }

    private int apply(final OnnxDense.NodeProto node, final int width)
    {
        final String op = node.getOpType();
        if (!node.getDomain().isEmpty() && !"ai.onnx".equals(node.getDomain()))
        {
            throw unsupported(node, "is in domain '" + node.getDomain() + "'");
        }
        switch (op)
        {
            case "Identity":
                return width;
            case "Flatten":
                if (intAttribute(node, "axis", 1) != 1)
                {
                    throw unsupported(node, "flattens at axis " + intAttribute(node, "axis", 1) + ", not 1");
                }
                return width;
            case "Reshape":
                checkReshape(node, width);
                return width;
            case "Cast":
                if (intAttribute(node, "to", -1) != DenseModel.ONNX_FLOAT)
                {
                    throw unsupported(node, "casts to ONNX type " + intAttribute(node, "to", -1)
                        + ", only to float (1)");
                }
                if (!layers.isEmpty())
                {
                    return width;
                }
                cast = true;
                return width;
            case "Mul", "Sub", "Div":
                elementwise(node, op, width);
                return width;
            case "Add":
                if (!layers.isEmpty())
                {
                    addBias(node, width);
                }
                else
                {
                    elementwise(node, op, width);
                }
                return width;
            case "MatMul", "Gemm":
                return layer(node, width);
            case "Relu":
                relu(node);
                return width;
            case "Softmax":
                final long axis = intAttribute(node, "axis", -1);
                if (layers.isEmpty() || axis != -1 && axis != 1)
                {
                    throw unsupported(node, layers.isEmpty() ? "comes before the first layer"
                        : "is over axis " + axis + ", not the last");
                }
                softmax = true;
                return width;
            default:
                throw unsupported(node, "is not supported");
        }
    }

    private void checkReshape(final OnnxDense.NodeProto node, final int width)
    {
        final OnnxDense.TensorProto shape = node.getInputCount() == 2 ? initializers.get(node.getInput(1)) : null;
        if (shape == null || shape.getDataType() != DenseModel.ONNX_INT64)
        {
            throw unsupported(node, "has no constant int64 shape");
        }
        final long[] dims = longs(shape);
        final boolean flat = dims.length == 2 && (dims[0] == -1 || dims[0] == 0)
            && (dims[1] == -1 || dims[1] == width);
        if (!flat)
        {
            throw unsupported(node, "reshapes to " + java.util.Arrays.toString(dims) + ", not [N, " + width + "]");
        }
    }

    private void elementwise(final OnnxDense.NodeProto node, final String op, final int width)
    {
        if (!layers.isEmpty())
        {
            throw unsupported(node, "comes after a dense layer (only Add of a bias may)");
        }
        final boolean constantFirst = node.getInputCount() == 2 && initializers.containsKey(node.getInput(0))
            && !initializers.containsKey(node.getInput(1));
        final String constantName = node.getInputCount() == 2 ? node.getInput(constantFirst ? 0 : 1) : null;
        final OnnxDense.TensorProto constant = constantName == null ? null : initializers.get(constantName);
        if (constant == null)
        {
            throw unsupported(node, "has no constant operand (an initializer)");
        }
        final float[] values = floats(constant, node);
        if (values.length != 1 && values.length != width)
        {
            throw unsupported(node, "has a constant of " + values.length + " values; it must have 1 or " + width);
        }
        steps.add(new Step(Op.valueOf(op.toUpperCase(Locale.ROOT)), values, name(node)));
    }

    private void addBias(final OnnxDense.NodeProto node, final int width)
    {
        final Layer last = layers.get(layers.size() - 1);
        final OnnxDense.TensorProto constant = node.getInputCount() == 2 ? initializers.get(node.getInput(1))
            : null;
        if (!biasAllowed || constant == null)
        {
            throw unsupported(node, constant == null ? "adds no constant (an initializer)"
                : "does not directly follow a MatMul or Gemm without bias");
        }
        final float[] bias = floats(constant, node);
        if (bias.length != width)
        {
            throw unsupported(node, "adds " + bias.length + " values to " + width + " features");
        }
        layers.set(layers.size() - 1, last.withBias(bias));
        biasAllowed = false;
    }

    private void relu(final OnnxDense.NodeProto node)
    {
        if (layers.isEmpty())
        {
            throw unsupported(node, "comes before the first layer");
        }
        final Layer last = layers.get(layers.size() - 1);
        if (last.activation() != Activation.NONE)
        {
            throw unsupported(node, "follows another Relu");
        }
        layers.set(layers.size() - 1, last.withActivation(Activation.RELU));
        biasAllowed = false;
    }

    private int layer(final OnnxDense.NodeProto node, final int width)
    {
        final boolean gemm = "Gemm".equals(node.getOpType());
        final OnnxDense.TensorProto w = node.getInputCount() >= 2 ? initializers.get(node.getInput(1)) : null;
        if (w == null || w.getDimsCount() != 2)
        {
            throw unsupported(node, "has no 2-D initializer as its weights");
        }
        final boolean transposed = gemm && intAttribute(node, "transB", 0) != 0;
        if (gemm && intAttribute(node, "transA", 0) != 0)
        {
            throw unsupported(node, "has transA=1");
        }
        final long k = transposed ? w.getDims(1) : w.getDims(0);
        final long m = transposed ? w.getDims(0) : w.getDims(1);
        if (k != width)
        {
            throw unsupported(node, "takes " + k + " features but the chain has " + width);
        }
        final float alpha = gemm ? floatAttribute(node, "alpha", 1f) : 1f;
        final float beta = gemm ? floatAttribute(node, "beta", 1f) : 1f;
        float[] bias = null;
        if (gemm && node.getInputCount() >= 3 && !node.getInput(2).isEmpty())
        {
            final OnnxDense.TensorProto c = initializers.get(node.getInput(2));
            if (c == null)
            {
                throw unsupported(node, "has a C input that is not an initializer");
            }
            bias = floats(c, node);
            if (bias.length == 1)
            {
                final float v = bias[0];
                bias = new float[(int)m];
                java.util.Arrays.fill(bias, v);
            }
            if (bias.length != m)
            {
                throw unsupported(node, "has a bias of " + bias.length + " values for " + m + " outputs");
            }
            if (beta != 1f)
            {
                for (int i = 0; i < bias.length; i++)
                {
                    bias[i] *= beta;
                }
            }
        }
        layers.add(new Layer(name(node), (int)k, Math.toIntExact(m), floats(w, node), transposed, alpha, bias,
            Activation.NONE));
        biasAllowed = bias == null;
        return (int)m;
    }

    private float[] floats(final OnnxDense.TensorProto t, final OnnxDense.NodeProto node)
    {
        if (t.getDataLocation() == 1)
        {
            throw unsupported(node, "has initializer '" + t.getName() + "' in external data");
        }
        if (t.getDataType() != DenseModel.ONNX_FLOAT)
        {
            throw unsupported(node, "has initializer '" + t.getName() + "' of ONNX type " + t.getDataType()
                + ", not float");
        }
        long count = 1;
        for (final long d : t.getDimsList())
        {
            count *= d;
        }
        final float[] values;
        if (t.hasRawData())
        {
            final ByteBuffer raw = t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            values = new float[raw.remaining() / Float.BYTES];
            raw.asFloatBuffer().get(values);
        }
        else
        {
            values = new float[t.getFloatDataCount()];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = t.getFloatData(i);
            }
        }
        if (values.length != count)
        {
            throw unsupported(node, "has initializer '" + t.getName() + "' with " + values.length
                + " values for dimensions " + t.getDimsList());
        }
        return values;
    }

    private static long[] longs(final OnnxDense.TensorProto t)
    {
        if (t.hasRawData())
        {
            final ByteBuffer raw = t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            final long[] values = new long[raw.remaining() / Long.BYTES];
            raw.asLongBuffer().get(values);
            return values;
        }
        return t.getInt64DataList().stream().mapToLong(Long::longValue).toArray();
    }

    private static long intAttribute(final OnnxDense.NodeProto node, final String name, final long fallback)
    {
        return node.getAttributeList().stream().filter(a -> a.getName().equals(name)).findFirst()
            .map(OnnxDense.AttributeProto::getI).orElse(fallback);
    }

    private static float floatAttribute(final OnnxDense.NodeProto node, final String name, final float fallback)
    {
        return node.getAttributeList().stream().filter(a -> a.getName().equals(name)).findFirst()
            .map(OnnxDense.AttributeProto::getF).orElse(fallback);
    }

    private EngineTensor spec(final OnnxDense.ValueInfoProto value, final boolean isInput)
    {
        if (!value.hasType() || !value.getType().hasTensorType())
        {
            throw bad("'" + value.getName() + "' is not a tensor");
        }
        final OnnxDense.TypeProto.Tensor type = value.getType().getTensorType();
        final long[] shape = new long[type.getShape().getDimCount()];
        if (shape.length < 2)
        {
            throw bad("'" + value.getName() + "' has " + shape.length + " dimensions; the cublas backend needs a "
                + "batch axis and at least one more");
        }
        for (int i = 0; i < shape.length; i++)
        {
            final OnnxDense.TensorShapeProto.Dimension d = type.getShape().getDim(i);
            shape[i] = d.hasDimValue() && d.getDimValue() > 0 ? d.getDimValue() : -1;
        }
        return switch (type.getElemType())
        {
            case DenseModel.ONNX_FLOAT ->
                new EngineTensor(value.getName(), isInput, "float32", DType.FLOAT32, 4, shape);
            case DenseModel.ONNX_UINT8 -> new EngineTensor(value.getName(), isInput, "uint8", DType.UINT8, 1, shape);
            case DenseModel.ONNX_INT8 -> new EngineTensor(value.getName(), isInput, "int8", DType.INT8, 1, shape);
            default -> new EngineTensor(value.getName(), isInput, "onnx-type-" + type.getElemType(), null, 0, shape);
        };
    }
}
