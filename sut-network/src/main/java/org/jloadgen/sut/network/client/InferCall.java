package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.SlotPool;
import org.jloadgen.sut.network.kserve.InferResponseScanner;

/**
 * One in-flight slot of a node: at most one request at a time (a {@code ModelInfer} call, or a message on the node's
 * stream), with everything it needs reused from request to request (the request stream, the listener, which is this
 * object, the response buffer and scanner). The issuing thread takes a free slot, sends its request and forgets it;
 * gRPC's transport thread reads the answer, completes the sample on the engine's {@link ResponseSink} and frees the
 * slot.
 * <p>
 * A request ends once ({@link #settle}): answered, failed, or timed out by the watchdog, whichever comes first. A
 * failed unary call may be sent again on the same slot while the failure policy allows a retry.
 */
final class InferCall extends ClientCall.Listener<InputStream> implements SlotPool.Slot
{
    /** No {@code id} field: unary calls need none. */
    private static final byte[] NO_ID = new byte[0];
    private static final VarHandle START_NS;

    static
    {
        try
        {
            START_NS = MethodHandles.lookup().findVarHandle(InferCall.class, "startNs", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Node node;
    private final NetworkSut sut;
    private final RequestStream request = new RequestStream();
    private final InferResponseScanner scanner;
    private final ResponseBuffer buffer = new ResponseBuffer();
    private final byte[] idField;
    private long responseId;
    private boolean answered;
    private String protocolError;
    private byte[] header;
    private MemorySegment slab;
    private long sampleOffset;
    private long sampleBytes;
    /** Retries of this sample so far. */
    private int retries;
    /** The current attempt's start, as {@link #startNs} held it when it began. */
    private long attemptStartNs;
    /** The current unary call, for the watchdog to cancel; {@code null} on a stream. */
    private volatile ClientCall<InferCall, InputStream> call;
    /**
     * When the call started, for the stall watchdog; 0 once the request is settled or the slot is free. Whoever sets
     * it from the attempt's start to 0 ({@link #settle}) decides how the request ends.
     */
    private volatile long startNs;

    /**
     * @param node       the node this slot belongs to.
     * @param index      the slot's number in the node: its request id on a stream.
     * @param sut        the SUT, for the sink and failure reports.
     * @param outputName the output to return, or {@code null} for the first.
     */
    InferCall(final Node node, final int index, final NetworkSut sut, final String outputName)
    {
        this.node = node;
        this.sut = sut;
        this.scanner = new InferResponseScanner(outputName);
        this.idField = RequestStream.idField(Integer.toString(index));
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
    void start(final long id, final byte[] requestHeader, final MemorySegment sampleSlab, final long offset,
        final long bytes)
    {
        responseId = id;
        header = requestHeader;
        slab = sampleSlab;
        sampleOffset = offset;
        sampleBytes = bytes;
        retries = 0;
        send();
    }

    /**
     * @return whether this thread settled the current attempt (neither the watchdog nor an earlier outcome did).
     */
    private boolean settle()
    {
        return START_NS.compareAndSet(this, attemptStartNs, 0L);
    }

    @Override
    public boolean timeOut(final long seenStartNs, final String reason)
    {
        final ClientCall<InferCall, InputStream> c = call;
        if (c == null)
        {
            // A request on a shared stream cannot be cancelled alone.
            return false;
        }
        if (START_NS.compareAndSet(this, seenStartNs, 0L))
        {
            sut.monitor().requestFailed(node, FleetMonitor.TIMEOUT_CAUSE, reason, responseId);
            // onClose follows with CANCELLED and frees the slot.
            c.cancel(reason, null);
        }
        return true;
    }

    private void send()
    {
        answered = false;
        protocolError = null;
        final StreamConnection stream = node.nextStream();
        request.reset(header, stream != null ? idField : NO_ID, slab, sampleOffset, sampleBytes);
        attemptStartNs = System.nanoTime() | 1;
        startNs = attemptStartNs;
        if (stream != null)
        {
            call = null;
            try
            {
                stream.send(this);
            }
            catch (final RuntimeException ex)
            {
                streamFailed("the client could not send on its stream: " + FleetMonitor.describe(ex));
            }
            return;
        }
        final ClientCall<InferCall, InputStream> c = node.newCall();
        call = c;
        try
        {
            // Metadata is mutated by the transport, so each call gets its own (grpc-java has no reusable headers).
            c.start(this, new Metadata());
        }
        catch (final RuntimeException ex)
        {
            // Not started, so no listener callback will come: free the slot here.
            if (settle())
            {
                sut.monitor().requestFailed(node, "client", "the client could not start a call: "
                    + FleetMonitor.describe(ex), responseId);
            }
            startNs = 0;
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

    /**
     * The answer to this slot's request came on the node's stream. Transport thread.
     *
     * @param data   the buffer holding it.
     * @param offset where the output's bytes start.
     * @param length how many there are.
     */
    void streamAnswered(final byte[] data, final int offset, final int length)
    {
        // Counted before the engine hears of it: the last completion may end the run, and the node's counts are
        // read then.
        if (settle())
        {
            node.pool().answered();
            sut.monitor().sink().complete(responseId, data, offset, length, 0L);
        }
        startNs = 0;
        node.pool().release(this);
    }

    /**
     * This slot's request failed on the node's stream. Transport or issuing thread.
     *
     * @param reason what the node answered.
     */
    void streamFailed(final String reason)
    {
        if (settle())
        {
            sut.monitor().requestFailed(node, "error message", reason, responseId);
        }
        startNs = 0;
        node.pool().release(this);
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
            final int length = buffer.readFully(message);
            if (scanner.scan(buffer.bytes(), length))
            {
                if (!settle())
                {
                    // The watchdog failed it already; the answer came too late.
                    return;
                }
                answered = true;
                // Counted before the engine hears of it, not when the call closes: the last completion may end the
                // run, and the node's counts are read then.
                node.pool().answered();
                sut.monitor().sink().complete(responseId, buffer.bytes(), scanner.dataOffset(), scanner.dataLength(),
                    0L);
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
            protocolError = "sent a response the client cannot read: " + FleetMonitor.describe(ex);
        }
    }

    @Override
    public void onClose(final Status status, final Metadata trailers)
    {
        try
        {
            if (answered)
            {
                if (!status.isOk())
                {
                    // The sample completed with the answer (and is counted answered); an error status after it still
                    // fails the run, and the node's other requests in flight are lost with it.
                    sut.monitor().serverFailed(node, "closed an answered call with " + NetworkSut.describe(status));
                }
            }
            else if (settle())
            {
                final String cause = protocolError != null ? "unreadable answer"
                    : status.isOk() ? "no answer" : status.getCode().name();
                if (protocolError == null && !status.isOk() && sut.monitor().retry(retries, cause))
                {
                    retries++;
                    send();
                    return;
                }
                sut.monitor().requestFailed(node, cause, protocolError != null ? protocolError
                    : status.isOk() ? "closed the call without an answer" : NetworkSut.describe(status), responseId);
            }
        }
        catch (final RuntimeException ex)
        {
            startNs = 0;
            node.pool().release(this);
            throw ex;
        }
        startNs = 0;
        node.pool().release(this);
    }
}
