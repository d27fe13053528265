package org.jloadgen.engine;

import java.util.Objects;
import java.util.concurrent.FutureTask;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

import jdk.jfr.FlightRecorder;
import org.HdrHistogram.Recorder;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.ThreadScheduling;
import org.jloadgen.clib.CFormat;
import org.jloadgen.concurrent.JitCompilerThreads;
import org.jloadgen.concurrent.Uninterruptibly;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.issue.IssueOutcome;
import org.jloadgen.issue.JitThreads;
import org.jloadgen.issue.StopReason;
import org.jloadgen.log.DetailLog;
import org.jloadgen.log.ResultsLog;
import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.IssueLatenessLog;
import org.jloadgen.record.SeriesLatencies;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.results.AccuracyLogSampling;
import org.jloadgen.results.DiscardSearch;
import org.jloadgen.results.EarlyStopping;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.results.SeriesEnd;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;
import org.jloadgen.schedule.TraceFill;
import org.jloadgen.schedule.WarmupQueries;

/**
 * The series of one test (LoadGen's {@code IssueQueries} in loadgen/loadgen.cc, spec §3.9): loads a loadable set,
 * generates (or takes) the trace, issues it, logs what happened and computes its results. Holds what a test's series
 * share: the issue loop, the response sink and its completion errors, the sequence ids and the open logs.
 */
final class SeriesRunner
{
    /** Below this span the clock check says nothing (see {@link #checkClocks}). */
    private static final double MIN_CLOCK_CHECK_NS = 100_000_000.0;

    private final SystemUnderTest sut;
    private final String sutName;
    private final QuerySampleLibrary qsl;
    private final EngineOptions options;
    private final IssueLoop issueLoop;
    private final EngineResponseSink sink;
    private final CompletionErrors completionErrors;
    private final TestLogs logs;
    private final DetailLog detail;
    private final RunStatus status;
    private final SequenceGen sequence = new SequenceGen();
    /** The first performance series' settings, set and trace, generated ahead ({@link #prepareFirstTrace}). */
    private EffectiveSettings preparedSettings;
    private LoadableSet preparedSet;
    private Trace preparedTrace;
    private long reportedCompletionErrors;
    private boolean startedUp;
    private long reportedLateCompletions;

    /**
     * @param sut              the system under test.
     * @param sutName          its name, as read once at the start.
     * @param qsl              its sample library.
     * @param options          the engine options.
     * @param issueLoop        the test's issue loop.
     * @param sink             the response sink the SUT completes into.
     * @param completionErrors the sink's completion errors.
     * @param logs             the test's open logs.
     * @param status           where the running series is shown.
     */
    SeriesRunner(final SystemUnderTest sut, final String sutName, final QuerySampleLibrary qsl,
        final EngineOptions options, final IssueLoop issueLoop, final EngineResponseSink sink,
        final CompletionErrors completionErrors, final TestLogs logs, final RunStatus status)
    {
        this.sut = Objects.requireNonNull(sut, "sut");
        this.sutName = sutName;
        this.qsl = Objects.requireNonNull(qsl, "qsl");
        this.options = options;
        this.issueLoop = issueLoop;
        this.sink = sink;
        this.completionErrors = completionErrors;
        this.logs = logs;
        this.detail = logs.detail();
        this.status = status;
    }

    /**
     * @return whether the test was aborted (no further series should start).
     */
    boolean aborted()
    {
        return issueLoop.aborted();
    }

    /**
     * @param settings effective settings.
     * @return the performance run's loadable set (the first of the generated sets).
     */
    LoadableSet performanceSet(final EffectiveSettings settings)
    {
        if (preparedSettings == settings)
        {
            return preparedSet;
        }
        return LoadableSets.generate(settings.performanceSampleCount, qsl.totalSampleCount(),
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed).get(0);
    }

