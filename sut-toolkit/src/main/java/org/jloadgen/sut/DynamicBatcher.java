package org.jloadgen.sut;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.concurrent.PaddedCounter;
import org.jloadgen.concurrent.ParkingLot;

/**
 * Cuts the samples a SUT receives into batches, as vendors' harnesses do: up to {@code maxBatchSize} samples,
 * or what has arrived {@code batchTimeoutUs} after a batch's first sample, or everything queued after a flush.
 * <p>
 * The issue thread is the single producer: {@link #offer} copies ids, indices and positions into a ring of
 * primitive arrays and publishes once per query (release); a query of more than {@value #PUBLISH_CHUNK} samples
 * (Offline) is published every {@value #PUBLISH_CHUNK} samples as it is copied, so workers start on its first
 * batches while the rest is still being queued. Workers follow a leader/follower scheme: one worker
 * at a time holds the leader flag, forms a batch from the ring, advances the consumer index (release) and
 * drops the flag before it runs the batch, so batch formation needs no lock and the worker that formed a
 * batch runs it without a hand-off. Nothing here allocates after construction.
 * <p>
 * {@link #dropQueued()} (any thread) discards what is queued when a test is abandoned: the producer stops copying
 * the rest of its query at the next chunk or while it waits for room, and the next leader skips the consumer index
 * past everything published before the drop, so the workers finish their current batch and find nothing more.
 * <p>
 * Waking: idle workers may park in {@link #idleWorkers()}; the producer publishes with a volatile store and then wakes
 * one parked worker, which costs it one memory read while none is parked (see {@link ParkingLot} for why no wake-up is
 * lost). A worker that forms a batch and leaves samples queued wakes the next parked one. A leader waiting for its
 * batch to fill ({@code nextBatch} without a fill strategy) parks until the batch's timeout and asks the producer to
 * wake it only when a publish fills the batch, or on a flush: one wake-up per batch, not per sample.
 */
public final class DynamicBatcher
{
    /** Samples of a large query published at a time (a power of two). */
    public static final int PUBLISH_CHUNK = 1024;
    private static final long NO_FILL_WAITER = Long.MAX_VALUE;

    private final int capacity;
    private final int mask;
    private final int maxBatchSize;
    private final long batchTimeoutNs;
    private final long[] responseIds;
    private final long[] sampleIndices;
    private final int[] positions;
    private final long[] arrivalNs;
    private final PaddedCounter producerIndex = new PaddedCounter();
    private final PaddedCounter consumerIndex = new PaddedCounter();
    private final PaddedCounter flushIndex = new PaddedCounter();
    /** Producer index at which a parked leader's batch is full; {@link #NO_FILL_WAITER} while none waits. */
    private final PaddedCounter fillWakeIndex = new PaddedCounter();
    private final ParkingLot idleWorkers;
    private final ParkingLot fillWaiter = new ParkingLot(1);
    private final AtomicBoolean leader = new AtomicBoolean();
    /** Drops requested so far; the producer compares it with the count at the start of its query. */
    private final AtomicLong dropRequests = new AtomicLong();
    /** Published samples below this index are dropped: the leader skips the consumer index up to it. */
    private final AtomicLong dropThrough = new AtomicLong();
    private final AtomicLong droppedSamples = new AtomicLong();
    private volatile boolean running = true;
    private long consumerCache;

    /**
     * @param settings batch size, timeout and queue capacity.
     */
    public DynamicBatcher(final BatcherSettings settings)
    {
        this.capacity = settings.queueCapacity();
        this.mask = capacity - 1;
        this.maxBatchSize = settings.maxBatchSize();
        this.batchTimeoutNs = settings.batchTimeoutUs() * 1_000L;
        this.responseIds = new long[capacity];
        this.sampleIndices = new long[capacity];
        this.positions = new int[capacity];
        this.arrivalNs = new long[capacity];
        this.idleWorkers = new ParkingLot(settings.workers());
        fillWakeIndex.setRelease(NO_FILL_WAITER);
    }

