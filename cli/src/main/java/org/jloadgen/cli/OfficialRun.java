package org.jloadgen.cli;

import org.jloadgen.cli.api.InterruptGuard;
import org.jloadgen.cli.api.SettingsOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.ExitCodes;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.LoadGenBridge;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.engine.official.OfficialEngineUnavailableException;
import org.jloadgen.engine.official.OfficialLoadGenBuild;
import org.jloadgen.engine.official.OfficialResult;
import org.jloadgen.engine.official.OfficialSettings;
import org.jloadgen.engine.official.OfficialTestRunner;
import org.jloadgen.spi.SutInstance;

/**
 * {@code jloadgen run --engine official}: the same SUT and command line under the official LoadGen, through the
 * bridge (built on first use from the LoadGen source, see {@link OfficialLoadGenBuild}). Settings go to LoadGen the
 * official way ({@link OfficialSettings}); the logs are LoadGen's own.
 */
final class OfficialRun
{
    /** Options that tune JLoadGen's own engine and mean nothing to LoadGen. */
    private static final List<String> JLOADGEN_ENGINE_OPTIONS = List.of("--server-wait", "--hybrid-spin-ns",
        "--completion-wait", "--no-latency-histogram", "--no-issue-lateness", "--jfr", "--latency-interval-ms",
        "--issue-cpu", "--pin-memory", "--huge-pages", "--numa-node", "--startup-ms", "--warmup-ms",
        "--abort-grace-ms", "--trace", "--trace-speed", "--generate-ahead");

    private final RunCommand run;
    private final PrintStream stdout;
    private final PrintStream stderr;

    OfficialRun(final RunCommand run, final PrintStream stdout, final PrintStream stderr)
    {
        this.run = run;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    int call() throws Exception
    {
        for (final String option : JLOADGEN_ENGINE_OPTIONS)
        {
            if (run.spec.commandLine().getParseResult().hasMatchedOption(option))
            {
                throw new IllegalArgumentException(option + " tunes JLoadGen's engine; it has no meaning with "
                    + "--engine official");
            }
        }
        final OfficialLoadGenBuild build;
        try
        {
            build = OfficialLoadGenBuild.locate(run.loadgenDir, stderr);
        }
        catch (final OfficialEngineUnavailableException ex)
        {
            stderr.println("jloadgen: " + ex.getMessage());
            return ExitCodes.USAGE;
        }
        LoadGenBridge.open(build.bridgeLibrary());
        final SettingsOptions s = run.settings;
        final TestScenario scenario = TestScenario.fromLogName(s.scenario);
        final OfficialSettings settings = new OfficialSettings(scenario, TestMode.fromLogName(s.mode), s.model,
            s.mlperfConf, s.userConf, s.auditConfigPath(), s.assignments, s.lenient);
        final LogSettings logs = run.logSettings();
        final String sutName = run.sut.sutName();
        // LoadGen's issue thread sleeps to each query and wakes on whichever CPU is free: AUTO toolkit workers count
        // it, so on two CPUs a worker parks (as LoadGen's condition-variable worker does) instead of spinning on the
        // CPU it would wake on (parking gave the lower p99: benchmarks/README.md, "Measurements behind the code").
        final CpuBudget.Registration loadGenIssueThread = CpuBudget.process().reserve(1,
            "the official LoadGen's issue thread: sleeps to each query, needs a CPU to wake on");
        final SutInstance created;
        try
        {
            created = run.sut.provider().create(run.sut.options.context(scenario, 0));
        }
        catch (final Exception ex)
        {
            loadGenIssueThread.close();
            throw new IllegalArgumentException("SUT '" + sutName + "' could not be started: " + ex.getMessage()
                + " (LoadGen did not run)", ex);
        }
        try (loadGenIssueThread; SutInstance instance = created)
        {
            // Wrapped to 80 columns, continuation lines indented (ConsoleText).
            stderr.println(ConsoleText.wrap("jloadgen: the official LoadGen " + build.version() + " ("
                + build.loadgenDir() + ") drives SUT '" + sutName + "'", "  "));
            // LoadGen's detail log has no place for how the SUT's threads wait; the console says it instead.
            for (final String threads : CpuBudget.process().sutThreadDescriptions())
            {
                stderr.println(ConsoleText.wrap("jloadgen: CPU budget: " + threads, "  "));
            }
            final OfficialTestRunner runner = new OfficialTestRunner(instance.sut(), instance.qsl(), settings, logs,
                run.engineFlags.completionTimeoutMs, run.engineFlags.jitWarmupMs, run.engineFlags.jitThreads, stderr);
            stderr.println(ConsoleText.wrap("jloadgen: JIT compiler threads: " + runner.jitThreads(), "  "));
            // Ctrl-C ends the test through LoadGen's abort path, its logs finished, and the report still printed.
            final InterruptGuard guard = InterruptGuard.install(runner::abort);
            try
            {
                return report(runner.run(), instance);
            }
            finally
            {
                guard.close();
            }
        }
    }

    private int report(final OfficialResult result, final SutInstance instance) throws Exception
    {
        for (final String message : result.messages())
        {
            stderr.println("jloadgen: " + message);
        }
        switch (result.outcome())
        {
            case NO_LOGS:
                stderr.println("jloadgen: LoadGen could not open its log files in "
                    + run.out.toAbsolutePath() + " and ran nothing");
                return ExitCodes.USAGE;
            case ALREADY_RAN:
                stderr.println("jloadgen: a test already ran in this process; LoadGen runs one per process");
                return ExitCodes.FAILURE;
            case INTERNAL_ERROR:
                stderr.println("jloadgen: LoadGen's StartTest failed unexpectedly (see its detail log)");
                return ExitCodes.FAILURE;
            default:
                break;
        }
        final boolean accuracy = result.mode() == TestMode.ACCURACY_ONLY || result.mode() == TestMode.SUBMISSION_RUN;
        if (accuracy && result.outcome() == OfficialResult.Outcome.COMPLETED && result.accuracyFile() != null)
        {
            final Optional<String> score = instance.accuracyReport(result.accuracyFile());
            score.ifPresent(text -> stdout.println("Accuracy: " + text));
        }
        if (result.summaryFile() != null)
        {
            final Path logs = result.summaryFile().toAbsolutePath().getParent();
            try
            {
                instance.writeStatistics(logs, stdout);
            }
            catch (final IOException | RuntimeException ex)
            {
                stderr.println("jloadgen: warning: the SUT's statistics could not be written: " + ex.getMessage());
            }
            stdout.println("Logs: " + logs + " (the official LoadGen's)");
        }
        if (result.outcome() == OfficialResult.Outcome.ABORTED || result.errorCount() > 0)
        {
            return ExitCodes.INVALID;
        }
        if (result.performanceValid() == null)
        {
            return ExitCodes.VALID;
        }
        return result.valid() ? ExitCodes.VALID : ExitCodes.INVALID;
    }
}