    /**
     * Logs {@code loaded_qsl_set} and loads the set into the sample library.
     *
     * @param set the samples to load.
     */
    void load(final LoadableSet set)
    {
        detail.log("loaded_qsl_set", set.indices());
        status.preparing(String.format(java.util.Locale.ROOT, "loading %,d samples", set.size()));
        qsl.loadSamplesToRam(set.indices());
    }

    /**
     * @param set the samples to unload.
     */
    void unload(final LoadableSet set)
    {
        qsl.unloadSamplesFromRam(set.indices());
    }

    /**
     * Loads the set, runs one series on it, and unloads it.
     */
    SeriesRun loadRunUnload(final EffectiveSettings settings, final LoadableSet set, final TestMode seriesMode)
    {
        load(set);
        try
        {
            return run(settings, set, seriesMode);
        }
        finally
        {
            unload(set);
        }
    }

    /**
     * One series on a loaded set: accuracy-log offset, generation, issue, logs, results.
     */
    SeriesRun run(final EffectiveSettings settings, final LoadableSet set, final TestMode seriesMode)
    {
        final Trace prepared = preparedSettings == settings && preparedSet == set
            && seriesMode == TestMode.PERFORMANCE_ONLY ? preparedTrace : null;
        if (prepared != null)
        {
            // Taken over: the discard below forgets it without closing it.
            preparedTrace = null;
        }
        discardPreparedTrace();
        if (prepared != null)
        {
            return runTrace(settings, prepared, seriesMode, false);
        }
        status.preparing("generating the trace");
        return runTrace(settings, generate(settings, set, seriesMode), seriesMode, false);
    }

    /**
     * Generates the first performance series' loadable set and trace now, as {@link #performanceSet} and
     * {@link #run} would (the same draws from the same generators: nothing else draws from them before), so that
     * the engine's warm-up can do it inside its budget (TestRunner). A later {@link #run} of those settings on that
     * set in performance mode issues it; any other first series discards it.
     *
     * @param settings the test's effective settings (PerformanceOnly, a generated trace).
     * @throws IllegalStateException if a series has been generated already.
     */
    void prepareFirstTrace(final EffectiveSettings settings)
    {
        // Every series draws at least one sample id: none drawn yet means this is the test's first trace.
        if (sequence.nextSampleId() != 0 || preparedTrace != null)
        {
            throw new IllegalStateException("only the test's first trace is generated ahead");
        }
        final LoadableSet set = performanceSet(settings);
        preparedTrace = generate(settings, set, TestMode.PERFORMANCE_ONLY);
        preparedSet = set;
        preparedSettings = settings;
    }

    /**
     * Closes a trace generated ahead that no series issued (the test ended before its first series, or that series
     * was another); nothing when there is none.
     */
    void discardPreparedTrace()
    {
        final Trace trace = preparedTrace;
        preparedTrace = null;
        preparedSettings = null;
        preparedSet = null;
        if (trace != null)
        {
            trace.close();
        }
    }

    private Trace generate(final EffectiveSettings settings, final LoadableSet set, final TestMode seriesMode)
    {
        final boolean performance = seriesMode == TestMode.PERFORMANCE_ONLY;
        final double accuracyLogOffset = StdRandom.uniformReal01(new Mt19937(settings.accuracyLogRngSeed));
        final double probability = performance ? AccuracyLogSampling.probability(settings) : 1.0;
        // A long SingleStream or MultiStream performance trace is generated while its series runs (TraceFill).
        return QueryGenerator.generate(settings, set, seriesMode, sequence,
            new QueryGenerator.AccuracyLogSelection(accuracyLogOffset, probability), options.allocator(),
            performance && !options.generateAhead() ? QueryGenerator.MIN_STREAMED_QUERIES : Long.MAX_VALUE);
    }

