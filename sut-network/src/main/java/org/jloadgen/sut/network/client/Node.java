package org.jloadgen.sut.network.client;

import java.io.InputStream;
import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.SlotPool;

/**
 * One inference server of the cluster: its channels (one TCP connection each) and its in-flight slots.
 */
final class Node implements FleetMonitor.Member
{
    private final String endpoint;
    private final String name;
    private final ManagedChannel[] channels;
    private final SlotPool<InferCall> pool;
    private final StreamConnection[] streams;
    /** Issuing thread only. */
    private int nextChannel;

    /**
     * @param endpoint   {@code host:port} as given.
     * @param name       the server's name (ServerMetadata).
     * @param channels   its channels.
     * @param inFlight   calls in flight at most.
     * @param sut        the SUT the calls report to.
     * @param outputName the output to read, or {@code null} for the first.
     * @param stream     whether requests go on one {@code ModelStreamInfer} stream per connection instead of one
     *                   call each.
     */
    Node(final String endpoint, final String name, final ManagedChannel[] channels, final int inFlight,
        final NetworkSut sut, final String outputName, final boolean stream)
    {
        this.endpoint = endpoint;
        this.name = name;
        this.channels = channels.clone();
        this.pool = new SlotPool<>(inFlight, i -> new InferCall(this, i, sut, outputName));
        this.streams = stream ? new StreamConnection[channels.length] : null;
        for (int i = 0; stream && i < channels.length; i++)
        {
            streams[i] = new StreamConnection(this, sut, channels[i], outputName);
        }
    }

    /**
     * @return {@code host:port}.
     */
    String endpoint()
    {
        return endpoint;
    }

    /**
     * @return a channel for control calls (health, metadata).
     */
    ManagedChannel controlChannel()
    {
        return channels[0];
    }

    @Override
    public String describe()
    {
        return "node '" + name + "' (" + endpoint + ")";
    }

    @Override
    public SlotPool<InferCall> pool()
    {
        return pool;
    }

    /**
     * @return a new call on the next channel. Issuing thread.
     */
    ClientCall<InferCall, InputStream> newCall()
    {
        final int c = nextChannel;
        nextChannel = c + 1 == channels.length ? 0 : c + 1;
        return channels[c].newCall(ModelInferMethod.METHOD, CallOptions.DEFAULT);
    }

    /**
     * @return the stream for the next request, or {@code null} when requests are calls of their own. Issuing thread.
     */
    StreamConnection nextStream()
    {
        if (streams == null)
        {
            return null;
        }
        final int c = nextChannel;
        nextChannel = c + 1 == streams.length ? 0 : c + 1;
        return streams[c];
    }

    /**
     * Ends the streams, shuts the channels down, cancelling what is in flight, and waits briefly for them.
     */
    void shutdown()
    {
        for (int i = 0; streams != null && i < streams.length; i++)
        {
            streams[i].close();
        }
        for (final ManagedChannel channel : channels)
        {
            channel.shutdownNow();
        }
        for (final ManagedChannel channel : channels)
        {
            try
            {
                channel.awaitTermination(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
