package org.jloadgen.issue;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.concurrent.ParkingIdleStrategy;
import org.jloadgen.concurrent.ParkingLot;
import org.jloadgen.concurrent.TimerSlack;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.Trace;

/**
 * Issues one series (LoadGen's {@code IssueQueriesInternal}, spec §3.3) on the calling thread, then flushes
 * and waits for the outstanding completions. Between the first and the last query nothing here allocates,
 * locks or logs: every query is a flyweight re-wrap, every wait reads the clock and a counter, and stops are
 * recorded as numbers that are formatted afterwards.
 * <p>
 * A series the engine gives up on (an {@link #abort}, a SUT failure, the completion timeout, which the Server loop
 * also watches while it issues) stops issuing at once, tells an {@link AbortableSut} to drop its queued samples, and
 * waits {@link EngineOptions#abortGraceMs()} at most for the samples in flight. Such a test runs no further series.
 * <p>
 * How it waits ({@link IssueWaits}, {@code AUTO} resolved from the CPU budget): for a Server query's scheduled time
 * it spins, or parks with a 1 ns timer slack until shortly before it ({@code HYBRID}); for completions it spins, polls,
 * or parks in the recorder's {@link ParkingLot}, which the completing thread wakes ({@code PARK}). After the last query
 * it always parks that way: no latency depends on how soon it notices the last completions (they carry their own
 * timestamps), and it must not take a CPU from the SUT's threads meanwhile.
 */
public final class IssueLoop
{
    private static final long NS_PER_MS = 1_000_000L;
    /** How often the Server loop looks for a SUT that stopped completing while it issues. */
    private static final long SILENCE_CHECK_INTERVAL_NS = 100 * NS_PER_MS;
    /** Longest single park while waiting for completions: how late a timeout or deadline is noticed at worst. */
    private static final long MAX_PARK_NS = 50 * NS_PER_MS;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();

    private final EngineOptions options;
    private final NanoClock clock;
    private volatile String abortReason;
    /** The series being issued, for {@link #progress()} on another thread; set before the clock starts. */
    private volatile Series running;

    /**
     * What a thread other than the issue thread sees of the running series (a progress display): the issue thread
     * does no extra work for it; the reader reads the counters the loop keeps anyway.
     *
     * @param startNs          the series origin ({@link EngineOptions#clock()} reading).
     * @param samplesIssued    samples handed to the SUT so far.
     * @param samplesCompleted samples completed so far.
     */
    public record Progress(long startNs, long samplesIssued, long samplesCompleted)
    {
    }
    /** Why a series gave up on its SUT (it failed or stopped completing): no further series of the test start. */
    private volatile String gaveUpBecause;
    /** Where the issue thread parks for completions now, so that an abort wakes it. */
    private volatile ParkingLot completionWaiter;
    /** The HYBRID Server wait's spin window, fitted to this machine's wake-ups; issue thread only. */
    private final HybridWindow hybridWindow = new HybridWindow();

