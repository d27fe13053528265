package org.jloadgen.record;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;

/**
 * Where the engine's response sink hands completions: the running series' {@link SeriesRecorder}, or between series
 * and after a series the engine stopped waiting for, a {@link RetiredTarget} that owns no slots and only counts what
 * arrives. Called on completing threads, with the timestamp the sink took; no implementation allocates.
 */
public interface CompletionTarget
{
    /**
     * Completes one sample.
     *
     * @param responseId  the id.
     * @param nowNs       the call's timestamp.
     * @param dataAddress payload address.
     * @param dataBytes   payload size.
     * @param tokenCount  token count.
     */
    void completeOne(long responseId, long nowNs, long dataAddress, long dataBytes, long tokenCount);

    /**
     * Completes one sample with a heap payload.
     *
     * @param responseId the id.
     * @param nowNs      the call's timestamp.
     * @param data       payload.
     * @param offset     first byte.
     * @param length     number of bytes.
     * @param tokenCount token count.
     */
    void completeOne(long responseId, long nowNs, byte[] data, int offset, int length, long tokenCount);

    /**
     * Completes a batch at one timestamp.
     *
     * @param responses the batch.
     * @param count     entries to complete.
     * @param nowNs     the call's timestamp.
     * @param callback  called before a logged payload is copied, or {@code null}.
     */
    void completeBatch(QuerySampleResponses responses, int count, long nowNs, ResponseCallback callback);

    /**
     * Records a first token.
     *
     * @param responseId  the id.
     * @param nowNs       the call's timestamp.
     * @param dataAddress first-token payload address.
     * @param dataBytes   first-token payload size.
     */
    void firstToken(long responseId, long nowNs, long dataAddress, long dataBytes);

    /**
     * Records a sample that failed ({@link org.jloadgen.api.ResponseSink#failSample}): it is done, but never
     * completed.
     *
     * @param responseId the id.
     * @param nowNs      the call's timestamp.
     */
    void failSample(long responseId, long nowNs);
}
