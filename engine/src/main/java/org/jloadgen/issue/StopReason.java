package org.jloadgen.issue;

/**
 * Why the issue loop of a series stopped, with LoadGen's message (spec §3.3;
 * {@code loadgen/issue_query_controller.cc}, {@code IssueQueryController::IssueQueriesInternal}).
 */
public enum StopReason
{
    /** Every generated query was issued (the normal end of Server and accuracy series). */
    EXHAUSTED(false, null),
    /** Minimum query count and duration met (SingleStream, MultiStream, Offline). */
    NATURAL(false, "Ending naturally: Minimum query count and test duration met."),
    /** Server outstanding queries above {@code max_async_queries}. */
    TOO_MANY_OUTSTANDING(true,
        "IssueQueryThread 0 Ending early: Too many outstanding queries. issued %d outstanding %d"),
    /** {@code max_query_count} reached. */
    MAX_QUERY_COUNT(true, "IssueQueryThread 0 Ending early: Max query count reached. query_count %d"),
    /** {@code max_duration} exceeded. */
    MAX_DURATION(true, "IssueQueryThread 0 Ending early: Max test duration reached. duration_ns %d"),
    /** The generated queries ran out before the minimums were met (non-Server performance series). */
    RAN_OUT(true, "Ending early: Ran out of generated queries to issue before the minimum query count and test "
        + "duration were reached. Please update the relevant expected latency or target qps in the TestSettings "
        + "so they are more accurate."),
    /** The SUT threw from {@code issueQuery} or reported a failure ({@code ResponseSink.fail}). */
    SUT_FAILED(true, "The SUT failed: %s"),
    /** The SUT stopped completing samples. */
    SUT_SILENT(true, "The SUT completed no sample for %d ms while %d of %d issued samples were outstanding."),
    /** {@code abortTest()} was called. */
    ABORTED(true, "Test aborted: %s");

    private final boolean error;
    private final String format;

    StopReason(final boolean error, final String format)
    {
        this.error = error;
        this.format = format;
    }

    /**
     * @return whether LoadGen logs this stop as {@code error_runtime}.
     */
    public boolean isError()
    {
        return error;
    }

    /**
     * @return the message format, or {@code null} if nothing is logged.
     */
    public String format()
    {
        return format;
    }
}