    /**
     * A performance series that replays recorded queries on a loaded set.
     */
    SeriesRun runReplay(final EffectiveSettings settings, final ReplayQueries replay, final LoadableSet set)
    {
        discardPreparedTrace();
        status.preparing("building the replayed trace");
        return runTrace(settings, replay.toTrace(set, sequence, options.allocator()), TestMode.PERFORMANCE_ONLY,
            true);
    }

    /**
     * Issues a generated (or replayed) trace and logs what happened; closes the trace.
     */
    private SeriesRun runTrace(final EffectiveSettings settings, final Trace trace, final TestMode seriesMode,
        final boolean replayed)
    {
        final boolean performance = seriesMode == TestMode.PERFORMANCE_ONLY;
        final RunFiles files = logs.files();
        try (trace)
        {
            detail.stamp();
            detail.log("generated_query_count", trace.queryCount());
            detail.log("generated_samples_per_query", (long)trace.samplesPerQuery());
            detail.log("generated_query_duration", trace.durationNs());
            detail.unstamp();

            status.preparing(options.startupMs() > 0 && !startedUp ? "SyLT start-up: the SUT idles"
                : "preparing the recorders");
            startUp();
            final String label = "series: " + settings.scenario + " " + seriesMode + " target_qps "
                + CFormat.stdToString(settings.targetQps);
            final Recorder histogram = performance && logs.latencyLog() != null
                ? logs.latencyLog().startSeries(label) : null;
            final IssueLatenessLog lateness = performance ? logs.issueLatenessLog() : null;
            final boolean warm = performance && settings.scenario == TestScenario.SERVER && options.warmupMs() > 0;
            // Generated after the measured trace, so the measured queries keep the ids LoadGen gives them.
            try (Trace warmupTrace = warm ? WarmupQueries.generate(settings, trace.loadableSet(),
                    options.warmupMs() * 1_000_000L, sequence, options.allocator()) : null;
                SeriesRecorder warmup = warm ? new SeriesRecorder(warmupTrace, settings.useTokenLatencies,
                    completionErrors, null, null, false, options.allocator()) : null;
                SeriesRecorder recorder = new SeriesRecorder(trace, settings.useTokenLatencies, completionErrors,
                    logs.accuracyCollector(), histogram, logs.keepsIssueTimes(performance),
                    options.allocator()))
            {
                if (warmupTrace != null)
                {
                    detail.log("generic_message", "SyLT warm-up: " + warmupTrace.queryCount()
                        + " queries at the target rate over the first " + options.warmupMs()
                        + " ms, before the measured queries; their latencies are excluded");
                }
                if (performance && settings.printTimestamps)
                {
                    logs.console().println("Loadgen :: Perf mode start. system_clock Timestamp = "
                        + System.currentTimeMillis() / 1000);
                }
                // Created before the clock starts; begin() reads the clock, commit() runs after the series.
                status.series(settings.scenario + " " + seriesMode + String.format(java.util.Locale.ROOT,
                    ", target %,.0f QPS", settings.targetQps), performance ? settings.minDurationMs : 0,
                    performance ? Math.max(0, settings.minSampleCount) : 0);
                // Only while the flight recorder runs (--jfr, -XX:StartFlightRecording, jcmd JFR.start): the event
                // class's first use sets JFR's machinery up, which a process without a recording need not pay for.
                final SeriesEvent event = FlightRecorder.isInitialized() ? new SeriesEvent() : null;
                if (event != null)
                {
                    event.series = label;
                }
                final boolean lowerJit = performance
                    && JitThreads.resolve(options.jitThreads(), settings.scenario).lowers();
                if (performance)
                {
                    // The warm-up and this series' preparation leave the young generation partly full, and the few
                    // allocations of the log threads while the clock runs then met a collection: a 10 ms young pause
                    // 1 s into a 10k-QPS Server run, every thread stopped (-Xlog:gc, ftrace). Collected here, the run
                    // starts with the young generation empty.
                    System.gc();
                }
                final JitCompilerThreads.Lowered jit = lowerJit ? JitCompilerThreads.lower()
                    : JitCompilerThreads.Lowered.NONE;
                final TraceFill fill = trace.fill();
                // Early stopping's search, in steps on the filling thread while the run goes (DiscardSearch).
                final DiscardsBeside discardsBeside = fill != null && performance && !settings.useTokenLatencies
                    && searchesDiscards(settings.scenario) ? new DiscardsBeside(settings) : null;
                if (fill != null)
                {
                    if (discardsBeside != null)
                    {
                        fill.runBeside(discardsBeside);
                    }
                    startFilling(fill);
                }
                if (event != null)
                {
                    event.begin();
                }
                final IssueOutcome outcome;
                try
                {
                    outcome = issueLoop.run(trace, recorder, settings, seriesMode, sut, sink, warmup);
                }
                finally
                {
                    jit.close();
                    if (fill != null)
                    {
                        fill.stopAndAwait();
                    }
                }
                if (fill != null)
                {
                    logFill(fill, trace);
                }
                if (event != null)
                {
                    event.end();
                }
                status.preparing("computing the results and writing the logs");
                if (event != null)
                {
                    event.queriesIssued = outcome.queriesIssued();
                    event.commit();
                }
                if (logs.latencyLog() != null && histogram != null)
                {
                    logs.latencyLog().endSeries();
                }
                logOutcome(outcome);
                if (lateness != null && recorder.issueTimes().tracksIssueTimes())
                {
                    lateness.writeSeries(label, recorder, outcome.queriesIssued(), outcome.startEpochNs());
                }
                if (files.traceWriter() != null)
                {
                    files.traceWriter().series(trace, recorder, outcome);
                }

                // Early stopping's discard counts depend on the queries issued only: searched on another thread
                // while this one collects the latencies (about a second for the search after a VALID 10 s null-SUT
                // SingleStream run, unless the filling thread took it most of the way while the run went).
                final FutureTask<EarlyStopping.Discards> discards = performance && !settings.useTokenLatencies
                    ? discardsAhead(settings, outcome.queriesIssued(), discardsBeside) : null;
                final SeriesLatencies.Collected collected = SeriesLatencies.collect(trace, recorder,
                    outcome.queriesIssued(), outcome.samplesIssued(), outcome.lastQuery(),
                    outcome.lastIssuedRelativeNs(), settings.useTokenLatencies, completionErrors,
                    SeriesLatencies.COUNTED_FROM_SAMPLES);
                logCompletionErrors();
                if (outcome.warmupSamplesMissing() > 0)
                {
                    logs.error(outcome.warmupSamplesMissing() + " issued warm-up samples never completed.");
                }
                if (collected.missingSamples() > 0)
                {
                    logs.error(collected.missingSamples() + " issued samples never completed (first response id "
                        + collected.firstMissingId() + ").");
                }
                if (collected.failedSamples() > 0)
                {
                    // The SUT's counting policy: a warning, not an error; the summary and the detail log count them.
                    logs.warning(collected.failedSamples() + " issued samples failed (first response id "
                        + collected.firstFailedId() + "); the SUT counted them and went on, and the results cover "
                        + "the completed samples only.");
                }
                logLateCompletions();
                ResultsLog.logLoggerCounters(detail);
                ResultsLog.logPower(detail, outcome.startEpochNs(), collected.maxCompletionRelativeNs());
                if (performance)
                {
                    checkClocks(outcome, settings.printTimestamps);
                }
                // Every number is computed here, while the slots holding the latencies still exist.
                final SeriesEnd end = new SeriesEnd(outcome.samplesIssued(), collected.missingSamples(),
                    outcome.stoppedBecause(), collected.failedSamples());
                return new SeriesRun(settings, new PerformanceSummary(sutName, settings, collected.result(), end,
                    replayed, discards == null ? null
                    : Uninterruptibly.get(discards, "early stopping's search")));
            }
        }
    }

