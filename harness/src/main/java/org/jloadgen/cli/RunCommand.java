package org.jloadgen.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestMode;
import org.jloadgen.engine.StartFailureLog;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.spi.DefaultJob;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.sut.SutOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
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
    defaultValueProvider = RunCommand.DefaultSut.class)
public final class RunCommand implements Callable<Integer>
{
    /** The SUT when no module provides a default job. */
    static final String FALLBACK_SUT = "synthetic";

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions settings;

    @Option(names = "--sut", paramLabel = "NAME",
        description = "System under test, see --list-suts. Default: the SUT of the default job (what a bare "
            + "'jloadgen run' runs): cpu, the embedded model, when the sut-cpu module is installed, else synthetic; "
            + "here: ${DEFAULT-VALUE}.")
    String sutName;

    @Option(names = "--list-suts", description = "List the installed SUTs and exit.")
    boolean listSuts;

    @Option(names = "--sut-opt", paramLabel = "KEY=VALUE",
        description = "A SUT option, e.g. --sut-opt service=exponential:200us --sut-opt workers=2. Repeatable.")
    List<String> sutOptions = new ArrayList<>();

    @Option(names = "--model-file", paramLabel = "FILE", description = "Model for the cpu and tensorrt SUTs (ONNX).")
    Path modelFile;

    @Option(names = "--dataset", paramLabel = "PATH",
        description = "Dataset for the cpu and tensorrt SUTs: a .npy, raw file or directory of per-sample files.")
    Path dataset;

    @Option(names = "--labels", paramLabel = "FILE", description = "Labels of the dataset, for accuracy.")
    Path labels;

    @Option(names = "--descriptor", paramLabel = "FILE",
        description = "A descriptor naming model, dataset, labels, shapes and dtypes (cpu and tensorrt SUTs).")
    Path descriptor;

    @Mixin
    QslOptions qsl;

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

    @Option(names = "--server-wait", paramLabel = "STRATEGY", defaultValue = "SPIN",
        description = "How the Server issue thread waits for scheduled times: ${COMPLETION-CANDIDATES} "
            + "(default: ${DEFAULT-VALUE}; LoadGen sleeps).")
    ServerWaitStrategy serverWait;

    @Option(names = "--hybrid-spin-ns", paramLabel = "NS", defaultValue = "100000",
        description = "Spin window before a deadline for --server-wait HYBRID (default: ${DEFAULT-VALUE}).")
    long hybridSpinNs;

    @Option(names = "--completion-wait", paramLabel = "STRATEGY", defaultValue = "SPIN",
        description = "How the issue thread waits for completions: ${COMPLETION-CANDIDATES} "
            + "(default: ${DEFAULT-VALUE}).")
    CompletionWaitStrategy completionWait;

    @Option(names = "--completion-timeout-ms", paramLabel = "MS", defaultValue = "60000",
        description = "End the run INVALID when no sample completes for this long (default: ${DEFAULT-VALUE}).")
    long completionTimeoutMs;

    @Option(names = "--abort-grace-ms", paramLabel = "MS", defaultValue = "1000",
        description = "After Ctrl-C, a SUT failure or the completion timeout: how long the samples the SUT still has "
            + "in flight are waited for, once it has dropped its queue (default: ${DEFAULT-VALUE}).")
    long abortGraceMs;

    @Option(names = "--no-latency-histogram",
        description = "Do not record HdrHistogram interval histograms (mlperf_log_latency.hlog).")
    boolean noLatencyHistogram;

    @Option(names = "--no-issue-lateness",
        description = "Server: do not record each query's issue lateness (scheduled time to the SUT call; "
            + "mlperf_log_issue_lateness.hlog).")
    boolean noIssueLateness;

    @Option(names = "--jfr",
        description = "Record the test with Java Flight Recorder (GC pauses, safepoints, parks of the issue thread) "
            + "into mlperf_log_jfr.jfr beside the logs; jloadgen report lays the pauses over the latency chart.")
    boolean jfr;

    @Option(names = "--latency-interval-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Interval of the HdrHistogram latency and issue lateness logs (default: ${DEFAULT-VALUE}).")
    long latencyIntervalMs;

    @Option(names = "--issue-cpu", paramLabel = "CPU", defaultValue = "-1",
        description = "Pin the issue thread to this CPU (default: not pinned).")
    int issueCpu;

    @Option(names = "--pin-memory",
        description = "mlock the trace and completion buffers (a refusal, e.g. over RLIMIT_MEMLOCK, is a warning).")
    boolean pinMemory;

    @Option(names = "--huge-pages", description = "Advise huge pages for the trace and completion buffers.")
    boolean hugePages;

    @Option(names = "--numa-node", paramLabel = "NODE", defaultValue = "-1",
        description = "Place the trace and completion buffers on this NUMA node (default: the kernel's choice).")
    int numaNode;

