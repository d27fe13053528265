package org.jloadgen.sut.network.serve;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.spi.SutInstance;

/**
 * How a received tensor reaches a SUT whose API takes sample indices: through <b>receive slots</b>.
 * <p>
 * At start the bridge loads a set of {@code slots} samples into the SUT's own sample library, once, as an engine
 * would before a series; each loaded position is one receive slot. A request takes a free slot per batch entry,
 * its tensor bytes are written into the slot's place in the SUT's sample slab (overwriting the dataset sample
 * loaded there), and the entries are issued to the SUT as one query whose samples are those positions. The SUT
 * reads the sample memory as it always does, so any SUT on a {@link SampleStoreLibrary} serves the tensors it is
 * sent, the model's real answer goes back, and nothing of the dataset is used but its size and type. A SUT that
 * reads no data (null, synthetic) gets the positions only. The data always crosses the network: the Network
 * division forbids sending indices into a dataset both sides hold.
 * <p>
 * The SUT contract has one issuing thread, so issue calls are serialized by a lock (gRPC runs handlers on several
 * transport threads). The bridge is the SUT's {@link ResponseSink}: a completion copies the answer into the
 * request's response and frees the slot; when a request's last sample completes, it is answered. First tokens
 * are ignored (the interface's default): ModelInfer is unary, so the whole answer goes back at completion.
 */
final class SutBridge implements ResponseSink, AutoCloseable
{
    private final SystemUnderTest sut;
    private final QuerySampleLibrary qsl;
    private final SampleStore store;
    private final ServedModel model;
    private final long[] loaded;
    private final Slot[] slots;
    private final ManyToManyConcurrentArrayQueue<Slot> free;
    private final ReentrantLock issueLock = new ReentrantLock();
    private final SlotQuery query;
    private final AtomicLong strayCompletions = new AtomicLong();
    private volatile Throwable failure;

    /**
     * One receive slot: a position of the loaded set, and the request that holds it.
     */
    static final class Slot
    {
        final int position;
        final long responseId;
        volatile PendingInfer owner;
        int entry;

        Slot(final int position)
        {
            this.position = position;
            this.responseId = position + 1L;
        }
    }

    /**
     * @param instance the SUT; its QSL gets the receive set loaded.
     * @param model    what is served.
     * @param slotCount receive slots (samples in flight at most).
     */
    SutBridge(final SutInstance instance, final ServedModel model, final int slotCount)
    {
        this.sut = instance.sut();
        this.qsl = instance.qsl();
        this.store = qsl instanceof final SampleStoreLibrary library ? library.store() : null;
        this.model = model;
        final long total = qsl.totalSampleCount();
        this.loaded = new long[slotCount];
        for (int i = 0; i < slotCount; i++)
        {
            loaded[i] = i % total;
        }
        qsl.loadSamplesToRam(loaded);
        this.slots = new Slot[slotCount];
        // Agrona queues hold at least two entries; the slots, not the queue, bound what is in flight.
        this.free = new ManyToManyConcurrentArrayQueue<>(Math.max(2, slotCount));
        for (int i = 0; i < slotCount; i++)
        {
            slots[i] = new Slot(i);
            free.offer(slots[i]);
        }
        this.query = new SlotQuery(slotCount);
    }

    /**
     * @return the SUT's failure, or {@code null} while it is healthy.
     */
    Throwable failure()
    {
        return failure;
    }

