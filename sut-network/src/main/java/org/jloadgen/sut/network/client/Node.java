package org.jloadgen.sut.network.client;

import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * One inference server of the cluster: its channels (one TCP connection each), its in-flight slots and their
 * free list, and its counters. The issuing thread takes free slots; gRPC's transport threads give them back.
 */
final class Node
{
    private static final VarHandle ANSWERED;
    private static final VarHandle FAILED;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            ANSWERED = lookup.findVarHandle(Node.class, "answered", long.class);
            FAILED = lookup.findVarHandle(Node.class, "failed", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final String endpoint;
    private final ManagedChannel[] channels;
    private final InferCall[] calls;
    private final ManyToOneConcurrentArrayQueue<InferCall> free;
    private String name;
    /** Issuing thread only. */
    private int nextChannel;
    /** Issuing thread only; read by others after the fact. */
    private volatile long sent;
    @SuppressWarnings("unused") // through ANSWERED
    private volatile long answered;
    @SuppressWarnings("unused") // through FAILED
    private volatile long failed;

    /**
     * @param endpoint   {@code host:port} as given.
     * @param channels   its channels.
     * @param inFlight   calls in flight at most.
     * @param sut        the SUT the calls report to.
     * @param outputName the output to read, or {@code null} for the first.
     */
    Node(final String endpoint, final ManagedChannel[] channels, final int inFlight, final NetworkSut sut,
        final String outputName)
    {
        this.endpoint = endpoint;
        this.channels = channels.clone();
        this.calls = new InferCall[inFlight];
        // Agrona queues hold at least two entries; the slots, not the queue, bound what is in flight.
        this.free = new ManyToOneConcurrentArrayQueue<>(Math.max(2, inFlight));
        for (int i = 0; i < inFlight; i++)
        {
            calls[i] = new InferCall(this, sut, outputName);
            free.offer(calls[i]);
        }
        this.name = endpoint;
    }

    /**
     * @return {@code host:port}.
     */
    String endpoint()
    {
        return endpoint;
    }

    /**
     * @return the server's name (from ServerMetadata), or the endpoint before it is known.
     */
    String name()
    {
        return name;
    }

    /**
     * @param value the server's name.
     */
    void name(final String value)
    {
        name = value;
    }

    /**
     * @return e.g. {@code 'node-a' (10.0.0.2:8001)}.
     */
    String describe()
    {
        return name.equals(endpoint) ? endpoint : "'" + name + "' (" + endpoint + ")";
    }

    /**
     * @return a channel for control calls (health, metadata).
     */
    ManagedChannel controlChannel()
    {
        return channels[0];
    }

    /**
     * @return a free slot, or {@code null} when all are in flight. Issuing thread.
     */
    InferCall take()
    {
        final InferCall call = free.poll();
        if (call != null)
        {
            sent++;
        }
        return call;
    }

    /**
     * @return slots free now (approximate while calls complete).
     */
    int freeSlots()
    {
        return free.size();
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
     * @param call a slot whose call has closed. Transport threads.
     */
    void release(final InferCall call)
    {
        free.offer(call);
    }

    /**
     * Counts an answered call. Transport threads.
     */
    void answered()
    {
        ANSWERED.getAndAdd(this, 1L);
    }

    /**
     * Counts a failed call. Transport threads.
     */
    void failed()
    {
        FAILED.getAndAdd(this, 1L);
    }

    /**
     * @return requests sent.
     */
    long sent()
    {
        return sent;
    }

    /**
     * @return calls answered.
     */
    long answeredCount()
    {
        return (long)ANSWERED.getVolatile(this);
    }

    /**
     * @return calls failed.
     */
    long failedCount()
    {
        return (long)FAILED.getVolatile(this);
    }

    /**
     * @return calls sent and not yet closed.
     */
    long inFlight()
    {
        return sent() - answeredCount() - failedCount();
    }

    /**
     * @return the slots, for the stall watchdog.
     */
    InferCall[] calls()
    {
        return calls;
    }

    /**
     * Shuts the channels down, cancelling what is in flight, and waits briefly for them.
     */
    void shutdown()
    {
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
