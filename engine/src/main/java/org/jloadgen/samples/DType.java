package org.jloadgen.samples;

import java.nio.ByteOrder;
import java.util.Locale;

/**
 * The element type of a sample array, as NumPy describes it: a kind ({@code b i u f c S U V M m}), an item size
 * in bytes and a byte order. Samples are served as bytes, unconverted; the dtype tells a SUT how to read them.
 *
 * @param kind      NumPy kind character: b bool, i signed int, u unsigned int, f float, c complex, S bytes,
 *                  U UCS-4 text, V raw, M datetime64, m timedelta64.
 * @param itemBytes bytes per element, at least 1.
 * @param order     byte order of multi-byte elements, or {@code null} where it does not apply ({@code |}).
 * @param unit      the unit of a datetime64/timedelta64 (e.g. {@code ns}), else empty.
 */
public record DType(char kind, int itemBytes, ByteOrder order, String unit)
{
    /** Unsigned 8-bit integers, e.g. image pixels. */
    public static final DType UINT8 = new DType('u', 1, null, "");
    /** Signed 8-bit integers, e.g. quantized tensors. */
    public static final DType INT8 = new DType('i', 1, null, "");
    /** Little-endian 32-bit integers. */
    public static final DType INT32 = new DType('i', 4, ByteOrder.LITTLE_ENDIAN, "");
    /** Little-endian 64-bit integers, e.g. token ids. */
    public static final DType INT64 = new DType('i', 8, ByteOrder.LITTLE_ENDIAN, "");
    /** Little-endian IEEE half precision. */
    public static final DType FLOAT16 = new DType('f', 2, ByteOrder.LITTLE_ENDIAN, "");
    /** Little-endian IEEE single precision. */
    public static final DType FLOAT32 = new DType('f', 4, ByteOrder.LITTLE_ENDIAN, "");

    /**
     * @throws IllegalArgumentException for an unknown kind or a size the kind does not have.
     */
    public DType
    {
        if ("biufcSUVMm".indexOf(kind) < 0)
        {
            throw new IllegalArgumentException(
                "unknown dtype kind '" + kind + "' (NumPy kinds are b i u f c S U V M m)");
        }
        if (itemBytes <= 0 || (kind == 'U' && itemBytes % 4 != 0))
        {
            throw new IllegalArgumentException("bad item size " + itemBytes + " for dtype kind '" + kind + "'");
        }
        if (kind == 'b' && itemBytes != 1 ||
            (kind == 'i' || kind == 'u') && itemBytes != 1 && itemBytes != 2 && itemBytes != 4 && itemBytes != 8 ||
            kind == 'f' && itemBytes != 2 && itemBytes != 4 && itemBytes != 8 && itemBytes != 16 ||
            kind == 'c' && itemBytes != 8 && itemBytes != 16 && itemBytes != 32 ||
            (kind == 'M' || kind == 'm') && itemBytes != 8)
        {
            throw new IllegalArgumentException(
                "NumPy has no dtype of kind '" + kind + "' with " + itemBytes + " bytes");
        }
        unit = unit == null ? "" : unit;
        if (!unit.isEmpty() && kind != 'M' && kind != 'm')
        {
            throw new IllegalArgumentException("only datetime64/timedelta64 have a unit: '" + unit + "'");
        }
        if (itemBytes == 1 || kind == 'S' || kind == 'V')
        {
            order = null;
        }
    }

    /**
     * Parses a NumPy type: an array-interface descr ({@code <f4}, {@code |u1}, {@code >i8}, {@code =f2},
     * {@code <M8[ns]}) or a NumPy name ({@code float32}, {@code uint8}, {@code int64}, {@code bool}...; names mean
     * little-endian).
     *
     * @param text the type.
     * @return the dtype.
     * @throws IllegalArgumentException saying what is wrong with it.
     */
    public static DType parse(final String text)
    {
        final String descr = text.strip();
        final DType named = byName(descr.toLowerCase(Locale.ROOT));
        if (named != null)
        {
            return named;
        }
        if (descr.length() < 2)
        {
            throw new IllegalArgumentException("bad dtype '" + text + "'");
        }
        final char orderChar = descr.charAt(0);
        final int at = "<>|=".indexOf(orderChar) >= 0 ? 1 : 0;
        final ByteOrder order = switch (orderChar)
        {
            case '<' -> ByteOrder.LITTLE_ENDIAN;
            case '>' -> ByteOrder.BIG_ENDIAN;
            case '|' -> null;
            default -> ByteOrder.nativeOrder();
        };
        final char kind = descr.charAt(at);
        if (kind == 'O')
        {
            throw new IllegalArgumentException("object dtype '" + text + "' holds Python pointers, not sample data");
        }
        int end = at + 1;
        while (end < descr.length() && Character.isDigit(descr.charAt(end)))
        {
            end++;
        }
        if (end == at + 1)
        {
            throw new IllegalArgumentException("dtype '" + text + "' has no item size");
        }
        final int count;
        try
        {
            count = Integer.parseInt(descr.substring(at + 1, end));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("dtype '" + text + "' has a bad item size", ex);
        }
        String unit = "";
        if (end < descr.length())
        {
            if ((kind != 'M' && kind != 'm') || descr.charAt(end) != '[' || !descr.endsWith("]"))
            {
                throw new IllegalArgumentException("bad dtype '" + text + "'");
            }
            unit = descr.substring(end + 1, descr.length() - 1);
        }
        // NumPy counts characters for U (4 bytes each), bytes for everything else.
        final int itemBytes = kind == 'U' ? Math.multiplyExact(count, 4) : count;
        return new DType(kind, itemBytes, order, unit);
    }

    /**
     * @return the NumPy array-interface descr, e.g. {@code <f4} or {@code |u1}.
     */
    public String descr()
    {
        final char orderChar = order == null ? '|' : order == ByteOrder.LITTLE_ENDIAN ? '<' : '>';
        final int count = kind == 'U' ? itemBytes / 4 : itemBytes;
        return orderChar + String.valueOf(kind) + count + (unit.isEmpty() ? "" : "[" + unit + "]");
    }

    /**
     * @return whether elements can be read without swapping bytes on this machine.
     */
    public boolean isNativeOrder()
    {
        return order == null || order == ByteOrder.nativeOrder();
    }

    @Override
    public String toString()
    {
        return descr();
    }

    private static DType byName(final String name)
    {
        return switch (name)
        {
            case "bool" -> new DType('b', 1, null, "");
            case "int8" -> INT8;
            case "uint8" -> UINT8;
            case "int16" -> new DType('i', 2, ByteOrder.LITTLE_ENDIAN, "");
            case "uint16" -> new DType('u', 2, ByteOrder.LITTLE_ENDIAN, "");
            case "int32" -> INT32;
            case "uint32" -> new DType('u', 4, ByteOrder.LITTLE_ENDIAN, "");
            case "int64" -> INT64;
            case "uint64" -> new DType('u', 8, ByteOrder.LITTLE_ENDIAN, "");
            case "float16" -> FLOAT16;
            case "float32" -> FLOAT32;
            case "float64" -> new DType('f', 8, ByteOrder.LITTLE_ENDIAN, "");
            case "complex64" -> new DType('c', 8, ByteOrder.LITTLE_ENDIAN, "");
            case "complex128" -> new DType('c', 16, ByteOrder.LITTLE_ENDIAN, "");
            default -> null;
        };
    }
}
