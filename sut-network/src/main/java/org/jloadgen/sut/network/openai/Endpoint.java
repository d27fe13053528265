package org.jloadgen.sut.network.openai;

import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * One OpenAI-compatible server: its stream slots, their free list and its counters. The issuing thread takes free
 * slots; the HTTP client's threads give them back.
 */
final class Endpoint
{
    private final int number;
    private final URI url;
    private final StreamCall[] calls;
    private final ManyToOneConcurrentArrayQueue<StreamCall> free;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile long sent;

    /**
     * @param number   the server's position in {@code url=}.
     * @param url      its base URL.
     * @param inFlight streams open at once at most.
     * @param sut      the SUT the streams report to.
     */
    Endpoint(final int number, final URI url, final int inFlight, final OpenAiSut sut)
    {
        this.number = number;
        this.url = url;
        this.calls = new StreamCall[inFlight];
        // Agrona queues hold at least two entries; the slots, not the queue, bound what is in flight.
        this.free = new ManyToOneConcurrentArrayQueue<>(Math.max(2, inFlight));
        for (int i = 0; i < inFlight; i++)
        {
            calls[i] = new StreamCall(this, sut);
            free.offer(calls[i]);
        }
    }

    int number()
    {
        return number;
    }

    URI url()
    {
        return url;
    }

    /**
     * @return a free slot, or {@code null}. Issuing thread.
     */
    StreamCall take()
    {
        final StreamCall call = free.poll();
        if (call != null)
        {
            sent++;
        }
        return call;
    }

    int freeSlots()
    {
        return free.size();
    }

    void release(final StreamCall call)
    {
        free.offer(call);
    }

    void answered()
    {
        answered.incrementAndGet();
    }

    void failed()
    {
        failed.incrementAndGet();
    }

    long sent()
    {
        return sent;
    }

    long answeredCount()
    {
        return answered.get();
    }

    long failedCount()
    {
        return failed.get();
    }

    long inFlight()
    {
        return sent - answered.get() - failed.get();
    }

    StreamCall[] calls()
    {
        return calls;
    }
}