    /**
     * @return what the SUT's failure says, for a client: its root cause's message, without class names (the
     *         server's log has the whole chain); {@code null} while the SUT is healthy.
     */
    String failureMessage()
    {
        Throwable root = failure;
        if (root == null)
        {
            return null;
        }
        while (root.getCause() != null && root.getCause() != root)
        {
            root = root.getCause();
        }
        return root.getMessage() != null && !root.getMessage().isBlank() ? root.getMessage().strip()
            : root.getClass().getSimpleName().replaceAll("(Exception|Error)$", "")
                .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Writes the request's samples into free slots and issues them to the SUT as one query.
     *
     * @param pending the request.
     * @param raw     its input tensor: {@code pending.entries()} samples back to back.
     * @throws io.grpc.StatusRuntimeException when there are not enough free slots or the SUT failed.
     */
    void submit(final PendingInfer pending, final ByteString raw)
    {
        final Throwable failed = failure;
        if (failed != null)
        {
            throw Status.UNAVAILABLE.withDescription("the SUT failed: " + failureMessage()).asRuntimeException();
        }
        final int entries = pending.entries();
        final Slot[] taken = new Slot[entries];
        for (int j = 0; j < entries; j++)
        {
            taken[j] = free.poll();
            if (taken[j] == null)
            {
                for (int back = 0; back < j; back++)
                {
                    free.offer(taken[back]);
                }
                throw Status.RESOURCE_EXHAUSTED.withDescription("all " + slots.length + " receive slots are in use; "
                    + "start jloadgen serve with more --slots, or send fewer requests at once").asRuntimeException();
            }
            taken[j].owner = pending;
            taken[j].entry = j;
        }
        if (store != null)
        {
            final MemorySegment slab = store.slab();
            final long bytes = model.sampleBytes();
            for (int j = 0; j < entries; j++)
            {
                final MemorySegment slot = slab.asSlice(store.offset(taken[j].position), bytes);
                raw.substring((int)(j * bytes), (int)((j + 1) * bytes)).copyTo(slot.asByteBuffer());
            }
        }
        issueLock.lock();
        try
        {
            query.set(taken, entries);
            sut.issueQuery(query, this);
        }
        catch (final RuntimeException ex)
        {
            fail(new IllegalStateException("the SUT threw from issueQuery: " + ex, ex));
        }
        finally
        {
            issueLock.unlock();
        }
    }

    private void completeOne(final long responseId, final MemorySegment data, final byte[] heap, final int offset,
        final int length)
    {
        final int index = (int)(responseId - 1);
        if (index < 0 || index >= slots.length)
        {
            strayCompletions.incrementAndGet();
            return;
        }
        final Slot slot = slots[index];
        final PendingInfer owner = slot.owner;
        if (owner == null)
        {
            strayCompletions.incrementAndGet();
            return;
        }
        final byte[] answer = new byte[length];
        if (heap != null)
        {
            System.arraycopy(heap, offset, answer, 0, length);
        }
        else if (length > 0)
        {
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, 0, answer, 0, length);
        }
        final int entry = slot.entry;
        slot.owner = null;
        free.offer(slot);
        owner.answer(entry, answer);
    }

    @Override
    public void complete(final long responseId)
    {
        completeOne(responseId, null, null, 0, 0);
    }

    @Override
    public void complete(final long responseId, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        completeOne(responseId, dataBytes == 0 ? null : MemorySegment.ofAddress(dataAddress).reinterpret(dataBytes),
            null, 0, (int)dataBytes);
    }

    @Override
    public void complete(final long responseId, final byte[] data, final int offset, final int length,
        final long tokenCount)
    {
        completeOne(responseId, null, data, offset, length);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count)
    {
        complete(responses, count, null);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
    {
        for (int i = 0; i < count; i++)
        {
            if (callback != null)
            {
                // Every answer is copied, so every payload must be readable first.
                callback.beforeCopy(responses, i);
            }
            complete(responses.responseId(i), responses.dataAddress(i), responses.dataBytes(i),
                responses.tokenCount(i));
        }
    }

    @Override
    public void fail(final Throwable cause)
    {
        if (failure != null)
        {
            return;
        }
        failure = cause == null ? new IllegalStateException("the SUT reported a failure without a cause") : cause;
        final String message = failureMessage();
        System.err.println("jloadgen serve: the SUT failed; requests now get UNAVAILABLE: " + message);
        for (final Slot slot : slots)
        {
            final PendingInfer owner = slot.owner;
            if (owner != null)
            {
                owner.fail(Status.INTERNAL.withDescription("the SUT failed: " + message));
            }
        }
    }

    /**
     * @return completions the SUT made for ids it was not given, or twice.
     */
    long strayCompletions()
    {
        return strayCompletions.get();
    }

    /**
     * @return receive slots free now.
     */
    int freeSlots()
    {
        return free.size();
    }

    /**
     * @return receive slots.
     */
    int slotCount()
    {
        return slots.length;
    }

    /**
     * Unloads the receive set from the SUT's library.
     */
    @Override
    public void close()
    {
        qsl.unloadSamplesFromRam(loaded);
    }

    /**
     * The query handed to the SUT: a flyweight over the slots of one request, reused under the issue lock.
     */
    private final class SlotQuery implements QuerySamples
    {
        private final Slot[] current;
        private int size;

        SlotQuery(final int capacity)
        {
            this.current = new Slot[capacity];
        }

        void set(final Slot[] taken, final int count)
        {
            System.arraycopy(taken, 0, current, 0, count);
            size = count;
        }

        @Override
        public int size()
        {
            return size;
        }

        @Override
        public long responseId(final int i)
        {
            return current[i].responseId;
        }

        @Override
        public long sampleIndex(final int i)
        {
            return loaded[current[i].position];
        }

        @Override
        public int loadedPosition(final int i)
        {
            return current[i].position;
        }
    }
}
