package org.jloadgen.engine;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

import jdk.jfr.FlightRecorder;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SutLogNotes;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.bindings.ThreadAffinity;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.issue.IssueWaits;
import org.jloadgen.issue.JitThreads;
import org.jloadgen.log.DetailLog;
import org.jloadgen.log.SettingsLog;
import org.jloadgen.record.RetiredTarget;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.schedule.ReplayQueries;

/**
 * One test, start to end: LoadGen's {@code StartTest} (spec §3.9; loadgen/loadgen.cc). Opens the log files
 * ({@link TestLogs}), logs versions and settings, applies audit.config ({@link AuditConfig}), runs the mode
 * ({@link ModeRunner}: accuracy sets, the performance run, both, or the {@link FindPeakPerformance} search, each series
 * by {@link SeriesRunner}), and closes every file completely even when the SUT misbehaves or the test is aborted. Not
 * reusable: one instance per test. A test that cannot start at all still leaves logs through {@link StartFailureLog}.
 */
public final class TestRunner
{
    /** Detail-log key: how the Server issue thread waits for scheduled times, and why. */
    public static final String SERVER_WAIT_KEY = "jloadgen_server_wait";
    /** Detail-log key: how the issue thread waits for completions, and why. */
    public static final String COMPLETION_WAIT_KEY = "jloadgen_completion_wait";
    /** Detail-log key: SUT threads registered with the CPU budget, how they wait, and why (one record each). */
    public static final String SUT_THREADS_KEY = "jloadgen_sut_threads";
    /** Detail-log key: what the JIT compiler threads may take while a measured series runs, and why. */
    public static final String JIT_THREADS_KEY = "jloadgen_jit_threads";
    /** The detail log's record of the engine's warm-up: how long, which rounds, and why it ended. */
    public static final String WARMUP_KEY = "jloadgen_warmup";

    private final SystemUnderTest sut;
    private final QuerySampleLibrary qsl;
    private final TestSettings requested;
    private final LogSettings logSettings;
    private final EngineOptions options;
    private final Path auditConfig;
    private final List<String> configErrors;
    private final IssueLoop issueLoop;
    private final CompletionErrors completionErrors = new CompletionErrors();
    private final EngineResponseSink sink;
    private final PrintStream console;
    private final RunStatus status;