    /**
     * @return whether the scenario's early stopping searches for a number of latencies to discard.
     */
    private static boolean searchesDiscards(final TestScenario scenario)
    {
        return scenario == TestScenario.SINGLE_STREAM || scenario == TestScenario.MULTI_STREAM;
    }

    /**
     * Early stopping's discard search, advanced by the trace's filling thread to the queries issued so far. The
     * filling thread stops before the series' results are computed, which orders its steps before the last one.
     */
    private static final class DiscardsBeside implements LongConsumer
    {
        private final EffectiveSettings settings;
        /** Made before the clock starts: its steps allocate nothing, its construction does. */
        private DiscardSearch search;

        DiscardsBeside(final EffectiveSettings settings)
        {
            this.settings = settings;
            this.search = new DiscardSearch(settings.scenario, settings.targetLatencyPercentile);
        }

        @Override
        public void accept(final long queriesIssued)
        {
            final DiscardSearch s = search;
            if (s == null)
            {
                return;
            }
            try
            {
                s.advance(queriesIssued);
            }
            catch (final RuntimeException ex)
            {
                // Not the trace's failure: the search runs again after the series, where its error is reported.
                search = null;
            }
        }

        EarlyStopping.Discards discards(final long queriesIssued)
        {
            return search != null ? search.discards(queriesIssued)
                : EarlyStopping.discards(settings.scenario, settings.targetLatencyPercentile, queriesIssued);
        }
    }

