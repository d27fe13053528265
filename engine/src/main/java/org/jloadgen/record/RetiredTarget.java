package org.jloadgen.record;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.record.CompletionErrors.Kind;

/**
 * A completion target that owns no slots: every id it sees is a mistake of the SUT's, counted by kind. A completion
 * of a sample of a series the engine cut short (ids {@code [lateFirstId, lateEndId)}) counts as {@link Kind#LATE},
 * not as a mistake, because that sample is already counted as never completed; an id below the ids handed out so
 * far is an {@link Kind#OLD_SAMPLE}, any other an {@link Kind#UNKNOWN_ID}. Completing threads; no allocation.
 */
public final class RetiredTarget implements CompletionTarget
{
    private final CompletionErrors errors;
    private final long lateFirstId;
    private final long lateEndId;
    /** The first sequence id not handed out yet, below which an id is an old sample's; see {@link #misdirected}. */
    private final long nextFirstId;

    /**
     * A target for between series: nothing arriving here is late.
     *
     * @param errors where to count.
     */
    public RetiredTarget(final CompletionErrors errors)
    {
        this(errors, 0, 0, Long.MAX_VALUE);
    }

    /**
     * @param errors      where to count.
     * @param lateFirstId first sequence id of the series cut short.
     * @param lateEndId   its end (exclusive).
     * @param nextFirstId ids below this one were handed out before (old samples).
     */
    RetiredTarget(final CompletionErrors errors, final long lateFirstId, final long lateEndId, final long nextFirstId)
    {
        this.errors = errors;
        this.lateFirstId = lateFirstId;
        this.lateEndId = lateEndId;
        this.nextFirstId = nextFirstId;
    }

    @Override
    public void completeOne(final long responseId, final long nowNs, final long dataAddress, final long dataBytes,
        final long tokenCount)
    {
        misdirected(responseId);
    }

    @Override
    public void completeOne(final long responseId, final long nowNs, final byte[] data, final int offset,
        final int length, final long tokenCount)
    {
        misdirected(responseId);
    }

    @Override
    public void completeBatch(final QuerySampleResponses responses, final int count, final long nowNs,
        final ResponseCallback callback)
    {
        for (int i = 0; i < count; i++)
        {
            misdirected(responses.responseId(i));
        }
    }

    @Override
    public void firstToken(final long responseId, final long nowNs, final long dataAddress, final long dataBytes)
    {
        misdirected(responseId);
    }

    @Override
    public void failSample(final long responseId, final long nowNs)
    {
        misdirected(responseId);
    }

    /**
     * Counts an id that no live series owns.
     *
     * @param responseId the id.
     */
    void misdirected(final long responseId)
    {
        final long sequenceId = responseId - 1;
        if (sequenceId >= lateFirstId && sequenceId < lateEndId)
        {
            errors.record(Kind.LATE, responseId);
            return;
        }
        errors.record(sequenceId >= 0 && sequenceId < nextFirstId ? Kind.OLD_SAMPLE : Kind.UNKNOWN_ID, responseId);
    }
}
