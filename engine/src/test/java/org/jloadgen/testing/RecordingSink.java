package org.jloadgen.testing;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseSink;

/**
 * A {@link ResponseSink} for SUT tests: records every completed id in completion order, the size of each batch
 * completion, the number of single completions, the completing threads and whether any response carried data.
 * Thread-safe; a {@code fail} call is turned into an {@link AssertionError}.
 */
public final class RecordingSink implements ResponseSink
{
    private final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Integer> batchSizes = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> threads = new ConcurrentLinkedQueue<>();
    private final AtomicInteger singles = new AtomicInteger();
    private volatile boolean sawData;

    /**
     * @return completed ids, in completion order.
     */
    public List<Long> ids()
    {
        return List.copyOf(ids);
    }

    /**
     * @return sizes of the batch completions, in order.
     */
    public List<Integer> batchSizes()
    {
        return List.copyOf(batchSizes);
    }

    /**
     * @return names of the completing threads, one per completed id.
     */
    public List<String> threads()
    {
        return List.copyOf(threads);
    }

    /**
     * @return completions of one id through {@link #complete(long)}.
     */
    public int singles()
    {
        return singles.get();
    }

    /**
     * @return whether any completion carried response data.
     */
    public boolean sawData()
    {
        return sawData;
    }

    private void record(final long responseId)
    {
        ids.add(responseId);
        threads.add(Thread.currentThread().getName());
    }

    @Override
    public void complete(final long responseId)
    {
        singles.incrementAndGet();
        record(responseId);
    }

    @Override
    public void complete(final long responseId, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        sawData |= dataBytes != 0;
        record(responseId);
    }

    @Override
    public void complete(final long responseId, final byte[] data, final int offset, final int length,
        final long tokenCount)
    {
        sawData |= length != 0;
        record(responseId);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            sawData |= responses.dataBytes(i) != 0;
            record(responses.responseId(i));
        }
        batchSizes.add(count);
    }

    @Override
    public void fail(final Throwable cause)
    {
        throw new AssertionError("the SUT reported a failure", cause);
    }
}
