package org.jloadgen.samples;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The header of a NumPy {@code .npy} file (format versions 1.0, 2.0 and 3.0): dtype with byte order, memory
 * order and shape, and where the data starts. Reading it also checks that the file holds exactly the data the
 * header declares, so a truncated or padded file fails here, with its name and the offset, and not later.
 * <p>
 * Layout: magic {@code \x93NUMPY}, major and minor version bytes, a little-endian header length (2 bytes in 1.0,
 * 4 in 2.0/3.0), then the header: a Python dict literal
 * {@code {'descr': '<f4', 'fortran_order': False, 'shape': (10, 3, 224, 224), }} (latin-1; UTF-8 in 3.0) padded
 * with spaces and a newline.
 * <p>
 * Hand-written: no Java library reads .npy headers, and the parser is a few dozen lines of a tiny Python-literal
 * grammar (strings, booleans, integer tuples).
 *
 * @param file         the file read.
 * @param majorVersion format major version (1, 2 or 3).
 * @param minorVersion format minor version (0).
 * @param dtype        element type.
 * @param fortranOrder whether the array is stored column-major.
 * @param shape        the array's shape ({@code []} for a scalar).
 * @param dataOffset   byte offset of the first element.
 * @param dataBytes    bytes of array data: product of the shape times the item size.
 */
