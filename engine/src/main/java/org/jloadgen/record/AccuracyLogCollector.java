package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jloadgen.bindings.ThreadScheduling;

/**
 * Carries accuracy-log payloads from completing threads to a writer thread. Completing threads copy the
 * payload into an Agrona {@link ManyToOneRingBuffer} (lock-free, no allocation) before
 * {@code complete(...)} returns, as LoadGen copies it before returning; the collector thread hands them to an
 * {@link AccuracyLogConsumer} that formats and writes the file. A payload too large for the ring takes a slow
 * path that allocates a copy: rare, and only for samples selected for the log.
 * <p>
 * The collector thread runs with the {@code SCHED_IDLE} policy where the kernel allows it: it wakes up to 125 times a
 * second while the clock runs, and must never take a CPU from the issue thread or a SUT thread; it gets the CPU time
 * they leave. A completing thread that finds the ring full spins briefly, then parks in short steps, so that the
 * collector gets a CPU even when every other one is busy.
 */
public final class AccuracyLogCollector implements AutoCloseable
{
    /** Default ring capacity: 16 MiB of payload in flight. */
    public static final int DEFAULT_CAPACITY_BYTES = 16 * 1024 * 1024;
    /** The ring of a test that logs a sample only by the rarest chance (one draw exactly 0): 64 KiB. */
    public static final int SMALL_CAPACITY_BYTES = 64 * 1024;

    private static final int RESPONSE = 1;
    private static final int FIRST_TOKEN = 2;
    private static final int HEADER_BYTES = 24;
    /** Longest sleep of the drain thread while nothing arrives. */
    private static final long IDLE_SLEEP_MAX_MS = 8;
    /** Spins of a completing thread that finds the ring full before it parks. */
    private static final int FULL_RING_SPINS = 1_000;
    /** Park of a completing thread between claims once the spins are spent. */
    private static final long FULL_RING_PARK_NS = 20_000;

    private final ManyToOneRingBuffer ring;
    private final MemorySegment ringMemory;
    private final ConcurrentLinkedQueue<Oversized> oversized = new ConcurrentLinkedQueue<>();
    private final AccuracyLogConsumer consumer;
    private final Thread thread;
    private final UnsafeBuffer oversizedView = new UnsafeBuffer(0, 0);
    private volatile boolean running = true;
    private volatile Throwable failure;

    private record Oversized(int type, long sampleSequenceId, long qslIndex, long tokenCount, byte[] data)
    {
    }

