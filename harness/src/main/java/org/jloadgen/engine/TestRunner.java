package org.jloadgen.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.HdrHistogram.Recorder;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.ConfigException;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.config.SettingsLoader;
import org.jloadgen.log.SettingsLog;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.issue.IssueOutcome;
import org.jloadgen.issue.StopReason;
import org.jloadgen.log.DetailLog;
import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;
import org.jloadgen.record.AccuracyLogCollector;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.LatencyIntervalLog;
import org.jloadgen.record.SeriesLatencies;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.log.ResultsLog;
import org.jloadgen.results.AccuracyLogSampling;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;

/**
 * One test, start to end: LoadGen's {@code StartTest} (spec §3.9). Opens the log files, logs versions and
 * settings, applies audit.config, runs the mode (accuracy sets, the performance run, both, or the
 * FindPeakPerformance search), logs each series and its results, and closes every file completely even when
 * the SUT misbehaves or the test is aborted. Not reusable: one instance per test.
 */
public final class TestRunner
{
    private static final DateTimeFormatter TEST_DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");
    private static final String AUDIT_WARNING =
        "Found Audit Config file (%s). Overriding TestSettings from audit.config file.";

    private final SystemUnderTest sut;
    private final QuerySampleLibrary qsl;
    private final TestSettings requested;
    private final LogSettings logSettings;
    private final EngineOptions options;
    private final Path auditConfig;
    private final List<String> configErrors;
    private final IssueLoop issueLoop;
    private final SequenceGen sequence = new SequenceGen();
    private final CompletionErrors completionErrors = new CompletionErrors();
    private final EngineResponseSink sink;
    private final List<String> messages = new ArrayList<>();
    private final List<PerformanceSummary> reported = new ArrayList<>();
    private final PrintStream console;

    private ReplayQueries replay;
    private RunFiles files;
    private DetailLog detail;
    private AccuracyLogCollector accuracyCollector;
    private LatencyIntervalLog latencyLog;
    private String sutName;
    private int accuracySeries;
    private long reportedCompletionErrors;

    /**
     * @param sut          the system under test.
     * @param qsl          its sample library.
     * @param requested    the requested settings (after mlperf.conf / user.conf / command line).
     * @param logSettings  where the logs go.
     * @param options      JLoadGen's engine options.
     * @param auditConfig  the audit.config to apply if it exists (LoadGen: {@code audit.config} in the working
     *                     directory), or {@code null} for none.
     * @param configErrors {@code error_invalid_config} messages from a lenient settings load, logged at the start.
     * @param console      where {@code print_timestamps} and the summary/detail copies go.
     */
    public TestRunner(
        final SystemUnderTest sut,
        final QuerySampleLibrary qsl,
        final TestSettings requested,
        final LogSettings logSettings,
        final EngineOptions options,
        final Path auditConfig,
        final List<String> configErrors,
        final PrintStream console)
    {
        this.sut = Objects.requireNonNull(sut, "sut");
        this.qsl = Objects.requireNonNull(qsl, "qsl");
        this.requested = requested.copy();
        this.logSettings = logSettings.copy();
        this.options = options.copy();
        this.auditConfig = auditConfig;
        this.configErrors = List.copyOf(configErrors);
        this.console = console;
        this.issueLoop = new IssueLoop(this.options);
        this.sink = new EngineResponseSink(SeriesRecorder.retired(completionErrors), this.options.clock());
        sink.onFailure(t -> issueLoop.abort("SUT reported a failure: " + t));
    }

    /**
     * Stops the test after the query being issued (any thread); the logs are still written completely and the
     * summary says why the run is INVALID.
     *
     * @param reason what to log.
     */
    public void abort(final String reason)
    {
        issueLoop.abort(reason);
    }

    /**
     * Makes the test replay a trace of timestamped queries instead of generating one: a Server-style
     * performance run where every query goes out at its recorded time and latency counts from that time. The
     * requested {@code server_target_qps} is set to the trace's own rate, for the record.
     *
     * @param queries the trace.
     * @return this.
     */
    public TestRunner replay(final ReplayQueries queries)
    {
        if (requested.scenario() != TestScenario.SERVER || requested.mode() != TestMode.PERFORMANCE_ONLY)
        {
            throw new IllegalArgumentException("a trace replays as a Server PerformanceOnly run; got "
                + requested.scenario() + " " + requested.mode());
        }
        if (queries.maxIndex() >= qsl.totalSampleCount())
        {
            throw new IllegalArgumentException(queries.source() + ": QSL index " + queries.maxIndex()
                + " is outside the sample library's " + qsl.totalSampleCount() + " samples");
        }
        final double seconds = queries.lastOffsetNs() / 1e9;
        if (seconds > 0 && queries.sampleCount() > 1)
        {
            requested.serverTargetQps((queries.sampleCount() - 1) / seconds);
        }
        this.replay = queries;
        return this;
    }

