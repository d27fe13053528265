package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A reused buffer that a gRPC response stream is read into on the transport thread: it grows to the largest
 * answer seen, then stays, so reading allocates nothing in the steady state.
 */
final class ResponseBuffer
{
    private byte[] bytes = new byte[256];

    /**
     * @param in a message stream.
     * @return the number of bytes read into {@link #bytes()}.
     * @throws IOException when the stream cannot be read.
     */
    int readFully(final InputStream in) throws IOException
    {
        int length = 0;
        final int announced = in.available();
        if (announced > bytes.length)
        {
            bytes = new byte[announced];
        }
        while (true)
        {
            if (length == bytes.length)
            {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + in.available()));
            }
            final int n = in.read(bytes, length, bytes.length - length);
            if (n < 0)
            {
                return length;
            }
            length += n;
        }
    }

    /**
     * @return the buffer; valid up to the length the last read returned, until the next read.
     */
    byte[] bytes()
    {
        return bytes;
    }
}