    /**
     * @return where idle workers park (slot = worker number); the producer wakes one after each publish.
     */
    public ParkingLot idleWorkers()
    {
        return idleWorkers;
    }

    /**
     * @return whether a worker would find work: samples queued and no other worker forming a batch (a leader that
     *         leaves samples queued wakes a parked worker when it is done), or the batcher stopped. Volatile reads: the
     *         re-check of a worker about to park in {@link #idleWorkers()}.
     */
    public boolean workAvailable()
    {
        return queuedVolatile() > 0 && !leader.get() || !running;
    }

    private long queuedVolatile()
    {
        return producerIndex.getVolatile() - consumerIndex.getVolatile();
    }

    /**
     * Queues the samples of one query. Producer (issue) thread only. Waits for room if the queue is full.
     *
     * @param samples the query.
     * @param idle    how to wait for room.
     * @return false if the batcher was stopped while waiting for room, or the rest of the query was dropped
     *         ({@link #dropQueued()}).
     */
    public boolean offer(final QuerySamples samples, final IdleStrategy idle)
    {
        final int n = samples.size();
        final long nowNs = System.nanoTime();
        final long drops = dropRequests.get();
        long producer = producerIndex.getAcquire();
        for (int i = 0; i < n; i++)
        {
            if (producer - consumerCache >= capacity)
            {
                consumerCache = consumerIndex.getAcquire();
                if (producer - consumerCache >= capacity)
                {
                    publish(producer);
                    idle.reset();
                    // Resume only when a quarter of the ring (or the rest of the query) fits: one wake-up per
                    // many batches instead of one per batch, so the waiting issue thread leaves the cores alone.
                    final long room = Math.max(1, Math.min(n - i, capacity >> 2));
                    while (producer - (consumerCache = consumerIndex.getAcquire()) > capacity - room)
                    {
                        if (!running)
                        {
                            return false;
                        }
                        if (dropRequests.get() != drops)
                        {
                            return abandon(producer);
                        }
                        idle.idle();
                    }
                }
            }
            final int slot = (int)producer & mask;
            responseIds[slot] = samples.responseId(i);
            sampleIndices[slot] = samples.sampleIndex(i);
            positions[slot] = samples.loadedPosition(i);
            arrivalNs[slot] = nowNs;
            producer++;
            if (n > PUBLISH_CHUNK && (i & (PUBLISH_CHUNK - 1)) == PUBLISH_CHUNK - 1)
            {
                // Without this, an Offline query's first batch would wait until the whole ring is filled.
                if (dropRequests.get() != drops)
                {
                    return abandon(producer);
                }
                publish(producer);
            }
        }
        publish(producer);
        return true;
    }

    /**
     * Publishes what was copied, drops it with everything before it, and gives up the rest of the query.
     */
    private boolean abandon(final long producer)
    {
        dropThrough.accumulateAndGet(producer, Math::max);
        publish(producer);
        return false;
    }

    /**
     * Drops every sample queued and not yet taken into a batch, and makes an {@link #offer} in progress stop copying
     * its query (at its next chunk of {@value #PUBLISH_CHUNK} samples, or at once if it waits for room). Samples in
     * batches already formed are not affected; samples offered after this returns are served. Any thread; does not
     * allocate.
     */
    public void dropQueued()
    {
        dropRequests.incrementAndGet();
        dropThrough.accumulateAndGet(producerIndex.getAcquire(), Math::max);
    }

    /**
     * @return samples dropped so far by {@link #dropQueued()} (counted as the workers skip them).
     */
    public long droppedSamples()
    {
        return droppedSamples.get();
    }

    /**
     * Makes samples up to {@code producer} visible (volatile store, so the reads after it see a worker that announced
     * itself before it parked), then wakes a parked idle worker, and the leader if this fills its batch.
     */
    private void publish(final long producer)
    {
        producerIndex.setVolatile(producer);
        idleWorkers.wakeOne();
        if (producer - fillWakeIndex.getVolatile() >= 0)
        {
            fillWaiter.wakeOne();
        }
    }

