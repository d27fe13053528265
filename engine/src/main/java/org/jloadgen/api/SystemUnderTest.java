package org.jloadgen.api;

/**
 * The system under test, as LoadGen's {@code mlperf::SystemUnderTest} (spec §1.2; loadgen/system_under_test.h).
 * <p>
 * The engine calls {@link #issueQuery} on its issue thread. The SUT may complete samples inside the call or
 * later from any thread through the {@link ResponseSink} it is given; the sink is the same object for a whole
 * test. The {@link QuerySamples} view is valid only for the duration of the call: copy the ids and indices you
 * need. Implementations must not let exceptions escape {@code issueQuery}: the engine treats a throw as a
 * fatal SUT error, ends the run and says so in the logs.
 */
public interface SystemUnderTest
{
    /**
     * @return a human-readable name; logged as {@code sut_name}. Network SUTs must contain {@code "Network SUT"}.
     */
    String name();

    /**
     * Hands samples to the SUT: SingleStream 1, MultiStream {@code samples_per_query} (contiguous in the loaded
     * set), Server 1 (several when coalescing), Offline all samples of the run.
     *
     * @param samples a flyweight over the engine's trace, valid only during this call.
     * @param sink    where to complete the samples, from any thread.
     */
    void issueQuery(QuerySamples samples, ResponseSink sink);

    /**
     * Called once after the last {@link #issueQuery} of a series, before the engine waits for the outstanding
     * completions. Not an end-of-test signal.
     */
    void flushQueries();
}