    /**
     * Runs the test.
     *
     * @return what it produced.
     * @throws UncheckedIOException if the log files cannot be created (nothing has run then).
     */
    public TestResult run()
    {
        final String testDatetime = LocalDateTime.now().format(TEST_DATETIME);
        files = RunFiles.open(logSettings, testDatetime, options.latencyHistogram(), requested.scenario(),
            requested.useTokenLatencies(), console, options.clock());
        final org.agrona.concurrent.NanoClock clock = options.clock();
        detail = new DetailLog(files.detail(), logSettings.copyDetailToStdout() ? console : null, clock::nanoTime);
        EffectiveSettings effective = null;
        try
        {
            detail.origin(clock.nanoTime());
            accuracyCollector = new AccuracyLogCollector(files.accuracyConsumer(),
                AccuracyLogCollector.DEFAULT_CAPACITY_BYTES);
            latencyLog = files.latencyLogPath() == null ? null
                : new LatencyIntervalLog(files.latencyLogPath(), options.histogramIntervalMs());

            final long nameStartNs = clock.nanoTime();
            sutName = sut.name();
            final long nameDurationNs = clock.nanoTime() - nameStartNs;

            detail.stamp();
            detail.log("loadgen_version", VersionInfo.version() + " @ NA");
            detail.log("loadgen_build_date_local", VersionInfo.buildDateLocal());
            detail.log("loadgen_build_date_utc", VersionInfo.buildDateUtc());
            detail.log("loadgen_git_commit_date", "NA");
            detail.log("loadgen_git_log_message", "NA");
            detail.log("loadgen_git_status_message", "NA");
            detail.log("loadgen_file_sha1", VersionInfo.codeSha1());
            detail.stamp();
            detail.log("test_datetime", testDatetime);
            detail.log("sut_name", sutName);
            detail.log("get_sut_name_duration_ns", nameDurationNs);
            detail.log("qsl_name", qsl.name());
            detail.log("qsl_reported_total_count", qsl.totalSampleCount());
            detail.log("qsl_reported_performance_count", qsl.performanceSampleCount());
            detail.unstamp();
            SettingsLog.logConfigErrors(detail, configErrors);

            final TestSettings settings = requested.copy();
            if (auditConfig != null && Files.isRegularFile(auditConfig))
            {
                detail.warning("warning_generic_message", String.format(AUDIT_WARNING, auditConfig.getFileName()));
                try
                {
                    SettingsLog.logConfigErrors(detail, new SettingsLoader(SettingsLoader.Strictness.LENIENT,
                        d -> console.println("jloadgen: " + d)).applyAudit(auditConfig, settings.scenario(), settings));
                }
                catch (final ConfigException ex)
                {
                    detail.error("error_invalid_config", ex.getMessage());
                }
            }
            if (settings.test05())
            {
                settings.mode(TestMode.PERFORMANCE_ONLY)
                    .qslRngSeed(settings.test05QslRngSeed())
                    .sampleIndexRngSeed(settings.test05SampleIndexRngSeed())
                    .scheduleRngSeed(settings.test05ScheduleRngSeed());
                detail.warning("warning_generic_message", "Test05 flag detected Overriding random seeds");
            }

            effective = new EffectiveSettings(settings, qsl.totalSampleCount(), qsl.performanceSampleCount());
            SettingsLog.logAll(detail, settings, effective);
            pinIssueThread();
            Warmup.run(effective.scenario, options, options.warmupMs());

            switch (effective.mode)
            {
                case PERFORMANCE_ONLY ->
                {
                    if (replay != null)
                    {
                        runReplay(effective);
                    }
                    else
                    {
                        runPerformance(effective);
                    }
                }
                case ACCURACY_ONLY -> runAccuracy(effective);
                case SUBMISSION_RUN ->
                {
                    runAccuracy(effective);
                    if (!issueLoop.aborted())
                    {
                        runPerformance(effective);
                    }
                }
                case FIND_PEAK_PERFORMANCE -> runFindPeak(effective);
                default -> throw new IllegalStateException("unknown mode " + effective.mode);
            }
        }
        catch (final RuntimeException ex)
        {
            // Whatever broke, the logs say so and are closed completely.
            detail.error("error_runtime", "JLoadGen stopped the test: " + ex);
            messages.add("error: " + ex);
            throw ex;
        }
        finally
        {
            finish();
        }
        return new TestResult(effective, List.copyOf(reported), accuracySeries, files.summary(), files.detail(),
            files.accuracy(), files.trace(), files.latencyLogPath(), detail.errorCount(), detail.warningCount(),
            List.copyOf(messages));
    }

