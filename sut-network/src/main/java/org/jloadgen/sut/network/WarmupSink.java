package org.jloadgen.sut.network;

import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;

/**
 * Where a network SUT's warm-up requests complete before the run: it counts them and keeps nothing, so that the
 * engine never sees them.
 */
public final class WarmupSink implements ResponseSink
{
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile Throwable failure;

    /**
     * @return samples completed.
     */
    public long completed()
    {
        return completed.get();
    }

    /**
     * @return samples that failed under a counting failure policy ({@link #failSample}).
     */
    public long failed()
    {
        return failed.get();
    }

    /**
     * @return samples done: completed or failed.
     */
    public long done()
    {
        return completed.get() + failed.get();
    }

    /**
     * @return the failure reported, or {@code null}.
     */
    public Throwable failure()
    {
        return failure;
    }

    @Override
    public void complete(final long responseId)
    {
        completed.incrementAndGet();
    }

    @Override
    public void complete(final long responseId, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        completed.incrementAndGet();
    }

    @Override
    public void complete(final long responseId, final byte[] data, final int offset, final int length,
        final long tokenCount)
    {
        completed.incrementAndGet();
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count)
    {
        completed.addAndGet(count);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
    {
        completed.addAndGet(count);
    }

    @Override
    public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
    {
        // Not counted: only completions are.
    }

    @Override
    public void firstToken(final QuerySampleResponses responses, final int count)
    {
        // Not counted: only completions are.
    }

    @Override
    public void failSample(final long responseId)
    {
        // A counting failure policy: the request is done, and the warm-up goes on.
        failed.incrementAndGet();
    }

    @Override
    public void fail(final Throwable cause)
    {
        failure = cause;
    }
}