    /**
     * Makes everything queued so far eligible for a batch at once. Producer thread.
     */
    public void flush()
    {
        flushIndex.setVolatile(producerIndex.getAcquire());
        fillWaiter.wakeOne();
    }

    /**
     * Forms the next batch if this worker can become the leader. Worker threads.
     *
     * @param batch    the worker's batch, cleared and filled.
     * @param fillIdle how to wait while the batch fills, or {@code null} to park until the batch is full, flushed or
     *                 timed out (the producer wakes the leader when a publish fills it).
     * @return number of samples in the batch; 0 if another worker leads, nothing arrived, or stopping.
     */
    public int nextBatch(final SampleBatch batch, final IdleStrategy fillIdle)
    {
        batch.clear();
        if (leader.get() || !leader.compareAndSet(false, true))
        {
            return 0;
        }
        try
        {
            final long consumer = skipDropped(consumerIndex.getAcquire());
            long available = producerIndex.getAcquire() - consumer;
            if (available <= 0)
            {
                return 0;
            }
            final long firstArrivalNs = arrivalNs[(int)consumer & mask];
            long nowNs = System.nanoTime();
            batch.taken(nowNs);
            if (fillIdle != null)
            {
                fillIdle.reset();
            }
            while (available < maxBatchSize && batchTimeoutNs > 0 && running)
            {
                if (flushIndex.getAcquire() - consumer > 0)
                {
                    break;
                }
                final long waitedNs = nowNs - firstArrivalNs;
                if (waitedNs >= batchTimeoutNs)
                {
                    break;
                }
                if (fillIdle != null)
                {
                    fillIdle.idle();
                }
                else
                {
                    parkUntilFull(consumer, batchTimeoutNs - waitedNs);
                }
                available = producerIndex.getAcquire() - consumer;
                nowNs = System.nanoTime();
            }
            if (skipDropped(consumer) != consumer)
            {
                // Dropped while the batch was filling.
                return 0;
            }
            final int n = (int)Math.min(available, maxBatchSize);
            for (int i = 0; i < n; i++)
            {
                final int slot = (int)(consumer + i) & mask;
                batch.add(responseIds[slot], sampleIndices[slot], positions[slot], arrivalNs[slot]);
            }
            consumerIndex.setRelease(consumer + n);
            return n;
        }
        finally
        {
            leader.set(false);
            if (batch.size() > 0 && queuedVolatile() > 0)
            {
                // Samples are left for the next batch while this worker runs its own: hand them to a parked peer.
                idleWorkers.wakeOne();
            }
        }
    }

    /**
     * Leader only: moves the consumer index past the samples a drop covers.
     *
     * @param consumer the consumer index.
     * @return the consumer index after the skip.
     */
    private long skipDropped(final long consumer)
    {
        final long through = dropThrough.get();
        if (through - consumer <= 0)
        {
            return consumer;
        }
        droppedSamples.addAndGet(through - consumer);
        consumerIndex.setRelease(through);
        return through;
    }

    /**
     * The leader parks until the producer fills its batch, a flush, the batch timeout or a stop.
     */
    private void parkUntilFull(final long consumer, final long remainingNs)
    {
        fillWakeIndex.setVolatile(consumer + maxBatchSize);
        fillWaiter.announce(0);
        if (producerIndex.getVolatile() - consumer >= maxBatchSize || flushIndex.getVolatile() - consumer > 0
            || !running)
        {
            fillWaiter.withdraw(0);
        }
        else
        {
            fillWaiter.park(0, remainingNs);
        }
        fillWakeIndex.setRelease(NO_FILL_WAITER);
    }

    /**
     * @return samples queued and not yet taken into a batch.
     */
    public long queued()
    {
        return producerIndex.getAcquire() - consumerIndex.getAcquire();
    }

    /**
     * Stops waiting producers and batch formation.
     */
    public void stop()
    {
        running = false;
        idleWorkers.wakeAll();
        fillWaiter.wakeAll();
    }

    /**
     * @return whether {@link #stop()} has not been called.
     */
    public boolean running()
    {
        return running;
    }
}