    /**
     * Pins the calling (issue) thread to {@link EngineOptions#issueCpu()} if one is set; a refusal is a console
     * warning, not an error: the run is still valid, only noisier.
     */
    private void pinIssueThread()
    {
        if (options.issueCpu() < 0)
        {
            return;
        }
        final java.util.BitSet cpus = new java.util.BitSet();
        cpus.set(options.issueCpu());
        if (!org.jloadgen.bindings.ThreadAffinity.tryPinCurrentThread(cpus))
        {
            console.println("jloadgen: warning: could not pin the issue thread to CPU " + options.issueCpu());
        }
    }

    /**
     * Writes the logs of a test that could not start (for example the SUT's model failed to load): the version
     * and date records, the reason as an {@code error_runtime} record, and a summary whose trailer counts it,
     * so whoever reads the output directory sees why nothing ran.
     *
     * @param logSettings where the logs go.
     * @param requested   the requested settings.
     * @param reason      why the test could not start.
     * @param console     where a summary copy goes, if requested.
     * @return the summary file.
     */
    public static Path recordStartFailure(final LogSettings logSettings, final TestSettings requested,
        final String reason, final PrintStream console)
    {
        final String testDatetime = LocalDateTime.now().format(TEST_DATETIME);
        final RunFiles files = RunFiles.open(logSettings, testDatetime, false, requested.scenario(),
            requested.useTokenLatencies(), console, org.agrona.concurrent.SystemNanoClock.INSTANCE);
        final DetailLog log = new DetailLog(files.detail(), logSettings.copyDetailToStdout() ? console : null,
            System::nanoTime);
        try
        {
            log.stamp();
            log.log("loadgen_version", VersionInfo.version() + " @ NA");
            log.log("test_datetime", testDatetime);
            log.unstamp();
            log.error("error_runtime", reason);
        }
        finally
        {
            files.close(log);
            log.close();
        }
        return files.summary();
    }

    private void runPerformance(final EffectiveSettings settings)
    {
        detail.log("generic_message", "Starting performance mode");
        final LoadableSet set = performanceSet(settings);
        final SeriesRun run = loadRunUnload(settings, set, TestMode.PERFORMANCE_ONLY);
        report(run);
    }

    private void runReplay(final EffectiveSettings settings)
    {
        detail.log("generic_message", "Starting performance mode");
        detail.log("generic_message", "Replaying " + replay.queryCount() + " queries (" + replay.sampleCount()
            + " samples) from " + replay.source());
        final LoadableSet set = replay.loadableSet();
        detail.log("loaded_qsl_set", set.indices());
        qsl.loadSamplesToRam(set.indices());
        try
        {
            report(runTrace(settings, replay.toTrace(set, sequence, options.allocator()), TestMode.PERFORMANCE_ONLY));
        }
        finally
        {
            qsl.unloadSamplesFromRam(set.indices());
        }
    }

    private void runAccuracy(final EffectiveSettings settings)
    {
        detail.log("generic_message", "Starting accuracy mode");
        final List<LoadableSet> sets = LoadableSets.generate(settings.accuracySampleCount, qsl.totalSampleCount(),
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed);
        for (final LoadableSet set : sets)
        {
            if (issueLoop.aborted())
            {
                return;
            }
            loadRunUnload(settings, set, TestMode.ACCURACY_ONLY);
            accuracySeries++;
        }
    }

