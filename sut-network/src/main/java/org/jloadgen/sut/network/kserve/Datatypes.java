package org.jloadgen.sut.network.kserve;

import java.nio.ByteOrder;

import org.jloadgen.samples.DType;

/**
 * KServe v2 tensor datatypes ({@code FP32}, {@code UINT8}...) and the NumPy dtypes with the same bytes. Raw
 * tensor contents are little-endian; a big-endian dtype has no datatype, since converting it would be
 * preprocessing, which the QDL rules forbid.
 */
public final class Datatypes
{
    private Datatypes()
    {
    }

    /**
     * @param dtype a sample dtype.
     * @return its KServe datatype.
     * @throws IllegalArgumentException when KServe v2 has none for it.
     */
    public static String of(final DType dtype)
    {
        if (dtype.order() == ByteOrder.BIG_ENDIAN)
        {
            throw new IllegalArgumentException("dtype " + dtype + " is big-endian; KServe v2 raw tensors are "
                + "little-endian and the client may not convert samples");
        }
        final String name = switch (dtype.kind())
        {
            case 'b' -> "BOOL";
            case 'u' -> "UINT" + dtype.itemBytes() * 8;
            case 'i' -> "INT" + dtype.itemBytes() * 8;
            case 'f' -> dtype.itemBytes() <= 8 ? "FP" + dtype.itemBytes() * 8 : null;
            default -> null;
        };
        if (name == null)
        {
            throw new IllegalArgumentException("KServe v2 has no datatype for dtype " + dtype);
        }
        return name;
    }

    /**
     * @param datatype a KServe datatype.
     * @return the dtype with the same bytes, or {@code null} for {@code BYTES}, {@code BF16} and unknown names.
     */
    public static DType dtype(final String datatype)
    {
        return switch (datatype)
        {
            case "BOOL" -> DType.parse("bool");
            case "UINT8" -> DType.UINT8;
            case "UINT16" -> DType.parse("uint16");
            case "UINT32" -> DType.parse("uint32");
            case "UINT64" -> DType.parse("uint64");
            case "INT8" -> DType.INT8;
            case "INT16" -> DType.parse("int16");
            case "INT32" -> DType.INT32;
            case "INT64" -> DType.INT64;
            case "FP16" -> DType.FLOAT16;
            case "FP32" -> DType.FLOAT32;
            case "FP64" -> DType.parse("float64");
            default -> null;
        };
    }

    /**
     * @param datatype a KServe datatype.
     * @return bytes per element, or -1 when the elements have no fixed size ({@code BYTES}) or the name is unknown.
     */
    public static int elementBytes(final String datatype)
    {
        if ("BF16".equals(datatype))
        {
            return 2;
        }
        final DType dtype = dtype(datatype);
        return dtype == null ? -1 : dtype.itemBytes();
    }
}
