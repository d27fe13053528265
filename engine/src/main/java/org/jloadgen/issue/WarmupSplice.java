package org.jloadgen.issue;

import org.jloadgen.record.SeriesRecorder;

/**
 * SyLT's warm-up queries spliced in front of a Server performance series: the warm-up trace goes out first and
 * then, with no pause, the measured trace, whose origin is the warm-up's end, so the arrivals run on at the same
 * rate. Latencies of warm-up samples land in the warm-up recorder only; LoadGen's end conditions apply to the
 * measured series only. At the end the warm-up samples the SUT still holds are awaited, into the warm-up's slots.
 * Issue thread only.
 */
final class WarmupSplice
{
    private final Series warmup;

    /**
     * @param warmup the warm-up queries as a Server series that is not measured.
     */
    WarmupSplice(final Series warmup)
    {
        this.warmup = warmup;
    }

    /**
     * @return the warm-up series.
     */
    Series series()
    {
        return warmup;
    }

    /**
     * Issues the warm-up queries from {@code issueStartNs}.
     *
     * @param measured     the measured series that follows.
     * @param issueStartNs the clock reading the warm-up starts at.
     * @param policy       the Server policy.
     * @param loop         the issue loop that issues it.
     * @return where the measured series starts: the warm-up trace's end.
     */
    long issueBefore(final Series measured, final long issueStartNs, final IssuePolicy policy, final IssueLoop loop)
    {
        final SeriesRecorder recorder = warmup.recorder;
        final IssueOutcome warmupOutcome = warmup.outcome;
        final IssueOutcome outcome = measured.outcome;
        warmupOutcome.startNs = issueStartNs;
        recorder.origin(issueStartNs);
        warmup.sink.series(recorder);
        loop.issueSeries(warmup, policy);
        outcome.warmupQueriesIssued = warmupOutcome.queriesIssued;
        final long startNs = issueStartNs + warmup.trace.durationNs();
        outcome.startEpochNs += startNs - issueStartNs;
        measured.recorder.follow(recorder);
        if (stoppedTheRun())
        {
            // Nothing measured: the run stops where the warm-up did.
            outcome.stopReason = warmupOutcome.stopReason;
            outcome.stopRelativeNs = warmupOutcome.stopRelativeNs - (startNs - issueStartNs);
            outcome.abortReason = warmupOutcome.abortReason;
            outcome.sutFailure = warmupOutcome.sutFailure;
        }
        return startNs;
    }

    /**
     * @return whether the warm-up stopped the run: the measured series is not issued.
     */
    boolean stoppedTheRun()
    {
        final StopReason reason = warmup.outcome.stopReason;
        return reason == StopReason.ABORTED || reason == StopReason.SUT_FAILED;
    }

    /**
     * Waits for the warm-up samples still held by the SUT: they complete into the warm-up's slots until the sink
     * retires them; after a failure or a stop ({@code healthy} false), for the grace period only.
     *
     * @param measuredOutcome where the number of warm-up samples that never completed goes.
     * @param healthy         whether the run ended without a failure, silence or abort.
     * @param graceEndNs      the end of the grace period (a clock reading).
     */
    void drain(final IssueOutcome measuredOutcome, final boolean healthy, final long graceEndNs)
    {
        final long issued = warmup.outcome.samplesIssued;
        warmup.completions.drain(issued, graceEndNs, !healthy, false);
        measuredOutcome.warmupSamplesMissing = issued - warmup.recorder.completedSamples();
    }
}