    private ReplayQueries replay;

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
        if (this.options.warmupMs() > 0 && this.requested.scenario() != TestScenario.SERVER)
        {
            throw new IllegalArgumentException("a warm-up period (" + this.options.warmupMs()
                + " ms of queries at the target rate) needs the Server scenario, not "
                + this.requested.scenario());
        }
        this.issueLoop = new IssueLoop(this.options);
        this.status = new RunStatus(issueLoop, this.options.clock());
        this.sink = new EngineResponseSink(new RetiredTarget(completionErrors), this.options.clock());
        sink.onFailure(t -> issueLoop.abort("SUT reported a failure: " + t));
    }

    /**
     * Stops the test (any thread; returns at once): issuing stops after the query being issued, an
     * {@link org.jloadgen.api.AbortableSut} drops its queued samples, the samples in flight get
     * {@link EngineOptions#abortGraceMs()} at most, and the logs are written completely, the summary saying that the
     * run was aborted and why.
     *
     * @param reason why, as the summary shows it after "aborted: ".
     */
    public void abort(final String reason)
    {
        issueLoop.abort(reason);
    }

    /**
     * @return where the test stands, for a progress display on another thread.
     */
    public RunStatus status()
    {
        return status;
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
        if (queries.samplesPerSecond() > 0)
        {
            requested.serverTargetQps(queries.samplesPerSecond());
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
        final String testDatetime = RunFiles.testDatetimeNow();
        final TestLogs logs = new TestLogs(logSettings, testDatetime, requested, options, console);
        final DetailLog detail = logs.detail();
        EffectiveSettings effective = null;
        ModeRunner modes = null;
        SeriesRunner seriesRunner = null;
        try
        {
            logs.start(options.histogramIntervalMs(), TestLogs.accuracyRingBytes(requested,
                AuditConfig.present(auditConfig)));
            final long nameStartNs = options.clock().nanoTime();
            final String sutName = sut.name();
            final long nameDurationNs = options.clock().nanoTime() - nameStartNs;
            logHeader(detail, testDatetime, sutName, nameDurationNs);
            SettingsLog.logConfigErrors(detail, configErrors);

            final TestSettings settings = AuditConfig.apply(requested, auditConfig, detail, console);
            effective = new EffectiveSettings(settings, qsl.totalSampleCount(), qsl.performanceSampleCount());
            SettingsLog.logAll(detail, settings, effective);
            warnAboutFallbacks(effective);
            pinIssueThread();
            status.latencyLog(logs.latencyLog());
            status.step("engine warm-up");
            status.preparing("JIT warm-up of the issue path");
            // Loading the flight-recorder event class sets JFR's event machinery up and queues a few hundred
            // compilations: before the warm-up, not at the first series' start, where they ran into its clock. Only
            // where a recording runs (SeriesRunner makes the event only then): elsewhere it cost 0.10-0.14 s.
            if (FlightRecorder.isInitialized())
            {
                SeriesEvent.load();
            }
            final SeriesRunner series = new SeriesRunner(sut, sutName, qsl, options, issueLoop, sink,
                completionErrors, logs, status);
            seriesRunner = series;
            final EffectiveSettings test = effective;
            // A plain performance test's trace is generated inside the warm-up's budget, whose time the compiler
            // threads spend on their queue anyway (WarmupClock.afterPreparation): it took 58-76 ms of a 1.1 s
            // SingleStream 200k-query process after the warm-up, on the 2-CPU machine (issue 20, session 11).
            final Runnable prepare = effective.mode == TestMode.PERFORMANCE_ONLY && replay == null
                ? () -> series.prepareFirstTrace(test) : null;
            final Warmup.Warmed warmed = Warmup.run(effective, options, options.jitWarmupMs(), sut,
                logs.keepsIssueTimes(true), prepare);
            if (warmed.ending() != null)
            {
                detail.log(WARMUP_KEY, warmed.describe());
            }

            modes = new ModeRunner(series, logs, qsl.totalSampleCount(), replay, status);
            modes.run(effective);
            if (sut instanceof final SutLogNotes notes)
            {
                logNotes(detail, notes.notesAfterRun());
                if (!modes.reported().isEmpty())
                {
                    logs.files().summaryWriter().appendSutLines(notes.summaryAfterRun());
                }
            }
            if (issueLoop.aborted() && modes.reported().isEmpty())
            {
                logs.files().summaryWriter().appendAbort(issueLoop.abortReason());
            }
        }
        catch (final RuntimeException ex)
        {
            // Whatever broke, the logs say so and are closed completely.
            detail.error("error_runtime", "JLoadGen stopped the test: " + ex);
            logs.message("error: " + ex);
            throw ex;
        }
        finally
        {
            if (seriesRunner != null)
            {
                // A trace generated ahead for a series that never ran (an abort, a failure) is freed here.
                seriesRunner.discardPreparedTrace();
            }
            logs.close();
        }
        final RunFiles files = logs.files();
        return new TestResult(effective, modes.reported(), modes.accuracySeries(), files.summary(), files.detail(),
            files.accuracy(), files.trace(), files.latencyLogPath(), files.issueLatenessLogPath(), files.jfrPath(),
            detail.errorCount(), detail.warningCount(), logs.messages(), issueLoop.abortReason());
    }

    /**
     * The version, date, SUT and QSL records every LoadGen detail log starts with.
     */
    private void logHeader(final DetailLog detail, final String testDatetime, final String sutName,
        final long nameDurationNs)
    {
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
        logWaits(detail);
        if (sut instanceof final SutLogNotes notes)
        {
            logNotes(detail, notes.notesBeforeRun());
        }
        detail.unstamp();
    }

    /**
     * Writes a SUT's own records ({@link SutLogNotes}) to the detail log.
     */
    private static void logNotes(final DetailLog detail, final List<SutLogNotes.Note> notes)
    {
        for (final SutLogNotes.Note note : notes)
        {
            switch (note.value())
            {
                case final Long l -> detail.log(note.key(), l.longValue());
                case final Double d -> detail.log(note.key(), d.doubleValue());
                default -> detail.log(note.key(), note.value().toString());
            }
        }
    }

    /**
     * Where LoadGen replaces an invalid setting (a non-positive {@code server_target_qps} runs at 1 QPS) it only
     * logs an error record; the console says so too, at the start, so that a run that crawls does not look hung.
     */
    private void warnAboutFallbacks(final EffectiveSettings effective)
    {
        for (final String error : effective.errors)
        {
            console.println("jloadgen: warning: " + error + " (logged as error_invalid_test_settings: the run goes on "
                + "with that, and its log cannot pass the submission checker)");
        }
    }

    /**
     * Says in the detail log how the issue thread and the SUT's registered threads wait, and why ({@code AUTO} is
     * resolved from the CPUs the process may use): JLoadGen's own keys, which LoadGen's tools ignore, in the header's
     * stamp so that LoadGen's records keep their timestamps.
     */
    private void logWaits(final DetailLog detail)
    {
        final IssueWaits waits = IssueWaits.resolve(options, requested.scenario() == TestScenario.SERVER
            ? requested.serverTargetQps() : 0);
        detail.log(SERVER_WAIT_KEY, waits.serverReason());
        detail.log(COMPLETION_WAIT_KEY, waits.completionReason());
        for (final String threads : options.cpuBudget().sutThreadDescriptions())
        {
            detail.log(SUT_THREADS_KEY, threads);
        }
        detail.log(JIT_THREADS_KEY, JitThreads.resolve(options.jitThreads(), requested.scenario())
            .reason());
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
        final BitSet cpus = new BitSet();
        cpus.set(options.issueCpu());
        if (!ThreadAffinity.tryPinCurrentThread(cpus))
        {
            console.println("jloadgen: warning: could not pin the issue thread to CPU " + options.issueCpu());
        }
    }
}
