package org.jloadgen.issue;

import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.concurrent.ParkingLot;
import org.jloadgen.concurrent.TimerSlack;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.IssueTimes;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.Trace;
import org.jloadgen.schedule.TraceFill;

/**
 * Issues one series (spec §3.3; {@code loadgen/issue_query_controller.cc}, {@code IssueQueriesInternal}) on the
 * calling thread, then flushes
 * and waits for the outstanding completions. Between the first and the last query nothing here allocates,
 * locks or logs: every query is a flyweight re-wrap, every wait reads the clock and a counter, and stops are
 * recorded as numbers that are formatted afterwards.
 * <p>
 * A series the engine gives up on (an {@link #abort}, a SUT failure, the completion timeout, which the Server loop
 * also watches while it issues) stops issuing at once, tells an {@link AbortableSut} to drop its queued samples, and
 * waits {@link EngineOptions#abortGraceMs()} at most for the samples in flight. Such a test runs no further series.
 * <p>
 * One loop serves every scenario, as LoadGen's one templated {@code IssueQueriesInternal}
 * ({@code loadgen/issue_query_controller.cc}) does: an {@link IssuePolicy} says when each query goes out and how many
 * go together, and one end check applies LoadGen's end conditions. How it waits ({@link IssueWaits}, {@code AUTO}
 * resolved from the CPU budget): for a Server query's scheduled time, {@link ServerDeadlineWait}; for completions,
 * {@link CompletionWait}. SyLT's warm-up queries go out first when given ({@link WarmupSplice}).
 */
public final class IssueLoop
{
    private static final long NS_PER_MS = 1_000_000L;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();

    private final EngineOptions options;
    private final NanoClock clock;
    private volatile String abortReason;
    /** The series being issued, for {@link #progress()} on another thread; set before the clock starts. */
    private volatile Series running;
    /** Why a series gave up on its SUT (it failed or stopped completing): no further series of the test start. */
    private volatile String gaveUpBecause;
    /** Where the issue thread parks for completions now, so that an abort wakes it. */
    private volatile ParkingLot completionWaiter;
    /** The Server wait, whose HYBRID window is fitted to this machine's wake-ups; issue thread only. */
    private final ServerDeadlineWait deadlineWait;

    /**
     * What a thread other than the issue thread sees of the running series (a progress display): the issue thread
     * does no extra work for it; the reader reads the counters the loop keeps anyway.
     *
     * @param startNs          the series origin ({@link EngineOptions#clock()} reading).
     * @param samplesIssued    samples handed to the SUT so far: at least those completed.
     * @param samplesCompleted samples completed so far.
     */
    public record Progress(long startNs, long samplesIssued, long samplesCompleted)
    {
    }

    /**
     * @param options the engine's wait strategies and timeouts.
     */
    public IssueLoop(final EngineOptions options)
    {
        this.options = options;
        this.clock = options.clock();
        this.deadlineWait = new ServerDeadlineWait(clock);
    }

    /**
     * Makes the running (or next) series stop after its current query, wakes the issue thread if it parked for
     * completions, and tells the running SUT, if it is an {@link AbortableSut}, to drop its queued samples. Any
     * thread; returns at once.
     *
     * @param reason why, for the logs.
     */
    public void abort(final String reason)
    {
        abortReason = reason == null ? "abortTest() called" : reason;
        final ParkingLot waiter = completionWaiter;
        if (waiter != null)
        {
            waiter.wakeAll();
        }
        final Series series = running;
        if (series != null)
        {
            SeriesDrain.dropQueued(series.sut);
        }
    }

    /**
     * @return whether the test should run no further series: an abort was requested, or a series gave up on a SUT
     *         that failed or stopped completing.
     */
    public boolean aborted()
    {
        return abortReason() != null;
    }

    /**
     * @return why the test was cut short (the abort's reason, or why a series gave up on the SUT), or {@code null}.
     */
    public String abortReason()
    {
        final String reason = abortReason;
        return reason != null ? reason : gaveUpBecause;
    }

    /**
     * Any thread; allocates on the calling thread only.
     *
     * @return the running series' counters, or {@code null} between series.
     */
    public Progress progress()
    {
        final Series s = running;
        if (s == null)
        {
            return null;
        }
        // The loop counts a query as issued when issueQuery returns; an Offline query's samples complete while the
        // SUT is still inside that call (a GPU SUT holds it for the whole run), and a completed sample was issued.
        final long completed = s.recorder.completedSamples();
        return new Progress(s.outcome.startNs,
            Math.max((long)IssueOutcome.SAMPLES_ISSUED.getOpaque(s.outcome), completed), completed);
    }

    /**
     * Issues the series, flushes the SUT and waits for completions.
     *
     * @param trace      the series' queries.
     * @param recorder   the series' completion slots.
     * @param settings   effective settings.
     * @param seriesMode accuracy or performance.
     * @param sut        the system under test.
     * @param sink       the engine's response sink.
     * @return what happened.
     */
    public IssueOutcome run(final Trace trace, final SeriesRecorder recorder, final EffectiveSettings settings,
        final TestMode seriesMode, final SystemUnderTest sut, final EngineResponseSink sink)
    {
        return run(trace, recorder, settings, seriesMode, sut, sink, null);
    }

