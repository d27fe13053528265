package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;

import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.sut.network.SlotPool;
import org.jloadgen.sut.network.kserve.InferResponseScanner;

/**
 * One in-flight slot of a node: at most one {@code ModelInfer} call at a time, with everything it needs reused
 * from call to call (the request stream, the listener, which is this object, the response buffer and scanner).
 * The issuing thread takes a free slot, starts its call and forgets it; gRPC's transport thread runs the listener,
 * completes the sample on the engine's {@link ResponseSink} and frees the slot.
 */
final class InferCall extends ClientCall.Listener<InputStream> implements SlotPool.Slot
{
    private final Node node;
    private final NetworkSut sut;
    private final RequestStream request = new RequestStream();
    private final InferResponseScanner scanner;
    private byte[] response = new byte[256];
    private long responseId;
    private boolean answered;
    private String protocolError;
    /** When the call started, for the stall watchdog; 0 while the slot is free. Volatile: the watchdog reads it. */
    private volatile long startNs;

    /**
     * @param node       the node this slot belongs to.
     * @param sut        the SUT, for the sink and failure reports.
     * @param outputName the output to return, or {@code null} for the first.
     */
    InferCall(final Node node, final NetworkSut sut, final String outputName)
    {
        this.node = node;
        this.sut = sut;
        this.scanner = new InferResponseScanner(outputName);
    }

    /**
     * @return the request's serialized form (the marshaller's stream).
     */
    RequestStream requestStream()
    {
        return request;
    }

    /**
     * Sends one sample. Issuing thread.
     *
     * @param id           the sample's response id.
     * @param header       the request's encoded fixed fields.
     * @param slab         the sample slab.
     * @param sampleOffset the sample's offset in the slab.
     * @param sampleBytes  its size.
     */
    void start(final long id, final byte[] header, final MemorySegment slab, final long sampleOffset,
        final long sampleBytes)
    {
        responseId = id;
        answered = false;
        protocolError = null;
        request.reset(header, slab, sampleOffset, sampleBytes);
        startNs = System.nanoTime() | 1;
        final ClientCall<InferCall, InputStream> c = node.newCall();
        try
        {
            // Metadata is mutated by the transport, so each call gets its own (grpc-java has no reusable headers).
            c.start(this, new Metadata());
        }
        catch (final RuntimeException ex)
        {
            // Not started, so no listener callback will come: free the slot here.
            startNs = 0;
            sut.monitor().requestFailed(node, "the client could not start a call: " + ex);
            node.pool().release(this);
            return;
        }
        try
        {
            c.request(1);
            c.sendMessage(this);
            c.halfClose();
        }
        catch (final RuntimeException ex)
        {
            // onClose follows with CANCELLED and frees the slot.
            c.cancel("the client failed to send the request: " + ex, ex);
        }
    }

    @Override
    public long startNs()
    {
        return startNs;
    }

    @Override
    public void onMessage(final InputStream message)
    {
        try
        {
            final int length = readFully(message);
            if (scanner.scan(response, length))
            {
                answered = true;
                sut.monitor().sink().complete(responseId, response, scanner.dataOffset(), scanner.dataLength(), 0L);
            }
            else
            {
                protocolError = scanner.rawCount() == 0
                    ? "answered without raw_output_contents (" + scanner.outputCount() + " outputs); the client "
                        + "reads raw tensors only"
                    : "answered without the requested output";
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            protocolError = "sent a response the client cannot read: " + ex;
        }
    }

    @Override
    public void onClose(final Status status, final Metadata trailers)
    {
        try
        {
            if (answered && status.isOk())
            {
                node.pool().answered();
            }
            else
            {
                sut.monitor().requestFailed(node, protocolError != null ? protocolError
                    : status.isOk() ? "closed the call without an answer" : NetworkSut.describe(status));
            }
        }
        finally
        {
            startNs = 0;
            node.pool().release(this);
        }
    }

    private int readFully(final InputStream in) throws IOException
    {
        int length = 0;
        final int announced = in.available();
        if (announced > response.length)
        {
            response = new byte[announced];
        }
        while (true)
        {
            if (length == response.length)
            {
                // Grows to the largest answer seen, then stays.
                response = java.util.Arrays.copyOf(response, Math.max(response.length * 2, length + in.available()));
            }
            final int n = in.read(response, length, response.length - length);
            if (n < 0)
            {
                return length;
            }
            length += n;
        }
    }
}
