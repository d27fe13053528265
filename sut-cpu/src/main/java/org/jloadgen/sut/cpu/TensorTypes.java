package org.jloadgen.sut.cpu;

import java.nio.ByteOrder;
import java.util.Locale;
import java.util.StringJoiner;

import ai.onnxruntime.OnnxJavaType;
import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.samples.DType;

/**
 * Conversions between the sample library's NumPy dtypes, ONNX Runtime's element types and shapes as text.
 */
final class TensorTypes
{
    private TensorTypes()
    {
    }

    /**
     * @param dtype a sample dtype.
     * @return the ONNX Runtime element type with the same bytes, or {@link OnnxJavaType#UNKNOWN} if none (unsigned
     *         16/32/64-bit, complex, text, datetime).
     */
    static OnnxJavaType onnxType(final DType dtype)
    {
        return switch (dtype.kind())
        {
            case 'b' -> OnnxJavaType.BOOL;
            case 'u' -> dtype.itemBytes() == 1 ? OnnxJavaType.UINT8 : OnnxJavaType.UNKNOWN;
            case 'i' -> switch (dtype.itemBytes())
            {
                case 1 -> OnnxJavaType.INT8;
                case 2 -> OnnxJavaType.INT16;
                case 4 -> OnnxJavaType.INT32;
                case 8 -> OnnxJavaType.INT64;
                default -> OnnxJavaType.UNKNOWN;
            };
            case 'f' -> switch (dtype.itemBytes())
            {
                case 2 -> OnnxJavaType.FLOAT16;
                case 4 -> OnnxJavaType.FLOAT;
                case 8 -> OnnxJavaType.DOUBLE;
                default -> OnnxJavaType.UNKNOWN;
            };
            default -> OnnxJavaType.UNKNOWN;
        };
    }

    /**
     * @param type an ONNX Runtime element type.
     * @return the little-endian NumPy dtype with the same bytes.
     * @throws IllegalArgumentException for types a sample file cannot hold (string, unknown, bfloat16).
     */
    static DType dtype(final OnnxJavaType type)
    {
        return switch (type)
        {
            case BOOL -> DType.parse("bool");
            case UINT8 -> DType.UINT8;
            case INT8 -> DType.INT8;
            case INT16 -> DType.parse("int16");
            case INT32 -> DType.INT32;
            case INT64 -> DType.INT64;
            case FLOAT16 -> DType.FLOAT16;
            case FLOAT -> DType.FLOAT32;
            case DOUBLE -> DType.parse("float64");
            default -> throw new IllegalArgumentException("no NumPy dtype holds ONNX " + name(type) + " tensors");
        };
    }

    /**
     * @param dtype a sample dtype.
     * @return whether samples of it can be handed to ONNX Runtime as they are (a known type in native order).
     */
    static boolean usable(final DType dtype)
    {
        return onnxType(dtype) != OnnxJavaType.UNKNOWN
            && (dtype.order() == null || dtype.order() == ByteOrder.nativeOrder());
    }

    /**
     * @param type an ONNX Runtime element type.
     * @return its ONNX name, e.g. {@code float32}, {@code uint8}.
     */
    static String name(final OnnxJavaType type)
    {
        return switch (type)
        {
            case FLOAT -> "float32";
            case DOUBLE -> "float64";
            case FLOAT16 -> "float16";
            case BFLOAT16 -> "bfloat16";
            case STRING -> "string";
            case UNKNOWN -> "an element type the Java API does not support";
            default -> type.name().toLowerCase(Locale.ROOT);
        };
    }

    /**
     * @param type the element type of a classification output.
     * @return how the accuracy checker reads one output row: float32 logits, or an int32/int64 class index.
     */
    static ClassificationAccuracy.DataType accuracyType(final OnnxJavaType type)
    {
        return switch (type)
        {
            case INT32 -> ClassificationAccuracy.DataType.INT32;
            case INT64 -> ClassificationAccuracy.DataType.INT64;
            case FLOAT -> ClassificationAccuracy.DataType.FLOAT32;
            default -> ClassificationAccuracy.DataType.AUTO;
        };
    }

    /**
     * @param shape dimensions; negative ones are dynamic.
     * @param batch what to print for a dynamic first dimension ({@code N}), or {@code null} to print it as {@code ?}.
     * @return e.g. {@code [N,3,224,224]}.
     */
    static String format(final long[] shape, final String batch)
    {
        final StringJoiner joiner = new StringJoiner(",", "[", "]");
        for (int i = 0; i < shape.length; i++)
        {
            joiner.add(shape[i] >= 0 ? Long.toString(shape[i]) : i == 0 && batch != null ? batch : "?");
        }
        return joiner.toString();
    }

    /**
     * @param shape dimensions, all known.
     * @return their product.
     * @throws ArithmeticException on overflow.
     */
    static long elements(final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            count = Math.multiplyExact(count, dim);
        }
        return count;
    }
}