    @Option(names = "--jit-warmup-ms", paramLabel = "MS", defaultValue = "300",
        description = "Run the engine's own code against an internal null SUT for this long before the first "
            + "series, so JIT compilation happens before the clock starts; the SUT is not called (default: "
            + "${DEFAULT-VALUE}; 0 = none).")
    long jitWarmupMs;

    @Option(names = "--trace", paramLabel = "FILE",
        description = "Replay a trace file (lines 'Q <scheduled_ns> <qsl indices...>', as jloadgen trace prints "
            + "or captured from production) against the SUT, Server-style: each query at its time, latency from "
            + "its scheduled time.")
    Path replay;

    @Override
    public Integer call() throws Exception
    {
        // What the test prints (the summary) first clears the status line a terminal shows on stderr.
        final PrintStream stdout = ProgressLine.guard(System.out);
        final PrintStream stderr = System.err;
        // originalArgs() holds the whole command line ("run" included); matchedArgs() only this command's own.
        if (spec.commandLine().getParseResult().matchedArgs().isEmpty())
        {
            return defaultJob(stdout, stderr);
        }
        final Map<String, SutProvider> providers = providers();
        if (listSuts)
        {
            providers.values().forEach(p -> stdout.println(p.name() + ": " + p.description()));
            return Main.EXIT_VALID;
        }
        checkEngineOptions();
        final SutProvider provider = providers.get(sutName);
        if (provider == null)
        {
            throw new IllegalArgumentException("unknown SUT '" + sutName + "'; installed: " + providers.keySet());
        }
        final SettingsOptions.Loaded loaded = settings.load(stderr);
        final Map<String, String> options = sutOptions();
        final ReplayQueries replayTrace = replay == null ? null : ReplayQueries.read(replay);
        final LogSettings logs = new LogSettings().outputDirectory(out).prefix(logPrefix).suffix(logSuffix)
            .prefixWithDatetime(logDatetime).copyDetailToStdout(copyDetail).copySummaryToStdout(!quiet)
            .enableTrace(chromeTrace);
        final SutInstance created;
        try
        {
            created = provider.create(new SutContext(loaded.settings().scenario(), options,
                replayTrace != null ? Math.max(qsl.total(), replayTrace.maxIndex() + 1) : qsl.total(),
                qsl.performance()));
        }
        catch (final Exception ex)
        {
            // No test can run, but the logs still say why, as a failed run's would.
            final String reason = "SUT '" + sutName + "' could not be started: " + ex.getMessage();
            final java.nio.file.Path summary = StartFailureLog.write(logs, loaded.settings(), reason, stdout);
            throw new IllegalArgumentException(reason + " (logs: " + summary.toAbsolutePath().getParent() + ")", ex);
        }
        try (SutInstance instance = created)
        {
            final EngineOptions engine = new EngineOptions().serverWait(serverWait).hybridSpinNs(hybridSpinNs)
                .completionWait(completionWait).completionTimeoutMs(completionTimeoutMs).abortGraceMs(abortGraceMs)
                .latencyHistogram(!noLatencyHistogram).histogramIntervalMs(latencyIntervalMs)
                .issueLateness(!noIssueLateness).jfr(jfr)
                .issueCpu(issueCpu).jitWarmupMs(jitWarmupMs);
            if (pinMemory || hugePages || numaNode >= 0)
            {
                engine.allocator(new org.jloadgen.memory.NativeOffHeapAllocator(
                    org.jloadgen.bindings.MemoryOptions.DEFAULT.withPinned(pinMemory).withHugePages(hugePages)
                        .withNumaNode(numaNode)));
            }
            final TestRunner runner = new TestRunner(instance.sut(), instance.qsl(), loaded.settings(), logs, engine,
                settings.auditConfigPath(), loaded.errors(), stdout);
            if (replayTrace != null)
            {
                runner.replay(replayTrace);
            }
            final InterruptGuard guard = InterruptGuard.install(runner::abort);
            try
            {
                return report(runWithStatusLine(runner, null, !quiet), instance, stdout);
            }
            finally
            {
                guard.close();
            }
        }
    }

    /**
     * Refuses engine options out of range before anything is created, naming the option.
     */
    private void checkEngineOptions()
    {
        OptionChecks.atLeast("--hybrid-spin-ns", hybridSpinNs, 0);
        OptionChecks.atLeast("--completion-timeout-ms", completionTimeoutMs, 1);
        OptionChecks.atLeast("--abort-grace-ms", abortGraceMs, 0);
        OptionChecks.atLeast("--latency-interval-ms", latencyIntervalMs, 1);
        OptionChecks.atLeast("--issue-cpu", issueCpu, -1);
        OptionChecks.atLeast("--numa-node", numaNode, -1);
        OptionChecks.atLeast("--jit-warmup-ms", jitWarmupMs, 0);
        qsl.performance();
    }

