package org.jloadgen.sut.network;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * The in-flight slots of one server of a fleet: a fixed set of reusable request slots, their free list and the
 * server's counters. The issuing thread takes free slots ({@link #take}); the transport's threads give them back
 * ({@link #release}) and count the outcome. No allocation after construction.
 *
 * @param <S> the slot type.
 */
public final class SlotPool<S extends SlotPool.Slot>
{
    /**
     * A reusable request slot.
     */
    public interface Slot
    {
        /**
         * @return when its current request started ({@code System.nanoTime()}), or 0 while it is free.
         */
        long startNs();

        /**
         * Fails the request that started at {@code seenStartNs}, if it is still the slot's and unsettled, because
         * it went unanswered too long (the counting policy's watchdog): it is counted as failed, the engine hears of
         * it, and the exchange is cancelled so the slot comes free. Watchdog thread.
         *
         * @param seenStartNs the request's {@link #startNs()} as the watchdog read it.
         * @param reason      what to count, e.g. {@code no answer within 30000 ms (timeout-ms)}.
         * @return {@code false} when this kind of slot cannot fail one request alone (a request on a shared stream):
         *         the run must fail instead.
         */
        default boolean timeOut(final long seenStartNs, final String reason)
        {
            return false;
        }
    }

    private final List<S> slots;
    private final ManyToOneConcurrentArrayQueue<S> free;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile long sent;

    /**
     * @param count   slots, the most requests in flight at once.
     * @param factory makes slot {@code i}.
     */
    public SlotPool(final int count, final IntFunction<S> factory)
    {
        this.slots = new ArrayList<>(count);
        // Agrona queues hold at least two entries; the slots, not the queue, bound what is in flight.
        this.free = new ManyToOneConcurrentArrayQueue<>(Math.max(2, count));
        for (int i = 0; i < count; i++)
        {
            final S slot = factory.apply(i);
            slots.add(slot);
            free.offer(slot);
        }
    }

    /**
     * @param index a slot's number, as its factory got it.
     * @return the slot, or {@code null} when there is no such slot.
     */
    public S slot(final long index)
    {
        return index >= 0 && index < slots.size() ? slots.get((int)index) : null;
    }

    /**
     * @return a free slot, counted as sent, or {@code null} when all are in flight. Issuing thread only.
     */
    public S take()
    {
        final S slot = free.poll();
        if (slot != null)
        {
            sent++;
        }
        return slot;
    }

    /**
     * @param slot a slot whose request is over. Any thread.
     */
    public void release(final S slot)
    {
        free.offer(slot);
    }

    /**
     * Sets the counters to zero, after a warm-up whose requests are all answered. Issuing thread, nothing in flight.
     */
    public void resetCounts()
    {
        answered.set(0);
        failed.set(0);
        sent = 0;
    }

    /**
     * @return slots free now (approximate while requests complete).
     */
    public int freeSlots()
    {
        return free.size();
    }

    /**
     * Counts an answered request.
     */
    public void answered()
    {
        answered.incrementAndGet();
    }

    /**
     * Counts a failed request.
     */
    public void failed()
    {
        failed.incrementAndGet();
    }

    /**
     * @return requests sent.
     */
    public long sent()
    {
        return sent;
    }

    /**
     * @return requests answered.
     */
    public long answeredCount()
    {
        return answered.get();
    }

    /**
     * @return requests failed.
     */
    public long failedCount()
    {
        return failed.get();
    }

    /**
     * @return requests sent and neither answered nor failed yet.
     */
    public long inFlight()
    {
        return sent - answered.get() - failed.get();
    }

    /**
     * @return e.g. {@code 1200 sent, 1180 answered, 0 failed}.
     */
    public String describeCounts()
    {
        return sent() + " sent, " + answeredCount() + " answered, " + failedCount() + " failed";
    }

    /**
     * Fails, one by one, the requests in flight longer than {@code timeoutNs} ({@link Slot#timeOut}).
     *
     * @param nowNs     {@code System.nanoTime()}.
     * @param timeoutNs how long a request may take.
     * @param reason    what to count.
     * @return {@code false} when a slot could not fail its request alone.
     */
    public boolean timeOutOlderThan(final long nowNs, final long timeoutNs, final String reason)
    {
        for (int i = 0; i < slots.size(); i++)
        {
            final long startNs = slots.get(i).startNs();
            if (startNs != 0 && nowNs - startNs > timeoutNs && !slots.get(i).timeOut(startNs, reason))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param nowNs     {@code System.nanoTime()}.
     * @param timeoutNs how long a request may take.
     * @return whether a request has been in flight longer than that.
     */
    public boolean anyOlderThan(final long nowNs, final long timeoutNs)
    {
        for (int i = 0; i < slots.size(); i++)
        {
            final long startNs = slots.get(i).startNs();
            if (startNs != 0 && nowNs - startNs > timeoutNs)
            {
                return true;
            }
        }
        return false;
    }
}
