package org.jloadgen.cli;

import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.EngineFlags;
import org.jloadgen.cli.api.InterruptGuard;
import org.jloadgen.cli.api.ProgressLine;
import org.jloadgen.cli.api.SettingsOptions;
import org.jloadgen.cli.api.SutSelection;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.jloadgen.cli.api.ExitCodes;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.spi.DefaultJob;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.schedule.ReplayQueries;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jloadgen run}: runs a test against a SUT and writes LoadGen's log files. With no arguments at all it
 * runs the default job of the installed SUT modules (the README's main job).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
        "Run a test against a system under test and write mlperf_log_{summary,detail}.txt and "
            + "mlperf_log_accuracy.json (plus mlperf_log_trace.json with --chrome-trace).",
        "With no arguments: run the default job (the embedded model, or a synthetic benchmark). With arguments but "
            + "no --sut: run the default job's SUT with them."},
    defaultValueProvider = SutSelection.DefaultSut.class)
public final class RunCommand implements Callable<Integer>
{
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions settings;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "jloadgen",
        description = "jloadgen (JLoadGen's engine) or official: the official LoadGen, built from its source on first "
            + "use (--loadgen-dir), drives the same SUT; its logs are the ones to submit (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--loadgen-dir", paramLabel = "DIR",
        description = "The official LoadGen source for --engine official: the loadgen folder of an "
            + "mlcommons/inference checkout. Default: $LOADGEN_DIR, else the folder "
            + "../shared/mlperf-inference/loadgen.")
    Path loadgenDir;

    @Mixin
    SutSelection sut;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".",
        description = "Directory for the log files (default: the working directory, as LoadGen).")
    Path out;

    @Option(names = "--log-prefix", paramLabel = "TEXT", defaultValue = "mlperf_log_",
        description = "Log file name prefix (default: ${DEFAULT-VALUE}).")
    String logPrefix;

    @Option(names = "--log-suffix", paramLabel = "TEXT", defaultValue = "",
        description = "Log file name suffix, before the extension.")
    String logSuffix;

    @Option(names = "--log-datetime", description = "Put the test date and time after the prefix.")
    boolean logDatetime;

    @Option(names = "--copy-detail", description = "Also print the detail log to standard output.")
    boolean copyDetail;

    @Option(names = "--quiet",
        description = "Do not print the summary to standard output, nor the live status line on a terminal.")
    boolean quiet;

    @Option(names = "--chrome-trace",
        description = "Write mlperf_log_trace.json (Chrome trace format) after each series; off by default.")
    boolean chromeTrace;

    @Mixin
    EngineFlags engineFlags;

    @Option(names = "--trace", paramLabel = "FILE",
        description = "Replay a trace file against the SUT, Server-style: each query at its time, latency from its "
            + "scheduled time. Text ('Q <scheduled_ns> <qsl indices...>' lines, as jloadgen trace prints) or CSV "
            + "('timestamp_ns,sample_index' rows, header optional, times from the first row's), e.g. captured "
            + "from production or written by jloadgen trace --generate.")
    Path replay;

    @Option(names = "--trace-speed", paramLabel = "FACTOR",
        description = "Replay the --trace this many times as fast (2.0: twice the rate; default: 1).")
    Double traceSpeed;

    @Override
    public Integer call() throws Exception
    {
        // What the test prints (the summary) first clears the status line a terminal shows on stderr.
        final PrintStream stdout = ProgressLine.guard(System.out);
        final PrintStream stderr = System.err;
        // originalArgs() holds the whole command line ("run" included); matchedArgs() only this command's own.
        if (spec.commandLine().getParseResult().matchedArgs().isEmpty())
        {
            return defaultJob(null, stdout, stderr);
        }
        if (onlyOutGiven())
        {
            // An output folder alone does not change what runs: the default job, its logs under that folder.
            return defaultJob(out, stdout, stderr);
        }
        if (sut.listRequested())
        {
            SutSelection.listSuts(stdout);
            return ExitCodes.VALID;
        }
        if (traceSpeed != null && replay == null)
        {
            throw new IllegalArgumentException("--trace-speed scales a replayed trace: give --trace FILE too");
        }
        sut.provider();
        if (engine.equals("official"))
        {
            return new OfficialRun(this, stdout, stderr).call();
        }
        if (!engine.equals("jloadgen"))
        {
            throw new IllegalArgumentException("--engine must be jloadgen or official, got '" + engine + "'");
        }
        final SettingsOptions.Loaded loaded = settings.load(stderr);
        final EngineOptions engineOptions = engineFlags.engineOptions();
        final ReplayQueries replayTrace = replay == null ? null
            : ReplayQueries.read(replay).scaled(traceSpeed == null ? 1.0 : traceSpeed);
        final LogSettings logs = logSettings();
        try (SutInstance instance = sut.create(loaded.settings(),
            replayTrace == null ? 0 : replayTrace.maxIndex() + 1, logs, stdout))
        {
            if (instance.streamsTokens() && !loaded.settings().useTokenLatencies())
            {
                stderr.println("jloadgen: warning: the SUT streams tokens but use_token_latencies is 0: the run is "
                    + "judged on end-to-end latency alone, not TTFT and TPOT (--set use_token_latencies=1)");
            }
            final TestRunner runner = new TestRunner(instance.sut(), instance.qsl(), loaded.settings(), logs,
                instance.engineOptions(engineOptions), settings.auditConfigPath(), loaded.errors(), stdout);
            if (replayTrace != null)
            {
                runner.replay(replayTrace);
            }
            final InterruptGuard guard = InterruptGuard.install(runner::abort);
            try
            {
                return report(ProgressLine.runWithStatusLine(runner, null, !quiet), instance, stdout);
            }
            finally
            {
                guard.close();
            }
        }
    }

    /**
     * @return the log options as LoadGen's log settings.
     */
    LogSettings logSettings()
    {
        return new LogSettings().outputDirectory(out).prefix(logPrefix).suffix(logSuffix)
            .prefixWithDatetime(logDatetime).copyDetailToStdout(copyDetail).copySummaryToStdout(!quiet)
            .enableTrace(chromeTrace);
    }


    private int report(final TestResult result, final SutInstance instance, final PrintStream stdout)
        throws Exception
    {
        for (final String message : result.messages())
        {
            System.err.println("jloadgen: " + message);
        }
        final boolean accuracy = result.effective() != null
            && (result.effective().mode == TestMode.ACCURACY_ONLY
                || result.effective().mode == TestMode.SUBMISSION_RUN);
        if (accuracy && result.aborted())
        {
            stdout.println("Accuracy: not scored, the accuracy log is incomplete");
        }
        else if (accuracy)
        {
            final Optional<String> score = instance.accuracyReport(result.accuracyFile());
            score.ifPresent(s -> stdout.println("Accuracy: " + s));
        }
        try
        {
            instance.writeStatistics(result.summaryFile().toAbsolutePath().getParent(), stdout);
        }
        catch (final java.io.IOException | RuntimeException ex)
        {
            System.err.println("jloadgen: warning: the SUT's statistics could not be written: " + ex.getMessage());
        }
        stdout.println("Logs: " + result.summaryFile().toAbsolutePath().getParent());
        stdout.println(ConsoleText.wrap("  " + result.summaryFile().getFileName() + ", "
            + result.detailFile().getFileName() + ", " + result.accuracyFile().getFileName()
            + (result.traceFile() != null ? ", " + result.traceFile().getFileName() : "")
            + (result.latencyLogFile() != null ? ", " + result.latencyLogFile().getFileName() : "")
            + (result.issueLatenessFile() != null ? ", " + result.issueLatenessFile().getFileName() : "")
            + (result.jfrFile() != null ? ", " + result.jfrFile().getFileName() : ""), "  "));
        if (result.aborted())
        {
            // A SUT failure was printed as the run's error already: not again.
            System.err.println("jloadgen: the run was aborted (" + (result.abortReason().startsWith(
                "SUT reported a failure") ? "the SUT failed, as said above" : result.abortReason())
                + "); its logs say so");
        }
        if (result.errorCount() > 0)
        {
            return ExitCodes.INVALID;
        }
        if (result.effective() != null && result.effective().mode == TestMode.ACCURACY_ONLY)
        {
            return ExitCodes.VALID;
        }
        return result.valid() ? ExitCodes.VALID : ExitCodes.INVALID;
    }

    /**
     * @return whether {@code --out} is the only option given.
     */
    private boolean onlyOutGiven()
    {
        final var parsed = spec.commandLine().getParseResult();
        return parsed.matchedPositionals().isEmpty() && !parsed.matchedOptions().isEmpty()
            && parsed.matchedOptions().stream().allMatch(o -> o.longestName().equals("--out"));
    }

    /**
     * @param outDir where the logs go, or {@code null} for the job's own folder.
     */
    private static int defaultJob(final Path outDir, final PrintStream stdout, final PrintStream stderr)
        throws Exception
    {
        final Optional<DefaultJob> job = SutSelection.installedDefaultJob();
        if (job.isPresent())
        {
            stdout.println(ConsoleText.wrap("jloadgen: default job: " + job.get().description() + "; logs in "
                + (outDir == null ? job.get().defaultOutDir() : outDir), "  "));
            return outDir == null ? job.get().run(stdout, stderr) : job.get().run(outDir, stdout, stderr);
        }
        final Path dir = outDir != null ? outDir : Path.of("out", "default-synthetic");
        Files.createDirectories(dir);
        stdout.println(ConsoleText.wrap("jloadgen: default job: Server at 2000 QPS for 10 s against the synthetic "
            + "SUT (exponential 200 us service, 2 workers); no model module is installed; logs in " + dir, "  "));
        return Main.commandLine().execute("run", "--scenario", "Server", "--sut", SutSelection.FALLBACK_SUT,
            "--sut-opt", "service=exponential:200us", "--sut-opt", "workers=2",
            "--set", "server_target_qps=2000", "--set", "min_duration_ms=10000", "--out", dir.toString());
    }
}