    private static FutureTask<EarlyStopping.Discards> discardsAhead(final EffectiveSettings settings,
        final long queriesIssued, final DiscardsBeside beside)
    {
        if (!searchesDiscards(settings.scenario))
        {
            return null;
        }
        final FutureTask<EarlyStopping.Discards> task = new FutureTask<>(() -> beside != null
            ? beside.discards(queriesIssued)
            : EarlyStopping.discards(settings.scenario, settings.targetLatencyPercentile, queriesIssued));
        Thread.ofPlatform().daemon().name("jloadgen-early-stopping").start(task);
        return task;
    }

    /**
     * Starts the thread that generates the rest of the trace while the series runs. It runs only when a CPU would
     * otherwise idle ({@code SCHED_IDLE} where the native library is loaded), so that it takes no CPU time from the
     * SUT's threads or the engine's: a run that outpaces it waits, and says so in the detail log. (Pinned away from
     * the issue thread's CPU instead, it made SingleStream's p99.9 four times worse: 289-427 ns against 69-81 ns in 3
     * runs each; the issue thread does not stay on the CPU it starts on.)
     */
    private static void startFilling(final TraceFill fill)
    {
        final Thread thread = Thread.ofPlatform().daemon().name("jloadgen-trace-fill").unstarted(() ->
        {
            ThreadScheduling.tryRunOnlyWhenIdle();
            fill.run();
        });
        thread.start();
    }

    private void logFill(final TraceFill fill, final Trace trace)
    {
        detail.log("generic_message", String.format(java.util.Locale.ROOT,
            "Generated %d of %d queries while the series ran, from a head start of %d; the issue thread waited "
                + "for them %d times, %.3f ms in all", fill.readyQueries(), trace.queryCount(),
            Math.min(trace.queryCount(), TraceFill.HEAD_START_QUERIES), fill.waits(), fill.waitedNs() / 1e6));
        if (fill.waits() > 0)
        {
            logs.warning("The issue thread waited " + fill.waits() + " times for queries still being generated ("
                + String.format(java.util.Locale.ROOT, "%.3f", fill.waitedNs() / 1e6) + " ms in all): the SUT "
                + "kept every CPU busy; the queries issued are LoadGen's, but fewer of them.");
        }
        if (fill.failure() != null)
        {
            throw new IllegalStateException("generating the trace failed: " + fill.failure(), fill.failure());
        }
    }