    /**
     * Issues a series, after SyLT's warm-up queries when {@code warmup} is given (a Server performance series only:
     * {@link WarmupSplice}), flushes the SUT and waits for completions.
     *
     * @param trace      the measured queries.
     * @param recorder   their completion slots.
     * @param settings   effective settings.
     * @param seriesMode accuracy or performance.
     * @param sut        the system under test.
     * @param sink       the engine's response sink.
     * @param warmup     the warm-up queries' recorder (its trace is issued first), or {@code null} for none.
     * @return what happened; times are relative to the measured series' start.
     */
    public IssueOutcome run(final Trace trace, final SeriesRecorder recorder, final EffectiveSettings settings,
        final TestMode seriesMode, final SystemUnderTest sut, final EngineResponseSink sink,
        final SeriesRecorder warmup)
    {
        if (warmup != null && (trace.scenario() != TestScenario.SERVER
            || warmup.trace().scenario() != TestScenario.SERVER))
        {
            throw new IllegalArgumentException("warm-up queries need a Server series, not " + trace.scenario());
        }
        final IssueWaits waits = IssueWaits.resolve(options, serverRateQps(trace));
        final long timeoutNs = options.completionTimeoutMs() * NS_PER_MS;
        final Series series = new Series(trace, recorder, settings, seriesMode == TestMode.ACCURACY_ONLY, true, sut,
            sink, completionWait(recorder, waits, timeoutNs));
        final WarmupSplice splice = warmup == null ? null : new WarmupSplice(new Series(warmup.trace(), warmup,
            settings, false, false, sut, sink, completionWait(warmup, waits, timeoutNs)));
        final IssuePolicy policy = IssuePolicy.of(trace.scenario(), this, clock, waits.server(), timeoutNs);
        final IssueOutcome outcome = series.outcome;
        final boolean preciseTimers = (waits.server() == ServerWaitStrategy.HYBRID
            || waits.server() == ServerWaitStrategy.SLEEP) && trace.scenario() == TestScenario.SERVER;
        final long previousSlackNs = preciseTimers ? TimerSlack.makePrecise() : TimerSlack.UNCHANGED;
        completionWaiter = recorder.completionWaiter();
        // Once per run: SyLT's warm-up queries and the measured ones that follow them are one stream of arrivals.
        deadlineWait.reset(waits.hybridMinNs(), waits.hybridMaxNs());

        // The two clocks are read close together, at the start as at the end, for LoadGen's check that they agree
        // within 1%: the allocation counter between them is read once before, so that it is not a cold first call,
        // and after the wall clock, whose reading may allocate. (Each clock is read once here: the golden runs'
        // scripted clocks advance per reading.)
        THREADS.getCurrentThreadAllocatedBytes();
        outcome.startEpochNs = options.wallClock().nanoTime();
        final long allocatedBeforeBytes = THREADS.getCurrentThreadAllocatedBytes();
        long startNs = clock.nanoTime();
        if (splice != null)
        {
            running = splice.series();
            startNs = splice.issueBefore(series, startNs, policy, this);
        }
        outcome.startNs = startNs;
        recorder.origin(startNs);
        sink.series(recorder);
        running = series;
        if (splice == null || !splice.stoppedTheRun())
        {
            issueSeries(series, policy);
        }
        outcome.issueAllocatedBytes = THREADS.getCurrentThreadAllocatedBytes() - allocatedBeforeBytes;
        try
        {
            sut.flushQueries();
        }
        catch (final Throwable t)
        {
            outcome.flushFailure = t;
        }

        SeriesDrain.awaitTheRest(this, series, options.abortGraceMs() * NS_PER_MS);
        if (splice != null)
        {
            final boolean healthy = outcome.stopReason != StopReason.SUT_FAILED
                && outcome.stopReason != StopReason.SUT_SILENT && sink.failure() == null && abortReason == null;
            completionWaiter = warmup.completionWaiter();
            splice.drain(outcome, healthy, clock.nanoTime() + options.abortGraceMs() * NS_PER_MS);
        }
        final Throwable reported = sink.failure();
        if (reported != null && outcome.sutFailure == null)
        {
            // The SUT said it failed (ResponseSink.fail): that, not the abort it triggered, is the stop reason.
            outcome.sutFailure = reported;
            outcome.stopReason = StopReason.SUT_FAILED;
        }
        if (outcome.stoppedBecause() != null && abortReason == null)
        {
            gaveUpBecause = outcome.stoppedBecause();
        }
        outcome.endNs = clock.nanoTime();
        outcome.endEpochNs = options.wallClock().nanoTime();
        running = null;
        sink.endSeries(outcome.allCompleted);
        completionWaiter = null;
        TimerSlack.restore(previousSlackNs);
        return outcome;
    }

