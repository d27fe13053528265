package org.jloadgen.issue;

import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.SystemUnderTest;

/**
 * How a series ends after its last query: it waits for the samples in flight, bounded by the grace period when the
 * series failed, went silent or was aborted, and tells a SUT that can drop its queue to do so (LoadGen waits for
 * every query in {@code IssueQueries}, {@code loadgen/loadgen.cc}; JLoadGen bounds the wait and says why). Issue
 * thread only.
 */
final class SeriesDrain
{
    private SeriesDrain()
    {
    }

    /**
     * After the last query: waits for the samples in flight. A failed, silent or aborted series gets the grace
     * period at most, and its SUT is told to drop what it has queued; a healthy one waits until no completion
     * arrived for the completion timeout.
     */
    static void awaitTheRest(final IssueLoop loop, final Series series, final long graceNs)
    {
        final NanoClock clock = loop.clock();
        final IssueOutcome outcome = series.outcome;
        final CompletionWait completions = series.completions;
        if (outcome.stopReason == StopReason.SUT_FAILED || outcome.stopReason == StopReason.SUT_SILENT
            || series.sink.failure() != null)
        {
            // A failed or silent SUT may still drain what it has in flight; a short grace period, never forever.
            dropQueued(series.sut);
            outcome.allCompleted = completions.drain(outcome.samplesIssued, clock.nanoTime() + graceNs, true, false);
            return;
        }
        if (loop.requestedAbort() == null)
        {
            outcome.allCompleted = completions.drain(outcome.samplesIssued, 0, false, true);
            if (outcome.allCompleted)
            {
                return;
            }
            if (loop.requestedAbort() == null)
            {
                loop.stopSilent(outcome, clock.nanoTime() - outcome.startNs,
                    outcome.samplesIssued - series.recorder.completedSamples());
                dropQueued(series.sut);
                return;
            }
        }
        // Aborted while issuing or while waiting: it stops as ABORTED, and the samples in flight get the grace period
        // at most (the SUT was told to drop its queue when the abort came).
        final long nowNs = clock.nanoTime();
        if (outcome.stopReason != StopReason.ABORTED)
        {
            IssueLoop.stop(outcome, StopReason.ABORTED, nowNs - outcome.startNs);
        }
        outcome.abortReason = loop.requestedAbort();
        outcome.allCompleted = completions.drain(outcome.samplesIssued, nowNs + graceNs, true, false);
    }

    /**
     * Tells an {@link AbortableSut} to drop its queued samples.
     */
    static void dropQueued(final SystemUnderTest sut)
    {
        if (sut instanceof AbortableSut abortable)
        {
            try
            {
                abortable.dropQueuedSamples();
            }
            catch (final RuntimeException ex)
            {
                // The contract forbids it; an abort must still go on (the bounded wait then covers the queue).
            }
        }
    }
}
