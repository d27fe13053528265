package org.jloadgen.sut.network.kserve;

/**
 * The few protobuf wire-format operations the client's hot path needs, on plain byte arrays: varints, tags and
 * skipping a field. Hand-written because protobuf's own parser builds a message object and copies every bytes
 * field, while a response only needs one output's offset and length, found in place without allocating.
 */
public final class ProtoWire
{
    /** Wire type of varints. */
    public static final int VARINT = 0;
    /** Wire type of 64-bit fixed values. */
    public static final int FIXED64 = 1;
    /** Wire type of strings, bytes and messages. */
    public static final int LENGTH_DELIMITED = 2;
    /** Wire type of 32-bit fixed values. */
    public static final int FIXED32 = 5;

    private ProtoWire()
    {
    }

    /**
     * @param field field number.
     * @param type  wire type.
     * @return the tag.
     */
    public static int tag(final int field, final int type)
    {
        return field << 3 | type;
    }

    /**
     * @param value an unsigned varint value.
     * @return its encoded size in bytes.
     */
    public static int varintBytes(final long value)
    {
        return value == 0 ? 1 : (63 - Long.numberOfLeadingZeros(value)) / 7 + 1;
    }

    /**
     * @param value an unsigned varint value.
     * @param out   destination.
     * @param at    first byte to write.
     * @return the position after the varint.
     */
    public static int writeVarint(final long value, final byte[] out, final int at)
    {
        long v = value;
        int p = at;
        while ((v & ~0x7FL) != 0)
        {
            out[p++] = (byte)((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[p++] = (byte)v;
        return p;
    }

    /**
     * A cursor over a serialized message in a byte array. Reusable: {@link #reset} points it at another one.
     */
    public static final class Reader
    {
        private byte[] buffer;
        private int position;
        private int limit;

        /**
         * @param buffer the bytes.
         * @param from   first byte of the message.
         * @param to     end of the message (exclusive).
         * @return this.
         */
        public Reader reset(final byte[] buffer, final int from, final int to)
        {
            this.buffer = buffer;
            this.position = from;
            this.limit = to;
            return this;
        }

        /**
         * @return whether bytes remain.
         */
        public boolean hasMore()
        {
            return position < limit;
        }

        /**
         * @return the current position.
         */
        public int position()
        {
            return position;
        }

        /**
         * @return the next varint.
         * @throws IllegalStateException on a truncated or overlong varint.
         */
        public long varint()
        {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7)
            {
                if (position >= limit)
                {
                    throw new IllegalStateException("truncated varint at byte " + position);
                }
                final byte b = buffer[position++];
                value |= (long)(b & 0x7F) << shift;
                if (b >= 0)
                {
                    return value;
                }
            }
            throw new IllegalStateException("varint longer than 10 bytes before byte " + position);
        }

        /**
         * Reads the length of a length-delimited field and checks it fits.
         *
         * @return the length; the field's bytes start at {@link #position()}.
         */
        public int length()
        {
            final long length = varint();
            if (length < 0 || length > limit - position)
            {
                throw new IllegalStateException("field of " + length + " bytes at byte " + position + " runs past the "
                    + "end of the message (" + (limit - position) + " bytes left)");
            }
            return (int)length;
        }

        /**
         * @param bytes how far to move.
         */
        public void skipBytes(final int bytes)
        {
            position += bytes;
        }

        /**
         * Skips the value of a field whose tag was just read.
         *
         * @param tag the tag.
         */
        public void skip(final int tag)
        {
            switch (tag & 7)
            {
                case VARINT -> varint();
                case FIXED64 -> position += 8;
                case LENGTH_DELIMITED ->
                {
                    // Not "position += length()": that would add to the position read before the length's varint.
                    final int bytes = length();
                    position += bytes;
                }
                case FIXED32 -> position += 4;
                default -> throw new IllegalStateException("unsupported wire type " + (tag & 7) + " at byte "
                    + position);
            }
            if (position > limit)
            {
                throw new IllegalStateException("field runs past the end of the message");
            }
        }

        /**
         * @param expected bytes to compare with.
         * @param from     start of the bytes in the buffer.
         * @param length   their length.
         * @return whether they are equal.
         */
        public boolean equalsAt(final byte[] expected, final int from, final int length)
        {
            if (length != expected.length)
            {
                return false;
            }
            for (int i = 0; i < length; i++)
            {
                if (buffer[from + i] != expected[i])
                {
                    return false;
                }
            }
            return true;
        }
    }
}