    /**
     * SyLT's start-up period, once per test, after the first series' samples are loaded and its trace generated:
     * the SUT idles before the first query. It passes on the real clock (nothing is measured in it) and ends
     * early when the test is aborted.
     */
    private void startUp()
    {
        if (startedUp || options.startupMs() <= 0)
        {
            startedUp = true;
            return;
        }
        startedUp = true;
        detail.log("generic_message", "SyLT start-up: the SUT idles for " + options.startupMs()
            + " ms before the first query");
        final long deadlineNs = System.nanoTime() + options.startupMs() * 1_000_000L;
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0 && !issueLoop.aborted())
        {
            LockSupport.parkNanos(Math.min(remainingNs, 10_000_000L));
        }
    }

    private void logOutcome(final IssueOutcome outcome)
    {
        final String message = outcome.stopMessage();
        if (message != null)
        {
            detail.stamp(outcome.startNs() + outcome.stopRelativeNs());
            if (outcome.stopReason().isError())
            {
                logs.error(message);
            }
            else
            {
                detail.log("generic_message", message);
            }
            detail.unstamp();
        }
        if (outcome.flushFailure() != null)
        {
            logs.error("The SUT threw from FlushQueries: " + outcome.flushFailure());
        }
        // A failure without a stack (a SUT's report, its message complete) is not printed twice.
        if (outcome.stopReason() == StopReason.SUT_FAILED && outcome.sutFailure() != null
            && outcome.sutFailure().getStackTrace().length > 0)
        {
            logs.message("SUT failure stack trace: " + stackTrace(outcome.sutFailure()));
        }
    }

    private void logCompletionErrors()
    {
        if (completionErrors.total() == reportedCompletionErrors)
        {
            return;
        }
        for (final String line : completionErrors.describe())
        {
            logs.error(line);
        }
        reportedCompletionErrors = completionErrors.total();
    }

    /**
     * Samples of a series cut short that completed after the engine stopped waiting: counted once, as never
     * completed, and said here so that the count in the error above is not a mystery.
     */
    private void logLateCompletions()
    {
        final long late = completionErrors.count(CompletionErrors.Kind.LATE);
        if (late > reportedLateCompletions)
        {
            detail.log("generic_message", (late - reportedLateCompletions) + " samples completed after the engine "
                + "stopped waiting for them; they count as never completed.");
            reportedLateCompletions = late;
        }
    }

    private void checkClocks(final IssueOutcome outcome, final boolean printTimestamps)
    {
        // LoadGen compares whole milliseconds; nanoseconds read side by side keep short runs from tripping the 1%
        // bound by rounding.
        final double perfClockNs = outcome.endNs() - outcome.startNs();
        final double systemNs = outcome.endEpochNs() - outcome.startEpochNs();
        final float ratio = systemNs <= 0 ? 1.0f : (float)(perfClockNs / systemNs);
        if (printTimestamps)
        {
            logs.console().println("Loadgen :: Perf mode stop. systme_clock Timestamp = "
                + System.currentTimeMillis() / 1000);
            logs.console().println("Loadgen :: Perf mode duration: " + (long)(perfClockNs / 1e6) + " ms, pc_sc_ratio: "
                + ratio);
        }
        if (systemNs < MIN_CLOCK_CHECK_NS)
        {
            // A series cut short within its first milliseconds (an abort as it starts): microseconds between the
            // two clocks' reads are over 1% of it, and LoadGen's whole milliseconds would read 0 / 0 here.
            return;
        }
        if (ratio > 1.01 || ratio < 0.99)
        {
            detail.error("error_runtime", "PerfClock and system_clock differ by more than 1%!  pc_sc_ratio: " + ratio);
        }
        else if (ratio > 1.001 || ratio < 0.999)
        {
            detail.warning("warning_generic_message",
                "PerfClock and system_clock differ by more than 0.1%!  pc_sc_ratio: " + ratio);
        }
    }

    private static String stackTrace(final Throwable t)
    {
        final java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }
}