    /**
     * @return a Server trace's mean rate (queries over its span), which sizes AUTO's HYBRID window; 0 for the other
     *         scenarios.
     */
    static double serverRateQps(final Trace trace)
    {
        return trace.scenario() == TestScenario.SERVER && trace.durationNs() > 0
            ? trace.queryCount() * 1e9 / trace.durationNs() : 0;
    }

    private CompletionWait completionWait(final SeriesRecorder recorder, final IssueWaits waits, final long timeoutNs)
    {
        return new CompletionWait(recorder, this, clock, waits.completion(), options.parkSpinNs(), timeoutNs);
    }

    /**
     * The one issue loop: each query when the policy says, then LoadGen's end conditions ({@link IssuePolicy#ended}).
     * Nothing here allocates.
     */
    void issueSeries(final Series series, final IssuePolicy policy)
    {
        final Trace trace = series.trace;
        final IssueOutcome outcome = series.outcome;
        final long queryCount = trace.queryCount();
        final int samplesPerQuery = trace.samplesPerQuery();
        final long startNs = outcome.startNs;
        final boolean endChecks = series.endChecks();
        policy.begin(series);
        // What the policy decides once per series is read into locals here, so that the JIT hoists and unswitches
        // on it as it did in the three loops this one replaced: read from the policy's fields after every SUT call,
        // they cost the inline Server path registers and reloads (the compiled code, hsdis; benchmarks/README.md).
        final boolean groupsQueries = policy.groupsQueries();
        final boolean recordsIssue = policy.recordsIssue();
        final IssueTimes issueTimes = series.issueTimes;
        final TraceQuerySamples samples = series.samples;
        final SystemUnderTest sut = series.sut;
        final EngineResponseSink sink = series.sink;
        // A trace still generating while the series runs is read up to what its filling thread has published.
        final TraceFill fill = trace.fill();
        long generatedQ = fill == null ? Long.MAX_VALUE : fill.awaitQueries(0, 1);
        long q = 0;
        while (q < queryCount)
        {
            if (abortReason != null)
            {
                stopIfAborted(outcome, clock.nanoTime() - startNs);
                return;
            }
            final long nowNs = policy.awaitTurn(series, q);
            if (nowNs == IssuePolicy.STOPPED)
            {
                return;
            }
            final int count = groupsQueries ? policy.queriesDue(series, q, nowNs) : 1;
            if (q + count > generatedQ)
            {
                generatedQ = fill.awaitQueries(q, q + count);
            }
            final long relativeNs = nowNs - startNs;
            if (recordsIssue)
            {
                policy.recordIssue(issueTimes, q, count, relativeNs);
            }
            // The SUT's call is here, not in a method of its own: compiled on its own with the SUT inlined, such a
            // method grew too big to inline and cost every query a call (hsdis).
            samples.wrap(q * samplesPerQuery, count * samplesPerQuery);
            try
            {
                sut.issueQuery(samples, sink);
            }
            catch (final Throwable t)
            {
                outcome.sutFailure = t;
                stop(outcome, StopReason.SUT_FAILED, relativeNs);
                return;
            }
            q += count;
            outcome.queriesIssued = q;
            outcome.samplesIssued = q * samplesPerQuery;
            outcome.lastQuery = q - 1;
            outcome.lastIssuedRelativeNs = relativeNs;
            if (endChecks && policy.ended(series, q, relativeNs))
            {
                return;
            }
        }
        if (endChecks && policy.endsAtTarget())
        {
            stop(outcome, StopReason.RAN_OUT, clock.nanoTime() - startNs);
        }
    }

    /**
     * @return whether an abort was requested; if so, the series stops as ABORTED at {@code relativeNs}.
     */
    boolean stopIfAborted(final IssueOutcome outcome, final long relativeNs)
    {
        final String reason = abortReason;
        if (reason == null)
        {
            return false;
        }
        stop(outcome, StopReason.ABORTED, relativeNs);
        outcome.abortReason = reason;
        return true;
    }

    /**
     * The series stops because no completion arrived for the completion timeout.
     */
    void stopSilent(final IssueOutcome outcome, final long relativeNs, final long samplesMissing)
    {
        stop(outcome, StopReason.SUT_SILENT, relativeNs);
        outcome.stopArg0 = options.completionTimeoutMs();
        outcome.stopArg1 = samplesMissing;
    }

    /**
     * @return whether an abort was requested (a completion wait that stops on abort reads it).
     */
    boolean abortRequested()
    {
        return abortReason != null;
    }

    /**
     * @return the reason of a requested abort, or {@code null}.
     */
    String requestedAbort()
    {
        return abortReason;
    }

    /**
     * @return the engine's clock.
     */
    NanoClock clock()
    {
        return clock;
    }

    /**
     * @return the Server deadline wait (issue thread only).
     */
    ServerDeadlineWait deadlineWait()
    {
        return deadlineWait;
    }

    static void stop(final IssueOutcome outcome, final StopReason reason, final long relativeNs)
    {
        outcome.stopReason = reason;
        outcome.stopRelativeNs = relativeNs;
    }

}