public record NpyHeader(
    Path file, int majorVersion, int minorVersion, DType dtype, boolean fortranOrder, long[] shape, long dataOffset,
    long dataBytes)
{
    /** The six magic bytes every .npy file starts with. */
    static final byte[] MAGIC = {(byte)0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final int PREAMBLE_BYTES_V1 = 10;
    private static final int PREAMBLE_BYTES_V2 = 12;
    /** Longest part of a bad header an error message quotes. */
    private static final int MAX_QUOTED_CHARS = 200;
    /** NumPy refuses larger headers too (its default max_header_size is 10000; 2.0 files may be larger). */
    private static final long MAX_HEADER_BYTES = 1 << 24;

    /**
     * Reads and checks the header of {@code file} through {@code channel}.
     *
     * @param file    the file, for messages.
     * @param channel an open channel on it.
     * @return the header.
     * @throws SampleFormatException when the file is not a well-formed .npy file of the size its header declares.
     * @throws IOException           when it cannot be read.
     */
    public static NpyHeader read(final Path file, final FileChannel channel) throws IOException
    {
        final long fileBytes = channel.size();
        if (fileBytes < PREAMBLE_BYTES_V1)
        {
            throw new SampleFormatException(file, fileBytes, "truncated: the file has " + fileBytes +
                " bytes, a .npy preamble needs at least " + PREAMBLE_BYTES_V1);
        }
        final ByteBuffer preamble = readFully(file, channel, 0, (int)Math.min(PREAMBLE_BYTES_V2, fileBytes));
        for (int i = 0; i < MAGIC.length; i++)
        {
            if (preamble.get(i) != MAGIC[i])
            {
                throw new SampleFormatException(file, i, "not a .npy file: the magic string \\x93NUMPY is missing " +
                    "(found " + hex(preamble, MAGIC.length) + ")");
            }
        }
        final int major = preamble.get(6) & 0xFF;
        final int minor = preamble.get(7) & 0xFF;
        if (major < 1 || major > 3 || minor != 0)
        {
            throw new SampleFormatException(file, 6, "unsupported .npy format version " + major + "." + minor +
                " (1.0, 2.0 and 3.0 are read)");
        }
        final int headerStart = major == 1 ? PREAMBLE_BYTES_V1 : PREAMBLE_BYTES_V2;
        if (fileBytes < headerStart)
        {
            throw new SampleFormatException(file, fileBytes, "truncated: the file has " + fileBytes +
                " bytes, a version " + major + ".0 preamble needs " + headerStart);
        }
        final long headerBytes = major == 1 ?
            preamble.order(ByteOrder.LITTLE_ENDIAN).getShort(8) & 0xFFFFL :
            preamble.order(ByteOrder.LITTLE_ENDIAN).getInt(8) & 0xFFFFFFFFL;
        if (headerBytes > MAX_HEADER_BYTES)
        {
            throw new SampleFormatException(file, 8,
                "header length " + headerBytes + " is implausible (corrupt file?)");
        }
        if (headerStart + headerBytes > fileBytes)
        {
            throw new SampleFormatException(file, fileBytes, "truncated: the header of " + headerBytes +
                " bytes starting at offset " + headerStart + " runs past the end of the file (" + fileBytes +
                " bytes)");
        }
        final ByteBuffer headerBuffer = readFully(file, channel, headerStart, (int)headerBytes);
        final String text = new String(headerBuffer.array(), 0, (int)headerBytes,
            major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        final Map<String, Object> dict = new Parser(file, text, headerStart, major == 3).parseHeader();

        final DType dtype = (DType)dict.get("descr");
        final boolean fortranOrder = (Boolean)dict.get("fortran_order");
        final long[] shape = (long[])dict.get("shape");
        final long dataOffset = headerStart + headerBytes;
        final long dataBytes;
        try
        {
            dataBytes = Math.multiplyExact(elementCount(shape), (long)dtype.itemBytes());
        }
        catch (final ArithmeticException ex)
        {
            throw new SampleFormatException(file, headerStart, "shape " + formatShape(shape) + " of " + dtype +
                " overflows a 64-bit byte count");
        }
        final long expectedBytes = dataOffset + dataBytes;
        if (fileBytes < expectedBytes)
        {
            throw new SampleFormatException(file, fileBytes, "truncated: shape " + formatShape(shape) + " of " +
                dtype + " needs " + dataBytes + " data bytes from offset " + dataOffset + " (a " + expectedBytes +
                "-byte file) but the file ends after " + fileBytes + " bytes");
        }
        if (fileBytes > expectedBytes)
        {
            throw new SampleFormatException(file, expectedBytes, (fileBytes - expectedBytes) + " bytes follow the " +
                dataBytes + " data bytes that shape " + formatShape(shape) + " of " + dtype +
                " declares (wrong shape in the header, or data appended)");
        }
        return new NpyHeader(file, major, minor, dtype, fortranOrder, shape, dataOffset, dataBytes);
    }

    /**
     * @return the shape, copied.
     */
    @Override
    public long[] shape()
    {
        return shape.clone();
    }

    /**
     * @return the number of elements (1 for a scalar).
     */
    public long elementCount()
    {
        return elementCount(shape);
    }

    /**
     * @return whether the array's bytes are in C (row-major) element order: always true unless Fortran order was
     *         used for an array with more than one axis longer than 1.
     */
    public boolean isRowMajor()
    {
        if (!fortranOrder)
        {
            return true;
        }
        int longAxes = 0;
        for (final long dim : shape)
        {
            if (dim > 1)
            {
                longAxes++;
            }
        }
        return longAxes <= 1;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final NpyHeader that && file.equals(that.file) &&
            majorVersion == that.majorVersion && minorVersion == that.minorVersion && dtype.equals(that.dtype) &&
            fortranOrder == that.fortranOrder && Arrays.equals(shape, that.shape) && dataOffset == that.dataOffset &&
            dataBytes == that.dataBytes;
    }

    @Override
    public int hashCode()
    {
        return file.hashCode() * 31 + Arrays.hashCode(shape);
    }

    @Override
    public String toString()
    {
        return "NpyHeader{" + file + " v" + majorVersion + "." + minorVersion + ", " + dtype + ", fortran_order=" +
            fortranOrder + ", shape=" + formatShape(shape) + ", dataOffset=" + dataOffset + "}";
    }

    /**
     * @param shape a shape.
     * @return it as Python prints a tuple: {@code (10, 3)}, {@code (5,)}, {@code ()}.
     */
    static String formatShape(final long[] shape)
    {
        final StringBuilder out = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++)
        {
            out.append(i == 0 ? "" : ", ").append(shape[i]);
        }
        return out.append(shape.length == 1 ? ",)" : ")").toString();
    }

    static long elementCount(final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            count = Math.multiplyExact(count, dim);
        }
        return count;
    }

    private static ByteBuffer readFully(
        final Path file, final FileChannel channel, final long position, final int bytes) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(bytes);
        while (buffer.hasRemaining())
        {
            if (channel.read(buffer, position + buffer.position()) < 0)
            {
                throw new SampleFormatException(file, position + buffer.position(), "unexpected end of file");
            }
        }
        return buffer;
    }

    private static String hex(final ByteBuffer buffer, final int bytes)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes; i++)
        {
            out.append(i == 0 ? "" : " ").append(String.format("%02x", buffer.get(i) & 0xFF));
        }
        return out.toString();
    }

    /** Recursive descent over the Python literal subset NumPy writes; errors carry file byte offsets. */
    private static final class Parser
    {
        private final Path file;
        private final String text;
        private final long baseOffset;
        private final boolean utf8;
        private int at;

        Parser(final Path file, final String text, final long baseOffset, final boolean utf8)
        {
            this.file = file;
            this.text = text;
            this.baseOffset = baseOffset;
            this.utf8 = utf8;
        }

        Map<String, Object> parseHeader() throws SampleFormatException
        {
            skipSpace();
            expect('{');
            final Map<String, Object> dict = new HashMap<>();
            skipSpace();
            while (peek() != '}')
            {
                final int keyAt = at;
                final Object key = value();
                if (!(key instanceof String))
                {
                    throw error(keyAt, "header keys must be strings");
                }
                skipSpace();
                expect(':');
                skipSpace();
                final int valueAt = at;
                final Object value = value();
                final Object checked = switch ((String)key)
                {
                    case "descr" -> descr(value, valueAt);
                    case "fortran_order" ->
                    {
                        if (!(value instanceof Boolean))
                        {
                            throw error(valueAt, "'fortran_order' must be True or False");
                        }
                        yield value;
                    }
                    case "shape" -> shape(value, valueAt);
                    default -> throw error(keyAt, "unexpected key '" + key + "' (a .npy header has exactly 'descr', " +
                        "'fortran_order' and 'shape')");
                };
                if (dict.put((String)key, checked) != null)
                {
                    throw error(keyAt, "key '" + key + "' appears twice");
                }
                skipSpace();
                if (peek() == ',')
                {
                    at++;
                    skipSpace();
                }
                else if (peek() != '}')
                {
                    throw error(at, "expected ',' or '}' in the header dict");
                }
            }
            at++;
            skipSpace();
            if (at != text.length())
            {
                throw error(at, "unexpected text after the header dict");
            }
            for (final String key : List.of("descr", "fortran_order", "shape"))
            {
                if (!dict.containsKey(key))
                {
                    throw error(0, "the header has no '" + key + "'");
                }
            }
            return dict;
        }

        private DType descr(final Object value, final int valueAt) throws SampleFormatException
        {
            if (value instanceof List)
            {
                throw error(valueAt, "structured dtypes (a list of fields) are not supported: store one plain array " +
                    "per field");
            }
            if (!(value instanceof String))
            {
                throw error(valueAt, "'descr' must be a dtype string such as '<f4'");
            }
            try
            {
                return DType.parse((String)value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw error(valueAt, ex.getMessage());
            }
        }

        private long[] shape(final Object value, final int valueAt) throws SampleFormatException
        {
            if (!(value instanceof final Tuple tuple))
            {
                throw error(valueAt, "'shape' must be a tuple of integers");
            }
            final long[] shape = new long[tuple.items().size()];
            for (int i = 0; i < shape.length; i++)
            {
                if (!(tuple.items().get(i) instanceof final Long dim) || dim < 0)
                {
                    throw error(valueAt, "'shape' must hold non-negative integers: " + text.substring(valueAt, at));
                }
                shape[i] = dim;
            }
            return shape;
        }

        private Object value() throws SampleFormatException
        {
            final char c = peek();
            if (c == '\'' || c == '"')
            {
                return string(c);
            }
            if (c == '(' || c == '[')
            {
                return sequence(c);
            }
            if (c == '{')
            {
                throw error(at, "nested dicts are not part of a .npy header");
            }
            if (c == '-' || Character.isDigit(c))
            {
                return integer();
            }
            if (Character.isLetter(c))
            {
                final int start = at;
                while (at < text.length() && Character.isLetterOrDigit(text.charAt(at)))
                {
                    at++;
                }
                return switch (text.substring(start, at))
                {
                    case "True" -> Boolean.TRUE;
                    case "False" -> Boolean.FALSE;
                    default -> throw error(start, "unexpected name '" + text.substring(start, at) + "'");
                };
            }
            throw error(at, c == '\0' ?
                "the header ends in the middle of the dict" : "unexpected character '" + c + "'");
        }

        private String string(final char quote) throws SampleFormatException
        {
            final int start = at++;
            final StringBuilder out = new StringBuilder();
            while (at < text.length() && text.charAt(at) != quote)
            {
                char c = text.charAt(at++);
                if (c == '\\' && at < text.length())
                {
                    c = text.charAt(at++);
                }
                out.append(c);
            }
            if (at >= text.length())
            {
                throw error(start, "unterminated string");
            }
            at++;
            return out.toString();
        }

        private Object sequence(final char open) throws SampleFormatException
        {
            final char close = open == '(' ? ')' : ']';
            at++;
            final List<Object> items = new ArrayList<>();
            skipSpace();
            while (peek() != close)
            {
                items.add(value());
                skipSpace();
                if (peek() == ',')
                {
                    at++;
                    skipSpace();
                }
                else if (peek() != close)
                {
                    throw error(at, "expected ',' or '" + close + "'");
                }
            }
            at++;
            return open == '(' ? new Tuple(items) : items;
        }

        private Long integer() throws SampleFormatException
        {
            final int start = at;
            if (peek() == '-')
            {
                at++;
            }
            while (at < text.length() && Character.isDigit(text.charAt(at)))
            {
                at++;
            }
            final String digits = text.substring(start, at);
            if (peek() == 'L' || peek() == 'l')
            {
                at++; // Python 2 long literal, as in files written by NumPy under Python 2.
            }
            try
            {
                return Long.parseLong(digits);
            }
            catch (final NumberFormatException ex)
            {
                throw error(start, "bad integer '" + digits + "'");
            }
        }

        private void expect(final char c) throws SampleFormatException
        {
            if (peek() != c)
            {
                throw error(at, "expected '" + c + "'");
            }
            at++;
        }

        private char peek()
        {
            return at < text.length() ? text.charAt(at) : '\0';
        }

        private void skipSpace()
        {
            while (at < text.length() && Character.isWhitespace(text.charAt(at)))
            {
                at++;
            }
        }

        private SampleFormatException error(final int charIndex, final String problem)
        {
            final int index = Math.min(charIndex, text.length());
            final long byteIndex = utf8 ? text.substring(0, index).getBytes(StandardCharsets.UTF_8).length : index;
            final String header = text.strip();
            return new SampleFormatException(file, baseOffset + byteIndex, "bad .npy header: " + problem +
                " (header: " + (header.length() > MAX_QUOTED_CHARS ? header.substring(0, MAX_QUOTED_CHARS) + "..."
                : header) + ")");
        }
    }

    private record Tuple(List<Object> items)
    {
    }
}