    /**
     * @param consumer      receives the payloads on the collector thread.
     * @param capacityBytes ring capacity, a power of two.
     */
    public AccuracyLogCollector(final AccuracyLogConsumer consumer, final int capacityBytes)
    {
        this.consumer = consumer;
        final ByteBuffer memory = BufferUtil.allocateDirectAligned(
            capacityBytes + RingBufferDescriptor.TRAILER_LENGTH, 64);
        this.ring = new ManyToOneRingBuffer(new UnsafeBuffer(memory));
        this.ringMemory = MemorySegment.ofBuffer(memory);
        this.thread = new Thread(this::run, "jloadgen-accuracy-log");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Copies a completed response. Called on a completing thread; does not allocate unless the payload is
     * larger than the ring's maximum message.
     *
     * @param sampleSequenceId global sample sequence id.
     * @param qslIndex         QSL index.
     * @param dataAddress      payload address (0 with size 0 for none).
     * @param dataBytes        payload size.
     * @param tokenCount       token count.
     */
    public void response(final long sampleSequenceId, final long qslIndex, final long dataAddress,
        final long dataBytes, final long tokenCount)
    {
        putNative(RESPONSE, sampleSequenceId, qslIndex, tokenCount, dataAddress, checkedLength(dataBytes));
    }

    /**
     * Copies a completed response held on the heap.
     *
     * @param sampleSequenceId global sample sequence id.
     * @param qslIndex         QSL index.
     * @param data             payload.
     * @param offset           first byte.
     * @param length           number of bytes.
     * @param tokenCount       token count.
     */
    public void response(final long sampleSequenceId, final long qslIndex, final byte[] data, final int offset,
        final int length, final long tokenCount)
    {
        final int index = claim(RESPONSE, HEADER_BYTES + length);
        if (index < 0)
        {
            final byte[] copy = java.util.Arrays.copyOfRange(data, offset, offset + length);
            oversized.add(new Oversized(RESPONSE, sampleSequenceId, qslIndex, tokenCount, copy));
            return;
        }
        header(index, sampleSequenceId, qslIndex, tokenCount);
        ring.buffer().putBytes(index + HEADER_BYTES, data, offset, length);
        ring.commit(index);
    }

    /**
     * Copies a first-token payload.
     *
     * @param sampleSequenceId global sample sequence id.
     * @param dataAddress      payload address.
     * @param dataBytes        payload size.
     */
    public void firstToken(final long sampleSequenceId, final long dataAddress, final long dataBytes)
    {
        putNative(FIRST_TOKEN, sampleSequenceId, 0, 0, dataAddress, checkedLength(dataBytes));
    }

    private void putNative(final int type, final long sampleSequenceId, final long qslIndex, final long tokenCount,
        final long dataAddress, final int length)
    {
        final int index = claim(type, HEADER_BYTES + length);
        if (index < 0)
        {
            final byte[] copy = new byte[length];
            MemorySegment.copy(NativeMemoryView.ALL, ValueLayout.JAVA_BYTE, dataAddress, copy, 0, length);
            oversized.add(new Oversized(type, sampleSequenceId, qslIndex, tokenCount, copy));
            return;
        }
        header(index, sampleSequenceId, qslIndex, tokenCount);
        if (length > 0)
        {
            MemorySegment.copy(NativeMemoryView.ALL, dataAddress, ringMemory, index + HEADER_BYTES, length);
        }
        ring.commit(index);
    }

    private void header(final int index, final long sampleSequenceId, final long qslIndex, final long tokenCount)
    {
        final MutableDirectBuffer buffer = ring.buffer();
        buffer.putLong(index, sampleSequenceId);
        buffer.putLong(index + 8, qslIndex);
        buffer.putLong(index + 16, tokenCount);
    }

    private static int checkedLength(final long dataBytes)
    {
        if (dataBytes < 0 || dataBytes > Integer.MAX_VALUE - HEADER_BYTES)
        {
            throw new IllegalArgumentException("response size out of range: " + dataBytes);
        }
        return (int)dataBytes;
    }

    /**
     * @return the ring index to write at, or -1 if the message must take the oversized path.
     */
    private int claim(final int type, final int length)
    {
        if (length > ring.maxMsgLength())
        {
            return -1;
        }
        int index;
        for (int spins = 0; (index = ring.tryClaim(type, length)) < 0; spins++)
        {
            // The writer is behind: wait for it rather than drop a logged response, and leave it a CPU.
            if (spins < FULL_RING_SPINS)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(FULL_RING_PARK_NS);
            }
        }
        return index;
    }

    private void run()
    {
        // While nothing is logged (every performance run without sampling) the drain sleeps up to 8 ms, LoadGen's
        // IO-thread rhythm is 10 ms: a 1 ms poll woke this thread 1000 times a second, and on two cores each
        // wake-up takes a core from the issue thread or a SUT worker. 8 ms of the ring's 16 MiB is 2 GB/s.
        long sleepMs = 1;
        ThreadScheduling.tryRunOnlyWhenIdle();
        try
        {
            while (running)
            {
                if (drain() > 0)
                {
                    sleepMs = 1;
                }
                else
                {
                    idle(sleepMs);
                    sleepMs = Math.min(IDLE_SLEEP_MAX_MS, sleepMs * 2);
                }
            }
            while (drain() > 0)
            {
                // Drain what completions left before close.
            }
        }
        catch (final Throwable t)
        {
            failure = t;
        }
    }

    private static void idle(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            // Only close() stops the drain (through running), after everything written is drained.
        }
    }

    private int drain()
    {
        int work = ring.read(this::onMessage, Integer.MAX_VALUE);
        Oversized o;
        while ((o = oversized.poll()) != null)
        {
            oversizedView.wrap(o.data());
            if (o.type() == RESPONSE)
            {
                consumer.onResponse(o.sampleSequenceId(), o.qslIndex(), oversizedView, 0, o.data().length,
                    o.tokenCount());
            }
            else
            {
                consumer.onFirstToken(o.sampleSequenceId(), oversizedView, 0, o.data().length);
            }
            work++;
        }
        return work;
    }

    private void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long seq = buffer.getLong(index);
        if (type == RESPONSE)
        {
            consumer.onResponse(seq, buffer.getLong(index + 8), buffer, index + HEADER_BYTES,
                length - HEADER_BYTES, buffer.getLong(index + 16));
        }
        else
        {
            consumer.onFirstToken(seq, buffer, index + HEADER_BYTES, length - HEADER_BYTES);
        }
    }

    /**
     * Stops the collector after everything written so far has been handed to the consumer.
     *
     * @throws IllegalStateException if the consumer failed.
     */
    @Override
    public void close()
    {
        running = false;
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        if (failure != null)
        {
            throw new IllegalStateException("accuracy log writer failed: " + failure, failure);
        }
    }
}
