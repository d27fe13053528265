package org.jloadgen.api;

/**
 * Where a SUT completes samples: LoadGen's {@code QuerySamplesComplete} and {@code FirstTokenComplete}
 * (spec §1.4; loadgen/loadgen.cc, QuerySamplesComplete and FirstTokenComplete), handed to the SUT with every
 * {@link SystemUnderTest#issueQuery} call.
 * <p>
 * Any number of threads may call concurrently. Each call takes <b>one</b> timestamp at entry and completes all
 * its samples at that time. No method allocates, locks or logs; a payload is copied before the call returns
 * only when the sample is selected for the accuracy log, so the memory must stay valid until then. Mistakes
 * (unknown id, an id completed twice, an id from an earlier series, zero or one token with token latencies)
 * are counted and reported in the logs after the timed part; they make the run invalid, never hang it.
 * <p>
 * The default methods serve a sink that records no token latencies and copies no payloads (a test sink, a
 * unary network front end): they ignore first tokens and the accuracy-log callback. A sink that timestamps must
 * override every method, so that each call takes its one timestamp (the engine's sink and the official LoadGen's
 * bridge do).
 */
public interface ResponseSink
{
    /**
     * Completes one sample with no response data and no token count.
     *
     * @param responseId the id from {@link QuerySamples#responseId(int)}.
     */
    void complete(long responseId);

    /**
     * Completes one sample with a payload in native memory.
     *
     * @param responseId  the id from {@link QuerySamples#responseId(int)}.
     * @param dataAddress address of the response bytes (0 if none).
     * @param dataBytes   number of response bytes.
     * @param tokenCount  number of output tokens (token-latency benchmarks), else 0.
     */
    void complete(long responseId, long dataAddress, long dataBytes, long tokenCount);

    /**
     * Completes one sample with a payload on the heap.
     *
     * @param responseId the id from {@link QuerySamples#responseId(int)}.
     * @param data       response bytes.
     * @param offset     first byte in {@code data}.
     * @param length     number of bytes.
     * @param tokenCount number of output tokens (token-latency benchmarks), else 0.
     */
    void complete(long responseId, byte[] data, int offset, int length, long tokenCount);

    /**
     * Completes {@code count} samples at one timestamp.
     *
     * @param responses the responses, entries {@code [0, count)}.
     * @param count     number of entries to complete.
     */
    void complete(QuerySampleResponses responses, int count);

    /**
     * Completes {@code count} samples at one timestamp; {@code callback} runs (untimed) for each response that is
     * about to be copied into the accuracy log, e.g. to move its data from a device to the host first.
     *
     * @param responses the responses, entries {@code [0, count)}.
     * @param count     number of entries to complete.
     * @param callback  called before a payload is copied.
     * @implSpec The default completes through {@link #complete(QuerySampleResponses, int)} and never calls
     *           {@code callback}: right for a sink that copies no payload.
     */
    default void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
    {
        complete(responses, count);
    }

    /**
     * Records the first token of a sample (TTFT). Must precede the sample's completion except in Offline.
     *
     * @param responseId  the id from {@link QuerySamples#responseId(int)}.
     * @param dataAddress address of the first-token bytes (0 if none).
     * @param dataBytes   number of bytes.
     * @implSpec The default ignores the first token: right for a sink that records no token latencies.
     */
    default void firstToken(final long responseId, final long dataAddress, final long dataBytes)
    {
    }

    /**
     * Records the first tokens of {@code count} samples at one timestamp.
     *
     * @param responses the responses, entries {@code [0, count)}; token counts are ignored.
     * @param count     number of entries.
     * @implSpec The default calls {@link #firstToken(long, long, long)} for each entry, so a sink that overrides
     *           only that one sees every first token; one that timestamps overrides this too, to take one
     *           timestamp for the whole call.
     */
    default void firstToken(final QuerySampleResponses responses, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            firstToken(responses.responseId(i), responses.dataAddress(i), responses.dataBytes(i));
        }
    }

    /**
     * Reports that one sample failed (its request was refused, answered an error or timed out) and that the SUT
     * goes on with the others: a load-testing policy ({@code --sut-opt on-error=count}), not LoadGen's. A failed
     * sample never counts as completed: it is left out of every latency, percentile and rate, counted apart
     * ({@code jloadgen_failed_samples}), and it makes the series INVALID, since LoadGen's results require every
     * issued sample to be answered. The engine stops waiting for it as for a completed one. Not part of LoadGen's
     * API. No allocation, locks or logging.
     *
     * @param responseId the id from {@link QuerySamples#responseId(int)}.
     * @implSpec The default ends the run through {@link #fail} (LoadGen's policy): right for a sink that has no
     *           failed-sample path, such as the bridge to the official LoadGen.
     */
    default void failSample(final long responseId)
    {
        fail(new IllegalStateException("a sample failed (response id " + responseId + ") and this engine ends the "
            + "run at the first failure"));
    }

    /**
     * Reports that the SUT cannot complete its outstanding samples (for example its inference runtime failed).
     * The engine stops issuing, stops waiting for completions, and ends the run INVALID with this error in the
     * logs. Not part of LoadGen's API: there a SUT can only call {@code AbortTest()} or hang.
     *
     * @param cause what went wrong.
     */
    void fail(Throwable cause);
}
