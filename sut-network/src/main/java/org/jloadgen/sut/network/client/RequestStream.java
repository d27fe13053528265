package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import org.jloadgen.sut.network.kserve.ProtoWire;

/**
 * One serialized {@code ModelInferRequest}, produced as gRPC writes it: the request's fixed fields (model, input
 * name, datatype, shape; encoded once per sample shape by protobuf when the samples are loaded), on a stream the
 * slot's {@code id} field (encoded once per slot), then the {@code raw_input_contents} tag and length, then the
 * sample's bytes read straight from the sample slab.
 * <p>
 * gRPC drains a {@link Drainable} message into the transport's own buffer when the call sends it, so the sample is
 * copied once from the slab into the socket buffer, through a small reused bounce array ({@code OutputStream}
 * takes arrays, not native memory). One per in-flight slot, reused for every request of that slot: the slot is
 * not reused before its call has closed, so a drain that gRPC defers until the connection is up still sees this
 * request's sample.
 */
final class RequestStream extends InputStream implements Drainable, KnownLength
{
    /** Tag of {@code raw_input_contents} (field 7, length-delimited). */
    private static final int RAW_INPUT_CONTENTS = ProtoWire.tag(7, ProtoWire.LENGTH_DELIMITED);
    /** Largest bounce copy. */
    static final int BOUNCE_BYTES_MAX = 16 * 1024;

    private final byte[] frame = new byte[11];
    private byte[] bounce;
    private byte[] header;
    private byte[] id = new byte[0];
    private int frameBytes;
    private MemorySegment slab;
    private long sampleOffset;
    private long sampleBytes;
    private long position;

    /**
     * Points this stream at a request. Called by the issuing thread before the call starts.
     *
     * @param header       the encoded fixed fields.
     * @param idField      the encoded {@code id} field (tag, length, text), or an empty array for none.
     * @param slab         the sample slab.
     * @param sampleOffset the sample's offset in the slab.
     * @param sampleBytes  the sample's size.
     */
    void reset(final byte[] header, final byte[] idField, final MemorySegment slab, final long sampleOffset,
        final long sampleBytes)
    {
        this.header = header;
        this.id = idField;
        this.slab = slab;
        this.sampleOffset = sampleOffset;
        this.sampleBytes = sampleBytes;
        this.position = 0;
        frame[0] = (byte)RAW_INPUT_CONTENTS;
        frameBytes = ProtoWire.writeVarint(sampleBytes, frame, 1);
        if (bounce == null || bounce.length < Math.min(sampleBytes, BOUNCE_BYTES_MAX))
        {
            // Grows to the sample size (at most 16 KiB) on the first requests, then stays.
            bounce = new byte[(int)Math.min(Math.max(sampleBytes, 64), BOUNCE_BYTES_MAX)];
        }
    }

    /**
     * @return the serialized size.
     */
    long totalBytes()
    {
        return header.length + id.length + frameBytes + sampleBytes;
    }

    /**
     * @param text the request id, ASCII.
     * @return the encoded {@code id} field (field 3).
     */
    static byte[] idField(final String text)
    {
        final byte[] ascii = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        final byte[] field = new byte[2 + ascii.length];
        field[0] = (byte)ProtoWire.tag(3, ProtoWire.LENGTH_DELIMITED);
        field[1] = (byte)ascii.length;
        System.arraycopy(ascii, 0, field, 2, ascii.length);
        return field;
    }

    @Override
    public int drainTo(final OutputStream target) throws IOException
    {
        final long total = totalBytes() - position;
        if (position == 0)
        {
            target.write(header);
            target.write(id);
            target.write(frame, 0, frameBytes);
            copySample(target, 0);
        }
        else
        {
            // Part was read already (never done by gRPC's framer, but a stream must stay consistent).
            final byte[] rest = readNBytes((int)total);
            target.write(rest);
        }
        position = totalBytes();
        return (int)total;
    }

    private void copySample(final OutputStream target, final long from) throws IOException
    {
        final byte[] b = bounce;
        for (long done = from; done < sampleBytes; )
        {
            final int n = (int)Math.min(b.length, sampleBytes - done);
            MemorySegment.copy(slab, ValueLayout.JAVA_BYTE, sampleOffset + done, b, 0, n);
            target.write(b, 0, n);
            done += n;
        }
    }

    @Override
    public int available()
    {
        return (int)(totalBytes() - position);
    }

    @Override
    public int read()
    {
        final byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(final byte[] b, final int off, final int len)
    {
        final long total = totalBytes();
        if (position >= total)
        {
            return -1;
        }
        int done = 0;
        while (done < len && position < total)
        {
            final int n;
            final long idEnd = header.length + id.length;
            if (position < header.length)
            {
                n = (int)Math.min(len - done, header.length - position);
                System.arraycopy(header, (int)position, b, off + done, n);
            }
            else if (position < idEnd)
            {
                final int at = (int)(position - header.length);
                n = Math.min(len - done, id.length - at);
                System.arraycopy(id, at, b, off + done, n);
            }
            else if (position < idEnd + frameBytes)
            {
                final int at = (int)(position - idEnd);
                n = Math.min(len - done, frameBytes - at);
                System.arraycopy(frame, at, b, off + done, n);
            }
            else
            {
                final long at = position - idEnd - frameBytes;
                n = (int)Math.min(len - done, sampleBytes - at);
                MemorySegment.copy(slab, ValueLayout.JAVA_BYTE, sampleOffset + at, b, off + done, n);
            }
            done += n;
            position += n;
        }
        return done;
    }
}