    /**
     * FindPeakPerformance (spec §3.7): double the target until the latency constraint fails, then bisect.
     */
    private void runFindPeak(final EffectiveSettings base)
    {
        if (base.scenario != TestScenario.SERVER)
        {
            detail.error("error_invalid_config", "Finding peak performance is only supported in Server scenarios.");
            return;
        }
        detail.log("generic_message", "Starting FindPeakPerformance mode");
        final SeriesRun first = loadRunUnload(base, performanceSet(base), TestMode.PERFORMANCE_ONLY);
        if (!first.summary().perfConstraintsMet())
        {
            detail.error("error_runtime", "FindPeakPerformance: Initial lower bound does not satisfy performance "
                + "constraints, msg: " + first.summary().perfConstraintsRecommendation());
            report(first);
            return;
        }

        SeriesRun lower = first;
        SeriesRun upper;
        while (true)
        {
            final EffectiveSettings u = lower.settings().withTargetQps(
                lower.settings().targetQps * (1 + base.serverFindPeakQpsBoundaryStepSize));
            detail.log("generic_message", "FindBoundaries: Checking fields [" + toStdString(lower.settings().targetQps)
                + ", " + toStdString(u.targetQps) + ")");
            upper = loadRunUnload(u, performanceSet(u), TestMode.PERFORMANCE_ONLY);
            if (issueLoop.aborted() || !upper.summary().perfConstraintsMet())
            {
                break;
            }
            lower = upper;
        }
        detail.log("generic_message", "FindPeakPerformance: Found boundaries: [" + toStdString(lower.settings().targetQps)
            + ", " + toStdString(upper.settings().targetQps) + ")");

        // The binary search keeps the upper bound's first loadable set loaded throughout, as LoadGen does.
        final LoadableSet set = performanceSet(upper.settings());
        detail.log("loaded_qsl_set", set.indices());
        qsl.loadSamplesToRam(set.indices());
        try
        {
            final double scale = Math.pow(10, base.serverFindPeakQpsDecimalsOfPrecision);
            while (!issueLoop.aborted()
                && Math.floor(lower.settings().targetQps * scale) + 1 < Math.floor(upper.settings().targetQps * scale))
            {
                final double lo = lower.settings().targetQps;
                final double hi = upper.settings().targetQps;
                final EffectiveSettings mid = base.withTargetQps(lo + (hi - lo) / 2);
                detail.log("generic_message", "FindPeakPerformanceBinarySearch: Testing the mid value of bounds ["
                    + toStdString(lo) + ", " + toStdString(hi) + "): " + toStdString(mid.targetQps));
                final SeriesRun m = runSeries(mid, set, TestMode.PERFORMANCE_ONLY);
                if (m.summary().perfConstraintsMet())
                {
                    lower = m;
                }
                else
                {
                    upper = m;
                }
            }
            detail.log("generic_message", "FindPeakPerformance: Found peak performance field: "
                + toStdString(lower.settings().targetQps));
            report(lower);
        }
        finally
        {
            qsl.unloadSamplesFromRam(set.indices());
        }
    }

    private LoadableSet performanceSet(final EffectiveSettings settings)
    {
        return LoadableSets.generate(settings.performanceSampleCount, qsl.totalSampleCount(),
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed).get(0);
    }

    private SeriesRun loadRunUnload(final EffectiveSettings settings, final LoadableSet set, final TestMode seriesMode)
    {
        detail.log("loaded_qsl_set", set.indices());
        qsl.loadSamplesToRam(set.indices());
        try
        {
            return runSeries(settings, set, seriesMode);
        }
        finally
        {
            qsl.unloadSamplesFromRam(set.indices());
        }
    }

    /**
     * One series (LoadGen's {@code IssueQueries}): accuracy-log offset, generation, issue, logs, results.
     */
    private SeriesRun runSeries(final EffectiveSettings settings, final LoadableSet set, final TestMode seriesMode)
    {
        final boolean performance = seriesMode == TestMode.PERFORMANCE_ONLY;
        final double accuracyLogOffset = StdRandom.uniformReal01(new Mt19937(settings.accuracyLogRngSeed));
        final double probability = performance ? AccuracyLogSampling.probability(settings) : 1.0;

        return runTrace(settings, QueryGenerator.generate(settings, set, seriesMode, sequence,
            new QueryGenerator.AccuracyLogSelection(accuracyLogOffset, probability), options.allocator()), seriesMode);
    }

