package org.jloadgen.record;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;

/**
 * The {@link ResponseSink} the engine hands every SUT: takes one clock reading per call and
 * forwards to the current series' {@link SeriesRecorder}. One instance per test; the current series is
 * published (release) before its first query is issued, so any id a SUT can hold belongs to a series the sink
 * already sees or to an earlier one.
 */
public final class EngineResponseSink implements ResponseSink
{
    private final CompletionTarget idle;
    private final NanoClock clock;
    private volatile CompletionTarget current;
    /** The series published last (issue thread only), for {@link #endSeries}. */
    private SeriesRecorder published;
    private volatile Throwable failure;
    private volatile java.util.function.Consumer<Throwable> failureListener = t -> { };

    /**
     * @param idle the recorder in place outside series: it owns no slots, so a completion that arrives after
     *             a series ended is counted as a mistake instead of touching freed memory.
     */
    public EngineResponseSink(final CompletionTarget idle)
    {
        this(idle, SystemNanoClock.INSTANCE);
    }

    /**
     * @param idle  the recorder in place outside series.
     * @param clock the run's clock; the same one the issue loop reads.
     */
    public EngineResponseSink(final CompletionTarget idle, final NanoClock clock)
    {
        this.idle = idle;
        this.current = idle;
        this.clock = clock;
    }

    /**
     * Publishes the recorder of the series about to be issued. Issue thread, before the first query.
     *
     * @param recorder the series' recorder.
     */
    public void series(final SeriesRecorder recorder)
    {
        published = recorder;
        current = recorder;
    }

    /**
     * @param listener called once, on the failing SUT's thread, when the SUT reports a failure.
     */
    public void onFailure(final java.util.function.Consumer<Throwable> listener)
    {
        failureListener = listener;
    }

    /**
     * @return the first failure the SUT reported, or {@code null}.
     */
    public Throwable failure()
    {
        return failure;
    }

    @Override
    public void fail(final Throwable cause)
    {
        if (failure == null)
        {
            failure = cause == null ? new IllegalStateException("SUT reported a failure without a cause") : cause;
            failureListener.accept(failure);
        }
    }

    /**
     * Retires the current series. Issue thread, after the series.
     *
     * @param allCompleted whether every issued sample completed; if not (the series was cut short), a later
     *                     completion of one of its samples is counted as late instead of as a mistake.
     */
    public void endSeries(final boolean allCompleted)
    {
        final SeriesRecorder ended = published;
        published = null;
        current = allCompleted || ended == null ? idle : ended.retiredAfterCutShort();
    }

    @Override
    public void complete(final long responseId)
    {
        final long nowNs = clock.nanoTime();
        current.completeOne(responseId, nowNs, 0L, 0L, 0L);
    }

    @Override
    public void complete(final long responseId, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        final long nowNs = clock.nanoTime();
        current.completeOne(responseId, nowNs, dataAddress, dataBytes, tokenCount);
    }

    @Override
    public void complete(final long responseId, final byte[] data, final int offset, final int length,
        final long tokenCount)
    {
        final long nowNs = clock.nanoTime();
        current.completeOne(responseId, nowNs, data, offset, length, tokenCount);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count)
    {
        final long nowNs = clock.nanoTime();
        current.completeBatch(responses, count, nowNs, null);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
    {
        final long nowNs = clock.nanoTime();
        current.completeBatch(responses, count, nowNs, callback);
    }

    @Override
    public void failSample(final long responseId)
    {
        final long nowNs = clock.nanoTime();
        current.failSample(responseId, nowNs);
    }

    @Override
    public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
    {
        final long nowNs = clock.nanoTime();
        current.firstToken(responseId, nowNs, dataAddress, dataBytes);
    }

    @Override
    public void firstToken(final QuerySampleResponses responses, final int count)
    {
        final long nowNs = clock.nanoTime();
        final CompletionTarget target = current;
        for (int i = 0; i < count; i++)
        {
            target.firstToken(responses.responseId(i), nowNs, responses.dataAddress(i), responses.dataBytes(i));
        }
    }
}
