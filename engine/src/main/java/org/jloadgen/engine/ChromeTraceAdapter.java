package org.jloadgen.engine;

import org.jloadgen.api.TestScenario;
import org.jloadgen.issue.IssueOutcome;
import org.jloadgen.log.ChromeTraceWriter;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.Trace;

/**
 * Writes a finished series into {@code mlperf_log_trace.json} in LoadGen's event shapes (spec §8.5; loadgen/logging.h,
 * ChromeTracer): a complete event for the issue phase, an async "Sample" begin/end pair per completed sample with its
 * ids and timings, LoadGen's Server "Latency" counters, and "Token" pairs for first tokens. Everything is written after
 * the series from the arrays the engine keeps anyway, so tracing never touches the timed path.
 */
final class ChromeTraceAdapter
{
    private final ChromeTraceWriter writer;
    private final long pid = ProcessHandle.current().pid();

    ChromeTraceAdapter(final ChromeTraceWriter writer)
    {
        this.writer = writer;
    }

    void phase(final String name, final long startNs, final long endNs)
    {
        writer.complete(name, pid, Thread.currentThread().threadId(), startNs, endNs);
    }

    void series(final Trace trace, final SeriesRecorder recorder, final IssueOutcome outcome)
    {
        final long originNs = recorder.originNs();
        final long tid = Thread.currentThread().threadId();
        // Issuing spans from the origin to the last query (or to the stop, when a check ended it later).
        final long issueEndNs = Math.max(outcome.stopRelativeNs(), outcome.lastIssuedRelativeNs());
        writer.complete("IssueQueries", pid, tid, originNs, originNs + issueEndNs);
        final boolean server = trace.scenario() == TestScenario.SERVER;
        final int spq = trace.samplesPerQuery();
        final long issued = outcome.samplesIssued();
        for (long s = 0; s < issued; s++)
        {
            final long q = s / spq;
            final long completedRel = recorder.completionRelativeNs(s);
            if (completedRel < 0)
            {
                continue;
            }
            final long scheduledNs = originNs + recorder.issueTimes().scheduledRelativeNs(q);
            final long issuedNs = originNs + recorder.issueTimes().issuedRelativeNs(q);
            final long completedNs = originNs + completedRel;
            final long sampleSeq = trace.firstSampleId() + s;
            final long querySeq = trace.firstQueryId() + q;
            final long qslIndex = trace.sampleIndex(s);
            if (server)
            {
                writer.latencyCounter("Latency", pid, scheduledNs, issuedNs, completedNs);
            }
            writer.sample("Sample", pid, sampleSeq, querySeq, qslIndex, scheduledNs, issuedNs, completedNs);
            final long firstTokenRel = recorder.firstTokenRelativeNs(s);
            if (firstTokenRel >= 0)
            {
                if (server)
                {
                    writer.latencyCounter("Token_Latency", pid, scheduledNs, issuedNs, originNs + firstTokenRel);
                }
                else
                {
                    writer.sample("Token", pid, sampleSeq, querySeq, qslIndex, scheduledNs, issuedNs,
                        originNs + firstTokenRel);
                }
            }
        }
    }
}