    private Map<String, String> sutOptions()
    {
        final Map<String, String> options = SutOptions.pairs(sutOptions);
        if (modelFile != null)
        {
            options.put("model-file", modelFile.toString());
        }
        if (dataset != null)
        {
            options.put("dataset", dataset.toString());
        }
        if (labels != null)
        {
            options.put("labels", labels.toString());
        }
        if (descriptor != null)
        {
            options.put("descriptor", descriptor.toString());
        }
        return options;
    }

    /**
     * Runs the test with a live status line on standard error when it is a terminal. Ctrl-C is the caller's
     * {@link InterruptGuard}'s, which covers what the caller prints after the test too. Also for default jobs that
     * drive the engine themselves.
     *
     * @param runner   the test.
     * @param jobStep  what the status line starts with (a job's step, e.g. {@code [1/2] accuracy}), or {@code null}.
     * @param progress whether to show the status line when standard error is a terminal (off with {@code --quiet}).
     * @return its result.
     */
    public static TestResult runWithStatusLine(final TestRunner runner, final String jobStep, final boolean progress)
    {
        final ProgressLine line = ProgressLine.start(runner.status(), System.err, jobStep,
            progress && ProgressLine.stderrIsTerminal());
        try
        {
            return runner.run();
        }
        finally
        {
            line.close();
        }
    }

    private int report(final TestResult result, final SutInstance instance, final PrintStream stdout)
        throws Exception
    {
        for (final String message : result.messages())
        {
            System.err.println("jloadgen: " + message);
        }
        final boolean accuracy = result.effective() != null
            && (result.effective().mode == TestMode.ACCURACY_ONLY || result.effective().mode == TestMode.SUBMISSION_RUN);
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
        stdout.println("  " + result.summaryFile().getFileName() + ", " + result.detailFile().getFileName() + ", "
            + result.accuracyFile().getFileName()
            + (result.traceFile() != null ? ", " + result.traceFile().getFileName() : "")
            + (result.latencyLogFile() != null ? ", " + result.latencyLogFile().getFileName() : "")
            + (result.issueLatenessFile() != null ? ", " + result.issueLatenessFile().getFileName() : "")
            + (result.jfrFile() != null ? ", " + result.jfrFile().getFileName() : ""));
        if (result.aborted())
        {
            System.err.println("jloadgen: the run was aborted (" + result.abortReason() + "); its logs say so");
        }
        if (result.errorCount() > 0)
        {
            return Main.EXIT_INVALID;
        }
        if (result.effective() != null && result.effective().mode == TestMode.ACCURACY_ONLY)
        {
            return Main.EXIT_VALID;
        }
        return result.valid() ? Main.EXIT_VALID : Main.EXIT_INVALID;
    }

    private static Map<String, SutProvider> providers()
    {
        final Map<String, SutProvider> providers = new LinkedHashMap<>();
        for (final SutProvider p : ServiceLoader.load(SutProvider.class))
        {
            providers.put(p.name(), p);
        }
        return providers;
    }

    /**
     * @return the installed default job with the highest priority, if any.
     */
    private static Optional<DefaultJob> installedDefaultJob()
    {
        return ServiceLoader.load(DefaultJob.class).stream()
            .map(ServiceLoader.Provider::get)
            .max(Comparator.comparingInt(DefaultJob::priority));
    }

    /**
     * The one default-SUT rule: {@code --sut} defaults to the SUT of the default job, {@value #FALLBACK_SUT} when no
     * module provides one (the SUT of the built-in fallback job).
     */
    static final class DefaultSut implements IDefaultValueProvider
    {
        @Override
        public String defaultValue(final ArgSpec argSpec)
        {
            if (argSpec instanceof OptionSpec option && option.longestName().equals("--sut"))
            {
                return installedDefaultJob().map(DefaultJob::sutName).orElse(FALLBACK_SUT);
            }
            return null;
        }
    }

    private static int defaultJob(final PrintStream stdout, final PrintStream stderr) throws Exception
    {
        final Optional<DefaultJob> job = installedDefaultJob();
        if (job.isPresent())
        {
            stdout.println("jloadgen: default job: " + job.get().description());
            return job.get().run(stdout, stderr);
        }
        final Path dir = Path.of("out", "default-synthetic");
        Files.createDirectories(dir);
        stdout.println("jloadgen: default job: Server at 2000 QPS for 10 s against the synthetic SUT "
            + "(exponential 200 us service, 2 workers); no model module is installed");
        return Main.commandLine().execute("run", "--scenario", "Server", "--sut", FALLBACK_SUT,
            "--sut-opt", "service=exponential:200us", "--sut-opt", "workers=2",
            "--set", "server_target_qps=2000", "--set", "min_duration_ms=10000", "--out", dir.toString());
    }
}