    /**
     * Issues a generated (or replayed) trace and logs what happened; closes the trace.
     */
    private SeriesRun runTrace(final EffectiveSettings settings, final Trace trace, final TestMode seriesMode)
    {
        final boolean performance = seriesMode == TestMode.PERFORMANCE_ONLY;
        try (trace)
        {
            detail.stamp();
            detail.log("generated_query_count", trace.queryCount());
            detail.log("generated_samples_per_query", (long)trace.samplesPerQuery());
            detail.log("generated_query_duration", trace.durationNs());
            detail.unstamp();

            final Recorder histogram = performance && latencyLog != null
                ? latencyLog.startSeries("series: " + settings.scenario + " " + seriesMode + " target_qps "
                    + toStdString(settings.targetQps)) : null;
            final long errorsBefore = completionErrors.total();
            try (SeriesRecorder recorder = new SeriesRecorder(trace, settings.useTokenLatencies, completionErrors,
                accuracyCollector, histogram, files.traceWriter() != null, options.allocator()))
            {
                if (performance && settings.printTimestamps)
                {
                    console.println("Loadgen :: Perf mode start. system_clock Timestamp = "
                        + System.currentTimeMillis() / 1000);
                }
                final IssueOutcome outcome = issueLoop.run(trace, recorder, settings, seriesMode, sut, sink);
                if (latencyLog != null && histogram != null)
                {
                    latencyLog.endSeries();
                }
                logOutcome(outcome, completionErrors.total() - errorsBefore);
                if (files.traceWriter() != null)
                {
                    files.traceWriter().series(trace, recorder, outcome);
                }

                final SeriesLatencies.Collected collected = SeriesLatencies.collect(trace, recorder,
                    outcome.queriesIssued(), outcome.samplesIssued(), outcome.lastQuery(),
                    outcome.lastIssuedRelativeNs(), settings.useTokenLatencies, completionErrors);
                logCompletionErrors(errorsBefore);
                if (collected.missingSamples() > 0)
                {
                    final String m = collected.missingSamples() + " issued samples never completed (first response id "
                        + collected.firstMissingId() + ").";
                    detail.error("error_runtime", m);
                    messages.add("error: " + m);
                }
                ResultsLog.logLoggerCounters(detail);
                ResultsLog.logPower(detail, outcome.startEpochNs(), collected.maxCompletionRelativeNs());
                if (performance)
                {
                    checkClocks(outcome, settings.printTimestamps);
                }
                // Every number is computed here, while the slots holding the latencies still exist.
                return new SeriesRun(settings, new PerformanceSummary(sutName, settings, collected.result()));
            }
        }
    }

    private void logOutcome(final IssueOutcome outcome, final long newCompletionErrors)
    {
        final String message = outcome.stopMessage();
        if (message != null)
        {
            detail.stamp(outcome.startNs() + outcome.stopRelativeNs());
            if (outcome.stopReason().isError())
            {
                detail.error("error_runtime", message);
                messages.add("error: " + message);
            }
            else
            {
                detail.log("generic_message", message);
            }
            detail.unstamp();
        }
        if (outcome.flushFailure() != null)
        {
            final String m = "The SUT threw from FlushQueries: " + outcome.flushFailure();
            detail.error("error_runtime", m);
            messages.add("error: " + m);
        }
        if (outcome.stopReason() == StopReason.SUT_FAILED && outcome.sutFailure() != null)
        {
            messages.add("SUT failure stack trace: " + stackTrace(outcome.sutFailure()));
        }
    }

    private void logCompletionErrors(final long errorsBefore)
    {
        if (completionErrors.total() == reportedCompletionErrors)
        {
            return;
        }
        for (final String line : completionErrors.describe())
        {
            detail.error("error_runtime", line);
            messages.add("error: " + line);
        }
        reportedCompletionErrors = completionErrors.total();
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
            console.println("Loadgen :: Perf mode stop. systme_clock Timestamp = " + System.currentTimeMillis() / 1000);
            console.println("Loadgen :: Perf mode duration: " + (long)(perfClockNs / 1e6) + " ms, pc_sc_ratio: "
                + ratio);
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

    private void report(final SeriesRun run)
    {
        ResultsLog.logResults(detail, run.summary());
        files.summaryWriter().append(run.summary());
        reported.add(run.summary());
    }

    private void finish()
    {
        final List<Throwable> failures = new ArrayList<>();
        closeQuietly(() -> accuracyCollector.close(), failures);
        closeQuietly(() -> latencyLog.close(), failures);
        closeQuietly(() -> files.close(detail), failures);
        closeQuietly(() -> detail.close(), failures);
        if (!failures.isEmpty())
        {
            final UncheckedIOException ex = new UncheckedIOException("could not finish the logs",
                new IOException(failures.get(0)));
            failures.stream().skip(1).forEach(ex::addSuppressed);
            throw ex;
        }
    }

    private interface Closer
    {
        void close() throws Exception;
    }

    private static void closeQuietly(final Closer closer, final List<Throwable> failures)
    {
        try
        {
            closer.close();
        }
        catch (final NullPointerException ex)
        {
            // Never opened: nothing to close.
        }
        catch (final Exception ex)
        {
            failures.add(ex);
        }
    }

    /**
     * @param value a double.
     * @return C++ {@code std::to_string(double)}: {@code %f}.
     */
    static String toStdString(final double value)
    {
        return org.jloadgen.clib.CFormat.fixed(value, 6);
    }

    private static String stackTrace(final Throwable t)
    {
        final java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    /**
     * A finished performance series with the settings it ran at.
     *
     * @param settings its effective settings.
     * @param summary  its results.
     */
    record SeriesRun(EffectiveSettings settings, PerformanceSummary summary)
    {
    }
}
