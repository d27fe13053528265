package org.jloadgen.sut.network.kserve;

import java.nio.charset.StandardCharsets;

/**
 * Finds one output's raw bytes in a serialized {@code inference.ModelInferResponse} without building the message:
 * {@code outputs} (field 5, each with its {@code name} in field 1) says at which position the wanted output is,
 * and that entry of {@code raw_output_contents} (field 6) is its data. One scanner per in-flight call; nothing
 * allocates.
 */
public final class InferResponseScanner
{
    private static final int OUTPUTS = ProtoWire.tag(5, ProtoWire.LENGTH_DELIMITED);
    private static final int RAW_OUTPUT_CONTENTS = ProtoWire.tag(6, ProtoWire.LENGTH_DELIMITED);
    private static final int NAME = ProtoWire.tag(1, ProtoWire.LENGTH_DELIMITED);
    private static final int ID = ProtoWire.tag(3, ProtoWire.LENGTH_DELIMITED);

    private final byte[] outputName;
    private final ProtoWire.Reader reader = new ProtoWire.Reader();
    private final ProtoWire.Reader nested = new ProtoWire.Reader();
    private int dataOffset;
    private int dataLength;
    private int outputCount;
    private int rawCount;
    private long id;

    /**
     * @param outputName the output to find, or {@code null} for the first one.
     */
    public InferResponseScanner(final String outputName)
    {
        this.outputName = outputName == null ? null : outputName.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param buffer a serialized response.
     * @param length its size.
     * @return whether the output's raw contents were found ({@link #dataOffset()}, {@link #dataLength()}).
     * @throws IllegalStateException when the bytes are not a well-formed message.
     */
    public boolean scan(final byte[] buffer, final int length)
    {
        return scan(buffer, 0, length);
    }

    /**
     * @param buffer a buffer holding a serialized response.
     * @param from   its first byte.
     * @param to     the end of it (exclusive).
     * @return whether the output's raw contents were found ({@link #dataOffset()}, {@link #dataLength()}).
     * @throws IllegalStateException when the bytes are not a well-formed message.
     */
    public boolean scan(final byte[] buffer, final int from, final int to)
    {
        final int wanted = outputName == null ? 0 : indexOfNamedOutput(buffer, from, to);
        outputCount = 0;
        rawCount = 0;
        id = -1;
        final ProtoWire.Reader r = reader.reset(buffer, from, to);
        while (r.hasMore())
        {
            final int tag = (int)r.varint();
            if (tag == ID)
            {
                final int bytes = r.length();
                id = decimal(buffer, r.position(), bytes);
                r.skipBytes(bytes);
            }
            else if (tag == OUTPUTS)
            {
                outputCount++;
                r.skip(tag);
            }
            else if (tag == RAW_OUTPUT_CONTENTS)
            {
                final int bytes = r.length();
                if (rawCount == wanted)
                {
                    dataOffset = r.position();
                    dataLength = bytes;
                }
                rawCount++;
                r.skipBytes(bytes);
            }
            else
            {
                r.skip(tag);
            }
        }
        return wanted >= 0 && wanted < rawCount;
    }

    private static long decimal(final byte[] buffer, final int from, final int length)
    {
        if (length == 0 || length > 18)
        {
            return -1;
        }
        long value = 0;
        for (int i = from; i < from + length; i++)
        {
            final int digit = buffer[i] - '0';
            if (digit < 0 || digit > 9)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private int indexOfNamedOutput(final byte[] buffer, final int from, final int to)
    {
        final ProtoWire.Reader r = reader.reset(buffer, from, to);
        int index = 0;
        while (r.hasMore())
        {
            final int tag = (int)r.varint();
            if (tag != OUTPUTS)
            {
                r.skip(tag);
                continue;
            }
            final int bytes = r.length();
            final int start = r.position();
            final ProtoWire.Reader n = nested.reset(buffer, start, start + bytes);
            while (n.hasMore())
            {
                final int inner = (int)n.varint();
                if (inner == NAME)
                {
                    final int nameBytes = n.length();
                    if (n.equalsAt(outputName, n.position(), nameBytes))
                    {
                        return index;
                    }
                    n.skipBytes(nameBytes);
                }
                else
                {
                    n.skip(inner);
                }
            }
            index++;
            r.skipBytes(bytes);
        }
        return -1;
    }

    /**
     * @return the first byte of the output's data in the scanned buffer.
     */
    public int dataOffset()
    {
        return dataOffset;
    }

    /**
     * @return the output's data size.
     */
    public int dataLength()
    {
        return dataLength;
    }

    /**
     * @return the last scanned response's {@code id} as a decimal number, or -1 when it has none or another kind.
     */
    public long id()
    {
        return id;
    }

    /**
     * @return the number of {@code outputs} entries in the last scanned response.
     */
    public int outputCount()
    {
        return outputCount;
    }

    /**
     * @return the number of {@code raw_output_contents} entries in the last scanned response.
     */
    public int rawCount()
    {
        return rawCount;
    }
}