    /**
     * @param options the engine's wait strategies and timeouts.
     */
    public IssueLoop(final EngineOptions options)
    {
        this.options = options;
        this.clock = options.clock();
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
            dropQueued(series.sut);
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

    private static void dropQueued(final SystemUnderTest sut)
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
    public IssueOutcome run(
        final Trace trace,
        final SeriesRecorder recorder,
        final EffectiveSettings settings,
        final TestMode seriesMode,
        final SystemUnderTest sut,
        final EngineResponseSink sink)
    {
        return run(trace, recorder, settings, seriesMode, sut, sink, null);
    }

    /**
     * Issues a Server performance series after SyLT's warm-up queries: the warm-up trace first, then, with no
     * pause, the measured trace, whose start (its origin) is the warm-up's end, so the arrivals run on at the
     * same rate. Latencies of warm-up samples land in the warm-up recorder only; LoadGen's end conditions
     * (max duration, max queries, outstanding queries) apply to the measured series only. At the end both series'
     * completions are awaited.
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
    public IssueOutcome run(
        final Trace trace,
        final SeriesRecorder recorder,
        final EffectiveSettings settings,
        final TestMode seriesMode,
        final SystemUnderTest sut,
        final EngineResponseSink sink,
        final SeriesRecorder warmup)
    {
        if (warmup != null && (trace.scenario() != TestScenario.SERVER
            || warmup.trace().scenario() != TestScenario.SERVER))
        {
            throw new IllegalArgumentException("warm-up queries need a Server series, not " + trace.scenario());
        }
        final IssueOutcome outcome = new IssueOutcome();
        final TraceQuerySamples samples = new TraceQuerySamples(trace);
        final IssueWaits waits = IssueWaits.resolve(options);
        final CompletionTarget completionTarget = new CompletionTarget(recorder, this);
        final IdleStrategy completionIdle = waits.completion() == CompletionWaitStrategy.PARK
            ? new ParkingIdleStrategy(recorder.completionWaiter(), 0, options.parkSpinNs(), MAX_PARK_NS,
                completionTarget)
            : waits.completion().newIdleStrategy();
        // After the last query no latency depends on how fast this thread notices completions (they carry their
        // own timestamps), so the drain parks until a completion wakes it instead of taking a core from the SUT.
        final IdleStrategy drainIdle = drainIdle(completionTarget);
        final long timeoutNs = options.completionTimeoutMs() * NS_PER_MS;
        final boolean preciseTimers = (waits.server() == ServerWaitStrategy.HYBRID
            || waits.server() == ServerWaitStrategy.SLEEP) && trace.scenario() == TestScenario.SERVER;
        final long previousSlackNs = preciseTimers ? TimerSlack.makePrecise() : TimerSlack.UNCHANGED;
        completionWaiter = recorder.completionWaiter();
        // Once per run: SyLT's warm-up queries and the measured ones that follow them are one stream of arrivals.
        hybridWindow.reset(waits.hybridMinNs(), waits.hybridMaxNs());

        final Series series = new Series(trace, recorder, settings, seriesMode == TestMode.ACCURACY_ONLY, true, sut,
            sink, samples, outcome, completionTarget);
        final IssueOutcome warmupOutcome = warmup == null ? null : new IssueOutcome();
        final CompletionTarget warmupTarget = warmup == null ? null : new CompletionTarget(warmup, this);
        final Series warmupSeries = warmup == null ? null : new Series(warmup.trace(), warmup, settings, false, false,
            sut, sink, new TraceQuerySamples(warmup.trace()), warmupOutcome, warmupTarget);
        final IdleStrategy warmupDrainIdle = warmup == null ? null : drainIdle(warmupTarget);
        outcome.startEpochNs = options.wallClock().nanoTime();
        final long allocatedBeforeBytes = THREADS.getCurrentThreadAllocatedBytes();
        final long issueStartNs = clock.nanoTime();
        long startNs = issueStartNs;
        boolean issueMeasured = true;
        if (warmupSeries != null)
        {
            warmupOutcome.startNs = issueStartNs;
            warmup.origin(issueStartNs);
            sink.series(warmup);
            running = warmupSeries;
            issueServer(warmupSeries, waits.server(), timeoutNs);
            outcome.warmupQueriesIssued = warmupOutcome.queriesIssued;
            startNs = issueStartNs + warmup.trace().durationNs();
            outcome.startEpochNs += startNs - issueStartNs;
            recorder.follow(warmup);
            if (warmupOutcome.stopReason == StopReason.ABORTED || warmupOutcome.stopReason == StopReason.SUT_FAILED)
            {
                // Nothing measured: the run stops where the warm-up did.
                outcome.stopReason = warmupOutcome.stopReason;
                outcome.stopRelativeNs = warmupOutcome.stopRelativeNs - (startNs - issueStartNs);
                outcome.abortReason = warmupOutcome.abortReason;
                outcome.sutFailure = warmupOutcome.sutFailure;
                issueMeasured = false;
            }
        }
        outcome.startNs = startNs;
        recorder.origin(startNs);
        sink.series(recorder);
        running = series;

        if (issueMeasured)
        {
            switch (trace.scenario())
            {
                case SINGLE_STREAM, MULTI_STREAM -> issueSequential(series, completionIdle, timeoutNs);
                case SERVER -> issueServer(series, waits.server(), timeoutNs);
                case OFFLINE -> issueOffline(series);
                default -> throw new IllegalStateException("unknown scenario " + trace.scenario());
            }
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

        final long graceNs = options.abortGraceMs() * NS_PER_MS;
        if (outcome.stopReason == StopReason.SUT_FAILED || outcome.stopReason == StopReason.SUT_SILENT
            || sink.failure() != null)
        {
            // A failed or silent SUT may still drain what it has in flight; a short grace period, never forever.
            dropQueued(sut);
            outcome.allCompleted = awaitCompletions(completionTarget, outcome.samplesIssued, drainIdle, timeoutNs,
                clock.nanoTime() + graceNs, true, false);
        }
        else if (abortReason != null)
        {
            drainAborted(completionTarget, outcome, drainIdle, timeoutNs, graceNs);
        }
        else
        {
            outcome.allCompleted = awaitCompletions(completionTarget, outcome.samplesIssued, drainIdle, timeoutNs, 0,
                false, true);
            if (!outcome.allCompleted && abortReason != null)
            {
                drainAborted(completionTarget, outcome, drainIdle, timeoutNs, graceNs);
            }
            else if (!outcome.allCompleted)
            {
                outcome.stopReason = StopReason.SUT_SILENT;
                outcome.stopArg0 = options.completionTimeoutMs();
                outcome.stopArg1 = outcome.samplesIssued - recorder.completedSamples();
                outcome.stopRelativeNs = clock.nanoTime() - startNs;
                dropQueued(sut);
            }
        }
        if (warmup != null)
        {
            // Warm-up samples still held by the SUT complete into the warm-up's slots until the sink retires them;
            // after a failure or a stop, only for the grace period.
            final boolean healthy = outcome.stopReason != StopReason.SUT_FAILED
                && outcome.stopReason != StopReason.SUT_SILENT && sink.failure() == null && abortReason == null;
            completionWaiter = warmup.completionWaiter();
            awaitCompletions(warmupTarget, warmupOutcome.samplesIssued, warmupDrainIdle, timeoutNs,
                clock.nanoTime() + graceNs, !healthy, false);
            outcome.warmupSamplesMissing = warmupOutcome.samplesIssued - warmup.completedSamples();
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
     * @return how the issue thread waits for the last completions of a series: parked until one wakes it.
     */
    private static IdleStrategy drainIdle(final CompletionTarget target)
    {
        return new ParkingIdleStrategy(target.recorder.completionWaiter(), 0, 0, MAX_PARK_NS, target);
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
        return new Progress(s.outcome.startNs, (long)IssueOutcome.SAMPLES_ISSUED.getOpaque(s.outcome),
            s.recorder.completedSamples());
    }

    /**
     * The series was aborted (while issuing or while waiting for completions): it stops as ABORTED, and the samples
     * in flight get the grace period at most (the SUT was told to drop its queue when the abort came).
     */
    private void drainAborted(final CompletionTarget completions, final IssueOutcome outcome,
        final IdleStrategy idle, final long timeoutNs, final long graceNs)
    {
        final long nowNs = clock.nanoTime();
        if (outcome.stopReason != StopReason.ABORTED)
        {
            outcome.stopReason = StopReason.ABORTED;
            outcome.stopRelativeNs = nowNs - outcome.startNs;
        }
        outcome.abortReason = abortReason;
        outcome.allCompleted = awaitCompletions(completions, outcome.samplesIssued, idle, timeoutNs, nowNs + graceNs,
            true, false);
    }

    private void issueSequential(final Series series, final IdleStrategy idle, final long timeoutNs)
    {
        final Trace trace = series.trace;
        final SeriesRecorder recorder = series.recorder;
        final EffectiveSettings settings = series.settings;
        final IssueOutcome outcome = series.outcome;
        final boolean accuracy = series.accuracy;
        final long queryCount = trace.queryCount();
        final int spq = trace.samplesPerQuery();
        final long startNs = outcome.startNs;
        final long minQueryCount = settings.minQueryCount;
        final long targetDurationNs = settings.targetDurationMs * NS_PER_MS;
        final long maxQueryCount = settings.maxQueryCount;
        final long maxDurationNs = settings.maxDurationMs * NS_PER_MS;
        long issuedSamples = 0;

        for (long q = 0; q < queryCount; q++)
        {
            if (abortReason != null)
            {
                stop(outcome, StopReason.ABORTED, clock.nanoTime() - startNs);
                outcome.abortReason = abortReason;
                return;
            }
            if (q > 0 && recorder.completedSamples() < issuedSamples
                && !awaitCompletions(series.completionTarget, issuedSamples, idle, timeoutNs, 0, false, true))
            {
                if (abortReason != null)
                {
                    stop(outcome, StopReason.ABORTED, clock.nanoTime() - startNs);
                    outcome.abortReason = abortReason;
                    return;
                }
                stop(outcome, StopReason.SUT_SILENT, clock.nanoTime() - startNs);
                outcome.stopArg0 = options.completionTimeoutMs();
                outcome.stopArg1 = issuedSamples - recorder.completedSamples();
                return;
            }
            final long nowNs = clock.nanoTime();
            final long relativeNs = nowNs - startNs;
            recorder.scheduled(q, relativeNs);
            if (!issue(series, q * spq, spq, relativeNs))
            {
                return;
            }
            issuedSamples += spq;
            outcome.queriesIssued = q + 1;
            outcome.samplesIssued = issuedSamples;
            outcome.lastQuery = q;
            outcome.lastIssuedRelativeNs = relativeNs;

            if (accuracy)
            {
                continue;
            }
            if (q + 1 >= minQueryCount && relativeNs >= targetDurationNs)
            {
                stop(outcome, StopReason.NATURAL, relativeNs);
                return;
            }
            if (endEarly(outcome, q + 1, relativeNs, maxQueryCount, maxDurationNs))
            {
                return;
            }
        }
        if (!accuracy)
        {
            stop(outcome, StopReason.RAN_OUT, clock.nanoTime() - startNs);
        }
    }

    private void issueServer(final Series series, final ServerWaitStrategy wait, final long timeoutNs)
    {
        final Trace trace = series.trace;
        final SeriesRecorder recorder = series.recorder;
        final EffectiveSettings settings = series.settings;
        final IssueOutcome outcome = series.outcome;
        // Accuracy series and warm-up queries issue every query: LoadGen's end conditions are for measured runs.
        final boolean endChecks = !series.accuracy && series.measured;
        final long queryCount = trace.queryCount();
        final long startNs = outcome.startNs;
        final boolean coalesce = settings.serverCoalesceQueries;
        final long maxAsync = settings.maxAsyncQueries;
        final long maxQueryCount = settings.maxQueryCount;
        final long maxDurationNs = settings.maxDurationMs * NS_PER_MS;
        final boolean replayGroups = trace.hasContinuations();
        final boolean trackIssue = recorder.tracksIssueTimes();
        // The completion timeout, watched while issuing: a SUT that stopped completing ends the series now instead of
        // after the whole schedule. Checked every SILENCE_CHECK_INTERVAL_NS on the clock already read, so the loop
        // pays a compare per query and one counter read per interval.
        long silenceCheckNs = startNs + SILENCE_CHECK_INTERVAL_NS;
        long seenCompleted = 0;
        long lastProgressNs = startNs;

        long q = 0;
        while (q < queryCount)
        {
            if (abortReason != null)
            {
                stop(outcome, StopReason.ABORTED, clock.nanoTime() - startNs);
                outcome.abortReason = abortReason;
                return;
            }
            final long deadlineNs = startNs + trace.scheduledOffsetNs(q);
            final long nowNs = waitUntil(deadlineNs, wait);
            if (nowNs - silenceCheckNs >= 0)
            {
                silenceCheckNs = nowNs + SILENCE_CHECK_INTERVAL_NS;
                final long done = recorder.completedSamples();
                if (done != seenCompleted || done >= q)
                {
                    seenCompleted = done;
                    lastProgressNs = nowNs;
                }
                else if (nowNs - lastProgressNs > timeoutNs)
                {
                    stop(outcome, StopReason.SUT_SILENT, nowNs - startNs);
                    outcome.stopArg0 = options.completionTimeoutMs();
                    outcome.stopArg1 = q - done;
                    return;
                }
            }
            int count = 1;
            if (replayGroups)
            {
                while (q + count < queryCount && trace.continuesPrevious(q + count))
                {
                    count++;
                }
            }
            if (coalesce)
            {
                while (q + count < queryCount && startNs + trace.scheduledOffsetNs(q + count) - nowNs <= 0
                    && count < Integer.MAX_VALUE - 1)
                {
                    count++;
                }
            }
            final long relativeNs = nowNs - startNs;
            if (trackIssue)
            {
                recorder.issued(q, count, relativeNs);
            }
            if (!issue(series, q, count, relativeNs))
            {
                return;
            }
            q += count;
            outcome.queriesIssued = q;
            outcome.samplesIssued = q;
            outcome.lastQuery = q - 1;
            outcome.lastIssuedRelativeNs = relativeNs;

            if (!endChecks)
            {
                continue;
            }
            if (maxAsync != 0)
            {
                final long outstanding = q - recorder.completedSamples();
                if (outstanding > maxAsync)
                {
                    stop(outcome, StopReason.TOO_MANY_OUTSTANDING, relativeNs);
                    outcome.stopArg0 = q;
                    outcome.stopArg1 = outstanding;
                    return;
                }
            }
            if (endEarly(outcome, q, relativeNs, maxQueryCount, maxDurationNs))
            {
                return;
            }
        }
    }

    private void issueOffline(final Series series)
    {
        final Trace trace = series.trace;
        final EffectiveSettings settings = series.settings;
        final IssueOutcome outcome = series.outcome;
        final boolean accuracy = series.accuracy;
        final long queryCount = trace.queryCount();
        final int spq = trace.samplesPerQuery();
        final long startNs = outcome.startNs;
        for (long q = 0; q < queryCount; q++)
        {
            final long relativeNs = clock.nanoTime() - startNs;
            if (abortReason != null)
            {
                stop(outcome, StopReason.ABORTED, relativeNs);
                outcome.abortReason = abortReason;
                return;
            }
            if (!issue(series, q * spq, spq, relativeNs))
            {
                return;
            }
            outcome.queriesIssued = q + 1;
            outcome.samplesIssued = (q + 1) * spq;
            outcome.lastQuery = q;
            outcome.lastIssuedRelativeNs = relativeNs;
            if (accuracy)
            {
                continue;
            }
            // Offline: min_query_count is 1 and target_duration 0, so this ends after the query.
            if (q + 1 >= settings.minQueryCount && relativeNs >= settings.targetDurationMs * NS_PER_MS)
            {
                stop(outcome, StopReason.NATURAL, relativeNs);
                return;
            }
            if (endEarly(outcome, q + 1, relativeNs, settings.maxQueryCount, settings.maxDurationMs * NS_PER_MS))
            {
                return;
            }
        }
        if (!accuracy)
        {
            stop(outcome, StopReason.RAN_OUT, clock.nanoTime() - startNs);
        }
    }

    /**
     * Hands samples {@code [firstSample, firstSample + count)} to the SUT. A throw from the SUT stops the series.
     *
     * @return false if the SUT threw.
     */
    private static boolean issue(final Series series, final long firstSample, final int count, final long relativeNs)
    {
        final TraceQuerySamples samples = series.samples;
        samples.wrap(firstSample, count);
        try
        {
            series.sut.issueQuery(samples, series.sink);
            return true;
        }
        catch (final Throwable t)
        {
            series.outcome.sutFailure = t;
            stop(series.outcome, StopReason.SUT_FAILED, relativeNs);
            return false;
        }
    }

    /**
     * What one series' issue methods share; built before the clock starts.
     */
    private static final class Series
    {
        final Trace trace;
        final SeriesRecorder recorder;
        final EffectiveSettings settings;
        final boolean accuracy;
        final boolean measured;
        final SystemUnderTest sut;
        final EngineResponseSink sink;
        final TraceQuerySamples samples;
        final IssueOutcome outcome;
        final CompletionTarget completionTarget;

        Series(final Trace trace, final SeriesRecorder recorder, final EffectiveSettings settings,
            final boolean accuracy, final boolean measured, final SystemUnderTest sut, final EngineResponseSink sink,
            final TraceQuerySamples samples, final IssueOutcome outcome, final CompletionTarget completionTarget)
        {
            this.trace = trace;
            this.recorder = recorder;
            this.settings = settings;
            this.accuracy = accuracy;
            this.measured = measured;
            this.sut = sut;
            this.sink = sink;
            this.samples = samples;
            this.outcome = outcome;
            this.completionTarget = completionTarget;
        }
    }

    /**
     * What a parked issue thread re-checks before it parks: the completions reached the number it waits for, or the
     * test was aborted. Mutable and reused, so a wait allocates nothing.
     */
    private static final class CompletionTarget implements BooleanSupplier
    {
        final SeriesRecorder recorder;
        private final IssueLoop loop;
        private long targetSamples;
        private boolean stopOnAbort;

        CompletionTarget(final SeriesRecorder recorder, final IssueLoop loop)
        {
            this.recorder = recorder;
            this.loop = loop;
        }

        void target(final long samples, final boolean stopOnAbort)
        {
            this.targetSamples = samples;
            this.stopOnAbort = stopOnAbort;
        }

        @Override
        public boolean getAsBoolean()
        {
            return recorder.completedSamplesVolatile() >= targetSamples || stopOnAbort && loop.abortReason != null;
        }
    }

    private boolean endEarly(final IssueOutcome outcome, final long queriesIssued, final long relativeNs,
        final long maxQueryCount, final long maxDurationNs)
    {
        if (maxQueryCount != 0 && queriesIssued >= maxQueryCount)
        {
            stop(outcome, StopReason.MAX_QUERY_COUNT, relativeNs);
            outcome.stopArg0 = queriesIssued;
            return true;
        }
        if (maxDurationNs != 0 && relativeNs > maxDurationNs)
        {
            stop(outcome, StopReason.MAX_DURATION, relativeNs);
            outcome.stopArg0 = relativeNs;
            return true;
        }
        final String reason = abortReason;
        if (reason != null)
        {
            stop(outcome, StopReason.ABORTED, relativeNs);
            outcome.abortReason = reason;
            return true;
        }
        return false;
    }

    private static void stop(final IssueOutcome outcome, final StopReason reason, final long relativeNs)
    {
        outcome.stopReason = reason;
        outcome.stopRelativeNs = relativeNs;
    }

    /**
     * Waits until {@code target} samples have completed, no completion arrived for {@code timeoutNs}, the deadline
     * passed (when {@code bounded}), or (when {@code stopOnAbort}) an abort was requested.
     *
     * @return whether the target was reached.
     */
    private boolean awaitCompletions(final CompletionTarget completions, final long target, final IdleStrategy idle,
        final long timeoutNs, final long deadlineNs, final boolean bounded, final boolean stopOnAbort)
    {
        final SeriesRecorder recorder = completions.recorder;
        long seen = recorder.completedSamples();
        if (seen >= target)
        {
            return true;
        }
        completions.target(target, stopOnAbort);
        idle.reset();
        long lastProgressNs = clock.nanoTime();
        while (true)
        {
            idle.idle();
            final long done = recorder.completedSamples();
            if (done >= target)
            {
                return true;
            }
            final long nowNs = clock.nanoTime();
            if (done != seen)
            {
                seen = done;
                lastProgressNs = nowNs;
                idle.reset();
            }
            else if (nowNs - lastProgressNs > timeoutNs)
            {
                return false;
            }
            if (bounded && nowNs - deadlineNs > 0)
            {
                return false;
            }
            if (stopOnAbort && abortReason != null)
            {
                return false;
            }
        }
    }

    /**
     * Waits until {@code deadlineNs} with the given strategy.
     *
     * @param deadlineNs a {@code clock.nanoTime()} reading.
     * @param strategy   how to wait.
     * @return the clock reading after the wait (at or after the deadline).
     */
    long waitUntil(final long deadlineNs, final ServerWaitStrategy strategy)
    {
        if (strategy == ServerWaitStrategy.HYBRID)
        {
            hybridWindow.decay();
        }
        long nowNs = clock.nanoTime();
        while (deadlineNs - nowNs > 0)
        {
            switch (strategy)
            {
                case SPIN -> Thread.onSpinWait();
                case YIELD -> Thread.yield();
                case SLEEP -> LockSupport.parkNanos(deadlineNs - nowNs);
                case HYBRID ->
                {
                    final long remainingNs = deadlineNs - nowNs;
                    final long windowNs = hybridWindow.windowNs();
                    if (remainingNs > windowNs)
                    {
                        final long wakeAtNs = deadlineNs - windowNs;
                        LockSupport.parkNanos(remainingNs - windowNs);
                        nowNs = clock.nanoTime();
                        hybridWindow.woke(nowNs - wakeAtNs);
                        continue;
                    }
                    Thread.onSpinWait();
                }
                default -> throw new IllegalStateException("unknown wait strategy " + strategy);
            }
            nowNs = clock.nanoTime();
        }
        return nowNs;
    }
}
