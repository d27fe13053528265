package org.jloadgen.record;

import org.agrona.DirectBuffer;

/**
 * Receives accuracy-log payloads on the collector's own thread, in the order they were completed. The
 * buffers are valid only during the call.
 */
public interface AccuracyLogConsumer
{
    /**
     * A completed response selected for the accuracy log.
     *
     * @param sampleSequenceId global sample sequence id ({@code seq_id}).
     * @param qslIndex         the sample's QSL index ({@code qsl_idx}).
     * @param data             the response bytes.
     * @param offset           first byte in {@code data}.
     * @param length           number of bytes.
     * @param tokenCount       {@code n_tokens} as given by the SUT.
     */
    void onResponse(long sampleSequenceId, long qslIndex, DirectBuffer data, int offset, int length, long tokenCount);

    /**
     * A first-token payload selected for the accuracy log (token latencies, non-Offline).
     *
     * @param sampleSequenceId global sample sequence id.
     * @param data             the first-token bytes.
     * @param offset           first byte in {@code data}.
     * @param length           number of bytes.
     */
    void onFirstToken(long sampleSequenceId, DirectBuffer data, int offset, int length);
}
