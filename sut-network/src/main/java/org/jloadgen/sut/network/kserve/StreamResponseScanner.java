package org.jloadgen.sut.network.kserve;

import java.nio.charset.StandardCharsets;

/**
 * Splits a serialized {@code inference.ModelStreamInferResponse} in place: where its {@code infer_response}
 * (field 2) lies, for an {@link InferResponseScanner}, or its {@code error_message} (field 1). Reused; nothing
 * allocates unless there is an error to report.
 */
public final class StreamResponseScanner
{
    private static final int ERROR_MESSAGE = ProtoWire.tag(1, ProtoWire.LENGTH_DELIMITED);
    private static final int INFER_RESPONSE = ProtoWire.tag(2, ProtoWire.LENGTH_DELIMITED);

    private final ProtoWire.Reader reader = new ProtoWire.Reader();
    private int responseFrom;
    private int responseTo;
    private int errorFrom;
    private int errorLength;

    /**
     * @param buffer a serialized stream response.
     * @param length its size.
     * @throws IllegalStateException when the bytes are not a well-formed message.
     */
    public void scan(final byte[] buffer, final int length)
    {
        responseFrom = -1;
        responseTo = -1;
        errorFrom = -1;
        errorLength = 0;
        final ProtoWire.Reader r = reader.reset(buffer, 0, length);
        while (r.hasMore())
        {
            final int tag = (int)r.varint();
            if (tag == INFER_RESPONSE || tag == ERROR_MESSAGE)
            {
                final int bytes = r.length();
                if (tag == INFER_RESPONSE)
                {
                    responseFrom = r.position();
                    responseTo = responseFrom + bytes;
                }
                else
                {
                    errorFrom = r.position();
                    errorLength = bytes;
                }
                r.skipBytes(bytes);
            }
            else
            {
                r.skip(tag);
            }
        }
    }

    /**
     * @return the first byte of {@code infer_response}, or -1 when there is none.
     */
    public int responseFrom()
    {
        return responseFrom;
    }

    /**
     * @return the end (exclusive) of {@code infer_response}.
     */
    public int responseTo()
    {
        return responseTo;
    }

    /**
     * @param buffer the scanned buffer.
     * @return the non-empty {@code error_message}, or {@code null}.
     */
    public String error(final byte[] buffer)
    {
        return errorLength == 0 ? null : new String(buffer, errorFrom, errorLength, StandardCharsets.UTF_8);
    }
}
