package org.jloadgen.issue;

/**
 * What the issue loop of one series did. Times are relative to the start of issuing unless named otherwise.
 */
public final class IssueOutcome
{
    /** Opaque reads of {@link #samplesIssued} from another thread: the issue thread writes it plainly. */
    static final java.lang.invoke.VarHandle SAMPLES_ISSUED;

    static
    {
        try
        {
            SAMPLES_ISSUED = java.lang.invoke.MethodHandles.lookup().findVarHandle(IssueOutcome.class,
                "samplesIssued", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    long startNs;
    long startEpochNs;
    long queriesIssued;
    long samplesIssued;
    long lastQuery = -1;
    long lastIssuedRelativeNs;
    StopReason stopReason = StopReason.EXHAUSTED;
    long stopRelativeNs;
    long stopArg0;
    long stopArg1;
    Throwable sutFailure;
    String abortReason;
    boolean flushFailed;
    Throwable flushFailure;
    boolean allCompleted;
    long endNs;
    long endEpochNs;
    long issueAllocatedBytes;
    long warmupQueriesIssued;
    long warmupSamplesMissing;

    /**
     * @return SyLT warm-up queries issued before the measured ones (0 without a warm-up).
     */
    public long warmupQueriesIssued()
    {
        return warmupQueriesIssued;
    }

    /**
     * @return issued warm-up samples that never completed.
     */
    public long warmupSamplesMissing()
    {
        return warmupSamplesMissing;
    }

    /**
     * @return bytes the issue thread allocated from just before the first query to just after the last one
     *         (the timed window), as {@code ThreadMXBean} counts them; 0 when the hot path holds its promise.
     */
    public long issueAllocatedBytes()
    {
        return issueAllocatedBytes;
    }

    /**
     * @return {@code System.nanoTime()} when the measured queries started (the series origin; after the warm-up
     *         queries when there are any).
     */
    public long startNs()
    {
        return startNs;
    }

    /**
     * @return wall-clock ns since the epoch when issuing started ({@code power_begin}).
     */
    public long startEpochNs()
    {
        return startEpochNs;
    }

    /**
     * @return queries issued (coalesced queries count one each).
     */
    public long queriesIssued()
    {
        return queriesIssued;
    }

    /**
     * @return samples issued.
     */
    public long samplesIssued()
    {
        return samplesIssued;
    }

    /**
     * @return number of the last issued query, or -1 if none.
     */
    public long lastQuery()
    {
        return lastQuery;
    }

    /**
     * @return issue time of the last issued query.
     */
    public long lastIssuedRelativeNs()
    {
        return lastIssuedRelativeNs;
    }

    /**
     * @return why issuing stopped.
     */
    public StopReason stopReason()
    {
        return stopReason;
    }

    /**
     * @return when issuing stopped, relative to the start.
     */
    public long stopRelativeNs()
    {
        return stopRelativeNs;
    }

    /**
     * @return LoadGen's message for the stop, or {@code null} if none is logged.
     */
    public String stopMessage()
    {
        final String format = stopReason.format();
        if (format == null)
        {
            return null;
        }
        return switch (stopReason)
        {
            case TOO_MANY_OUTSTANDING -> String.format(format, stopArg0, stopArg1);
            case MAX_QUERY_COUNT, MAX_DURATION -> String.format(format, stopArg0);
            case SUT_FAILED -> String.format(format, String.valueOf(sutFailure));
            case SUT_SILENT -> String.format(format, stopArg0, stopArg1, samplesIssued);
            case ABORTED -> String.format(format, abortReason);
            default -> format;
        };
    }

    /**
     * @return why the engine cut the series short where LoadGen would have waited on (an abort, a SUT failure, the
     *         completion timeout), as a sentence fragment for the summary; {@code null} for LoadGen's own stops.
     */
    public String stoppedBecause()
    {
        return switch (stopReason)
        {
            case ABORTED -> abortReason;
            case SUT_SILENT -> "the SUT completed no sample for " + stopArg0 + " ms (--completion-timeout-ms)";
            case SUT_FAILED -> "the SUT failed: " + sutFailure;
            default -> null;
        };
    }

    /**
     * @return the exception the SUT threw, or {@code null}.
     */
    public Throwable sutFailure()
    {
        return sutFailure;
    }

    /**
     * @return the exception {@code flushQueries} threw, or {@code null}.
     */
    public Throwable flushFailure()
    {
        return flushFailure;
    }

    /**
     * @return whether every issued sample completed.
     */
    public boolean allCompleted()
    {
        return allCompleted;
    }

    /**
     * @return {@code System.nanoTime()} after the last completion arrived (or the wait gave up).
     */
    public long endNs()
    {
        return endNs;
    }

    /**
     * @return wall-clock ns since the epoch at {@link #endNs()}.
     */
    public long endEpochNs()
    {
        return endEpochNs;
    }
}
