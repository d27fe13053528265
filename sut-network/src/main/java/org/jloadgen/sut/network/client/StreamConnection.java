package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.io.InputStream;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.kserve.InferResponseScanner;
import org.jloadgen.sut.network.kserve.StreamResponseScanner;

/**
 * One {@code ModelStreamInfer} stream to a node ({@code stream=true}): requests go out as messages on the stream,
 * each carrying its slot's number as its {@code id}; answers come back in completion order and are matched to their
 * slot by that id. No call is created per request, so no headers, no new HTTP/2 stream and no status per request.
 * The issuing thread sends; the transport thread reads the answers and completes the samples.
 */
final class StreamConnection extends ClientCall.Listener<InputStream>
{
    private final Node node;
    private final NetworkSut sut;
    private final ClientCall<InferCall, InputStream> call;
    private final StreamResponseScanner outer = new StreamResponseScanner();
    private final InferResponseScanner scanner;
    private final ResponseBuffer buffer = new ResponseBuffer();
    private volatile boolean closing;

    /**
     * Opens the stream.
     *
     * @param node       the node.
     * @param sut        the SUT, for the sink and failure reports.
     * @param channel    the connection.
     * @param outputName the output to read, or {@code null} for the first.
     */
    StreamConnection(final Node node, final NetworkSut sut, final ManagedChannel channel, final String outputName)
    {
        this.node = node;
        this.sut = sut;
        this.scanner = new InferResponseScanner(outputName);
        this.call = channel.newCall(ModelInferMethod.STREAM, CallOptions.DEFAULT);
        call.start(this, new Metadata());
        // Answers are never held back: the slots bound how many can come.
        call.request(Integer.MAX_VALUE);
    }

    /**
     * Sends a request. Issuing thread.
     *
     * @param slot the slot whose request it is.
     */
    void send(final InferCall slot)
    {
        call.sendMessage(slot);
    }

    @Override
    public void onMessage(final InputStream message)
    {
        final byte[] response;
        try
        {
            final int length = buffer.readFully(message);
            response = buffer.bytes();
            outer.scan(response, length);
        }
        catch (final IOException | RuntimeException ex)
        {
            sut.monitor().serverFailed(node, "sent a stream message the client cannot read: "
                + FleetMonitor.describe(ex));
            return;
        }
        final String error = outer.error(response);
        long id = -1;
        boolean found = false;
        if (outer.responseFrom() >= 0)
        {
            try
            {
                found = scanner.scan(response, outer.responseFrom(), outer.responseTo());
                id = scanner.id();
            }
            catch (final RuntimeException ex)
            {
                sut.monitor().serverFailed(node, "sent a response the client cannot read: "
                    + FleetMonitor.describe(ex));
                return;
            }
        }
        final InferCall slot = node.pool().slot(id);
        if (slot == null)
        {
            sut.monitor().serverFailed(node, error != null ? "answered an error on its stream without the request's "
                + "id: " + error : "answered on its stream with an id the client did not send (" + id + ")");
            return;
        }
        if (error != null)
        {
            slot.streamFailed("answered an error on its stream: " + error);
        }
        else if (!found)
        {
            slot.streamFailed(scanner.rawCount() == 0 ? "answered without raw_output_contents (" + scanner
                .outputCount() + " outputs); the client reads raw tensors only" : "answered without the requested "
                + "output");
        }
        else
        {
            slot.streamAnswered(response, scanner.dataOffset(), scanner.dataLength());
        }
    }

    @Override
    public void onClose(final Status status, final Metadata trailers)
    {
        if (!closing)
        {
            sut.monitor().serverFailed(node, "closed its ModelStreamInfer stream: " + NetworkSut.describe(status));
        }
    }

    /**
     * Ends the stream (after the run).
     */
    void close()
    {
        closing = true;
        try
        {
            call.halfClose();
        }
        catch (final IllegalStateException ex)
        {
            // Already closed by the server or cancelled: nothing to end.
        }
    }
}
