package org.jloadgen.sut.cpu;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes small ONNX models for tests: the protobuf wire format of the few {@code onnx.proto} messages a graph of
 * a handful of nodes needs (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto). Hand
 * written because no Java ONNX writer is a small, well-kept Maven dependency, and tests must not need Python.
 */
final class TinyOnnx
{
    /** ONNX TensorProto.DataType FLOAT. */
    static final int FLOAT = 1;
    /** ONNX TensorProto.DataType UINT8. */
    static final int UINT8 = 2;

    private final ByteArrayOutputStream graph = new ByteArrayOutputStream();

    /**
     * Adds a node.
     *
     * @param op      op type.
     * @param inputs  input names.
     * @param output  output name.
     * @param intsAttribute name of an ints attribute, or {@code null}.
     * @param ints    its values.
     * @param intName name of an int attribute, or {@code null}.
     * @param intValue its value.
     * @return this.
     */
    TinyOnnx node(final String op, final String[] inputs, final String output, final String intsAttribute,
        final long[] ints, final String intName, final long intValue)
    {
        final ByteArrayOutputStream node = new ByteArrayOutputStream();
        for (final String in : inputs)
        {
            string(node, 1, in);
        }
        string(node, 2, output);
        string(node, 3, op + "_" + output);
        string(node, 4, op);
        if (intsAttribute != null)
        {
            final ByteArrayOutputStream a = new ByteArrayOutputStream();
            string(a, 1, intsAttribute);
            for (final long v : ints)
            {
                varintField(a, 8, v);
            }
            varintField(a, 20, 7);
            message(node, 5, a);
        }
        if (intName != null)
        {
            final ByteArrayOutputStream a = new ByteArrayOutputStream();
            string(a, 1, intName);
            varintField(a, 3, intValue);
            varintField(a, 20, 2);
            message(node, 5, a);
        }
        message(graph, 1, node);
        return this;
    }

    /**
     * Adds a float32 initializer.
     *
     * @param name   its name.
     * @param dims   its shape.
     * @param values row-major values.
     * @return this.
     */
    TinyOnnx initializer(final String name, final long[] dims, final float[] values)
    {
        final ByteArrayOutputStream t = new ByteArrayOutputStream();
        for (final long d : dims)
        {
            varintField(t, 1, d);
        }
        varintField(t, 2, FLOAT);
        string(t, 8, name);
        final ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final float v : values)
        {
            raw.putFloat(v);
        }
        bytes(t, 9, raw.array());
        message(graph, 5, t);
        return this;
    }

    /**
     * Declares a graph input.
     *
     * @param name     its name.
     * @param elemType ONNX element type.
     * @param dims     dimensions; a {@code String} is a symbolic (dynamic) dimension, a {@code Long} a fixed one.
     * @return this.
     */
    TinyOnnx input(final String name, final int elemType, final Object... dims)
    {
        message(graph, 11, valueInfo(name, elemType, dims));
        return this;
    }

    /**
     * Declares a graph output.
     *
     * @param name     its name.
     * @param elemType ONNX element type.
     * @param dims     dimensions as for {@link #input}.
     * @return this.
     */
    TinyOnnx output(final String name, final int elemType, final Object... dims)
    {
        message(graph, 12, valueInfo(name, elemType, dims));
        return this;
    }

    /**
     * Writes the model (IR version 8, opset 13).
     *
     * @param file where.
     * @return {@code file}.
     * @throws IOException when it cannot be written.
     */
    Path write(final Path file) throws IOException
    {
        final ByteArrayOutputStream g = new ByteArrayOutputStream();
        g.writeBytes(graph.toByteArray());
        string(g, 2, "tiny");
        final ByteArrayOutputStream model = new ByteArrayOutputStream();
        varintField(model, 1, 8);
        string(model, 2, "jloadgen-test");
        final ByteArrayOutputStream opset = new ByteArrayOutputStream();
        string(opset, 1, "");
        varintField(opset, 2, 13);
        message(model, 8, opset);
        message(model, 7, g);
        Files.write(file, model.toByteArray());
        return file;
    }

    private static ByteArrayOutputStream valueInfo(final String name, final int elemType, final Object... dims)
    {
        final ByteArrayOutputStream shape = new ByteArrayOutputStream();
        for (final Object d : dims)
        {
            final ByteArrayOutputStream dim = new ByteArrayOutputStream();
            if (d instanceof final String symbol)
            {
                string(dim, 2, symbol);
            }
            else
            {
                varintField(dim, 1, ((Number)d).longValue());
            }
            message(shape, 1, dim);
        }
        final ByteArrayOutputStream tensor = new ByteArrayOutputStream();
        varintField(tensor, 1, elemType);
        message(tensor, 2, shape);
        final ByteArrayOutputStream type = new ByteArrayOutputStream();
        message(type, 1, tensor);
        final ByteArrayOutputStream info = new ByteArrayOutputStream();
        string(info, 1, name);
        message(info, 2, type);
        return info;
    }

    private static void varint(final ByteArrayOutputStream out, final long value)
    {
        long v = value;
        while ((v & ~0x7FL) != 0)
        {
            out.write((int)((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int)v);
    }

    private static void varintField(final ByteArrayOutputStream out, final int field, final long value)
    {
        varint(out, (long)field << 3);
        varint(out, value);
    }

    private static void bytes(final ByteArrayOutputStream out, final int field, final byte[] data)
    {
        varint(out, ((long)field << 3) | 2);
        varint(out, data.length);
        out.writeBytes(data);
    }

    private static void string(final ByteArrayOutputStream out, final int field, final String text)
    {
        bytes(out, field, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void message(final ByteArrayOutputStream out, final int field, final ByteArrayOutputStream body)
    {
        bytes(out, field, body.toByteArray());
    }
}
