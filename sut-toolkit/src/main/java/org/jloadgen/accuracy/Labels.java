package org.jloadgen.accuracy;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.jloadgen.clib.IoErrors;

/**
 * Class labels by QSL index, from the formats classification datasets ship in: IDX1 ({@code idx1-ubyte},
 * optionally gzip'ed, as MNIST and Fashion-MNIST), a 1-D integer NumPy {@code .npy}, or text with one
 * integer label per line (ImageNet's {@code val_map.txt} style "name label" lines take the last field).
 */
public final class Labels
{
    private Labels()
    {
    }

    /**
     * @param file the labels.
     * @return label of each QSL index.
     * @throws IllegalArgumentException naming the file and offset or line on malformed content.
     */
    public static int[] read(final Path file)
    {
        try
        {
            final byte[] head = readHead(file, 16);
            if (head.length >= 4 && head[0] == 0 && head[1] == 0 && head[2] == 0x08 && head[3] == 0x01)
            {
                return idx1(file);
            }
            if (head.length >= 6 && (head[0] & 0xFF) == 0x93 && head[1] == 'N' && head[2] == 'U')
            {
                return npy(file);
            }
            if (head.length >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B)
            {
                return idx1(file);
            }
            return text(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read labels " + file + ": " + IoErrors.reason(ex), ex);
        }
    }

    private static byte[] readHead(final Path file, final int n) throws IOException
    {
        try (InputStream in = Files.newInputStream(file))
        {
            return in.readNBytes(n);
        }
    }

    private static InputStream open(final Path file) throws IOException
    {
        final InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        raw.mark(2);
        final int b0 = raw.read();
        final int b1 = raw.read();
        raw.reset();
        return b0 == 0x1F && b1 == 0x8B ? new BufferedInputStream(new GZIPInputStream(raw)) : raw;
    }

    private static int[] idx1(final Path file) throws IOException
    {
        try (DataInputStream in = new DataInputStream(open(file)))
        {
            final int magic = in.readInt();
            if (magic != 0x00000801)
            {
                throw new IllegalArgumentException(file + ": offset 0: not an IDX1 unsigned-byte file (magic 0x"
                    + Integer.toHexString(magic) + ", expected 0x801)");
            }
            final int count = in.readInt();
            if (count < 0)
            {
                throw new IllegalArgumentException(file + ": offset 4: negative label count " + count);
            }
            final byte[] labels = new byte[count];
            try
            {
                in.readFully(labels);
            }
            catch (final EOFException ex)
            {
                throw new IllegalArgumentException(file + ": truncated: header says " + count
                    + " labels, the data ends early (after offset 8)", ex);
            }
            final int[] out = new int[count];
            for (int i = 0; i < count; i++)
            {
                out[i] = labels[i] & 0xFF;
            }
            return out;
        }
    }

    private static int[] npy(final Path file) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        final ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        final int major = bytes[6];
        final int headerLength = major == 1 ? (b.getShort(8) & 0xFFFF) : b.getInt(8);
        final int headerStart = major == 1 ? 10 : 12;
        if (headerStart + headerLength > bytes.length)
        {
            throw new IllegalArgumentException(file + ": offset " + headerStart + ": npy header runs past the end");
        }
        final String header = new String(bytes, headerStart, headerLength, StandardCharsets.ISO_8859_1);
        final String descr = field(header, "descr", file);
        final int dataStart = headerStart + headerLength;
        final int itemBytes;
        final ByteOrder order = descr.startsWith(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        switch (descr.substring(1))
        {
            case "u1", "i1" -> itemBytes = 1;
            case "i2", "u2" -> itemBytes = 2;
            case "i4", "u4" -> itemBytes = 4;
            case "i8", "u8" -> itemBytes = 8;
            default -> throw new IllegalArgumentException(file + ": labels must be an integer array, dtype is '"
                + descr + "'");
        }
        final int count = (bytes.length - dataStart) / itemBytes;
        if ((bytes.length - dataStart) % itemBytes != 0)
        {
            throw new IllegalArgumentException(file + ": offset " + dataStart + ": data length "
                + (bytes.length - dataStart) + " is not a multiple of " + itemBytes);
        }
        final ByteBuffer data = ByteBuffer.wrap(bytes, dataStart, bytes.length - dataStart).slice().order(order);
        final int[] out = new int[count];
        for (int i = 0; i < count; i++)
        {
            out[i] = switch (itemBytes)
            {
                case 1 -> descr.contains("u") ? data.get(i) & 0xFF : data.get(i);
                case 2 -> descr.contains("u") ? data.getShort(2 * i) & 0xFFFF : data.getShort(2 * i);
                case 4 -> data.getInt(4 * i);
                default -> Math.toIntExact(data.getLong(8 * i));
            };
        }
        return out;
    }

    private static String field(final String header, final String name, final Path file)
    {
        final int at = header.indexOf("'" + name + "'");
        if (at < 0)
        {
            throw new IllegalArgumentException(file + ": npy header has no '" + name + "': " + header);
        }
        final int open = header.indexOf('\'', header.indexOf(':', at) + 1);
        final int close = header.indexOf('\'', open + 1);
        return header.substring(open + 1, close);
    }

    private static int[] text(final Path file) throws IOException
    {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final List<Integer> labels = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).trim();
            if (line.isEmpty())
            {
                continue;
            }
            final String[] fields = line.split("\\s+");
            try
            {
                labels.add(Integer.parseInt(fields[fields.length - 1]));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(file + ": line " + (i + 1) + ": not an integer label: '" + line
                    + "'", ex);
            }
        }
        return labels.stream().mapToInt(Integer::intValue).toArray();
    }
}
