package org.jloadgen.engine;

import org.agrona.concurrent.NanoClock;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.record.LatencyIntervalLog;

/**
 * Where a running test stands, for a progress display on another thread ({@link TestRunner#status()}): the step
 * (warm-up, accuracy set, FindPeakPerformance bound), the series, and the counters the issue loop and the latency
 * log keep anyway. The engine writes only strings and references, between series; {@link #snapshot()} reads the
 * rest without touching the issue or completion path.
 */
public final class RunStatus
{
    private final IssueLoop issueLoop;
    private final NanoClock clock;
    private volatile String step = "starting";
    private volatile String series = "";
    private volatile String preparing = "settings and logs";
    private volatile long minDurationMs;
    private volatile long minSamples;
    private volatile LatencyIntervalLog latencyLog;

    /**
     * What {@link #snapshot()} saw.
     *
     * @param step             the test's step, e.g. {@code FindPeakPerformance: boundaries, 400 QPS}.
     * @param series           the series being issued, or the last one.
     * @param issuing          whether a series is being issued now.
     * @param elapsedNs        time since the series' start of issuing (0 between series).
     * @param minDurationMs    the series' {@code min_duration}.
     * @param samplesIssued    samples issued in the series.
     * @param samplesCompleted samples completed in the series.
     * @param intervalP99Ns    99th percentile latency of the latency log's last interval, or -1.
     * @param preparing        what the engine does while no series is issuing (loading samples, generating the
     *                         trace...), or empty.
     * @param minSamples       the samples the series issues at least ({@code min_query_count} times the samples per
     *                         query), or 0: a series past its {@code min_duration} goes on until it has issued them.
     */
    public record Snapshot(String step, String series, boolean issuing, long elapsedNs, long minDurationMs,
        long samplesIssued, long samplesCompleted, long intervalP99Ns, String preparing, long minSamples)
    {
        /**
         * A snapshot that says nothing of what is being prepared, nor of a least sample count.
         *
         * @param step             the test's step.
         * @param series           the series.
         * @param issuing          whether a series is being issued now.
         * @param elapsedNs        time since the series' start of issuing.
         * @param minDurationMs    the series' {@code min_duration}.
         * @param samplesIssued    samples issued in the series.
         * @param samplesCompleted samples completed in the series.
         * @param intervalP99Ns    99th percentile latency of the last interval, or -1.
         */
        public Snapshot(final String step, final String series, final boolean issuing, final long elapsedNs,
            final long minDurationMs, final long samplesIssued, final long samplesCompleted, final long intervalP99Ns)
        {
            this(step, series, issuing, elapsedNs, minDurationMs, samplesIssued, samplesCompleted, intervalP99Ns, "",
                0);
        }
    }

    RunStatus(final IssueLoop issueLoop, final NanoClock clock)
    {
        this.issueLoop = issueLoop;
        this.clock = clock;
    }

    /**
     * @return what the test is doing now (any thread; allocates on the calling thread only).
     */
    public Snapshot snapshot()
    {
        final IssueLoop.Progress p = issueLoop.progress();
        final LatencyIntervalLog log = latencyLog;
        final long p99Ns = log == null ? -1 : log.lastIntervalP99Ns();
        if (p == null)
        {
            return new Snapshot(step, series, false, 0, minDurationMs, 0, 0, -1, preparing, minSamples);
        }
        return new Snapshot(step, series, true, clock.nanoTime() - p.startNs(), minDurationMs, p.samplesIssued(),
            p.samplesCompleted(), p99Ns, "", minSamples);
    }

    void step(final String value)
    {
        step = value;
    }

    /**
     * @param what what the engine does before (or after) issuing a series, for a user who waits: e.g.
     *             {@code loading 1,024 samples}, {@code generating the trace}.
     */
    void preparing(final String what)
    {
        preparing = what;
    }

    void series(final String label, final long seriesMinDurationMs, final long seriesMinSamples)
    {
        series = label;
        minDurationMs = seriesMinDurationMs;
        minSamples = seriesMinSamples;
    }

    void latencyLog(final LatencyIntervalLog log)
    {
        latencyLog = log;
    }
}
