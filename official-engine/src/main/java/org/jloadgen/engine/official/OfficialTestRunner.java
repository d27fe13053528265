package org.jloadgen.engine.official;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.JitThreadPolicy;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.LoadGenBridge;
import org.jloadgen.concurrent.JitCompilerThreads;
import org.jloadgen.issue.JitThreads;

/**
 * One test of a Java SUT under the official LoadGen (the bridge, {@code --engine official}): LoadGen's
 * {@code StartTest} runs on the calling thread and drives the SUT and QSL through {@link BridgeClient}; with
 * {@code server_num_issue_query_threads > 0}, that many Java threads register with LoadGen as its issue threads. A
 * watchdog gives a silent SUT the same completion timeout as JLoadGen's engine. One test per process: LoadGen keeps
 * process-wide state (the CLI runs each test in its own JVM; tests use child JVMs).
 */
public final class OfficialTestRunner
{
    private static final long ISSUE_THREAD_JOIN_MS = 10_000;

    private final SystemUnderTest sut;
    private final QuerySampleLibrary qsl;
    private final OfficialSettings settings;
    private final LogSettings logs;
    private final long completionTimeoutMs;
    private final long warmupMs;
    private final JitThreads jitThreads;
    private final PrintStream err;
    private final FailureLog failures = new FailureLog();

    /**
     * @param sut                 the SUT.
     * @param qsl                 its sample library.
     * @param settings            the test settings, given the official way.
     * @param logs                where LoadGen writes its logs (the Chrome trace only when enabled).
     * @param completionTimeoutMs time without a completion, while samples are outstanding, after which the test
     *                            fails.
     * @param warmupMs            how long the bridge's own Java code runs before LoadGen starts (0 = not at all);
     *                            the SUT is not called.
     * @param jitThreads          what the JIT compiler threads may take from LoadGen's and the SUT's threads while
     *                            LoadGen's test runs.
     * @param err                 where warnings go.
     */
    public OfficialTestRunner(final SystemUnderTest sut, final QuerySampleLibrary qsl, final OfficialSettings settings,
        final LogSettings logs, final long completionTimeoutMs, final long warmupMs, final JitThreadPolicy jitThreads,
        final PrintStream err)
    {
        this.sut = sut;
        this.qsl = qsl;
        this.settings = settings;
        this.logs = logs.copy();
        this.completionTimeoutMs = completionTimeoutMs;
        this.warmupMs = warmupMs;
        this.jitThreads = JitThreads.resolveUnderOfficialLoadGen(jitThreads, settings.scenario());
        this.err = err;
    }

    /**
     * Runs the test; the bridge library must be open ({@link LoadGenBridge#open}).
     *
     * @return what it produced.
     */
    // The completion watchdog works by being open: its thread watches LoadGen's test while the try block runs.
    @SuppressWarnings("try")
    public OfficialResult run()
    {
        prepareOutputDirectory(logs.outputDirectory());
        try (LoadGenBridge.Settings loadgen = settings.toLoadGen(logs, err))
        {
            final List<Thread> issueThreads = startIssueThreads(loadgen.getUnsigned("server_num_issue_query_threads"));
            final BridgeClient client = new BridgeClient(sut, qsl, settings.scenario() == TestScenario.MULTI_STREAM,
                failures);
            BridgeWarmup.run(client, warmupMs);
            // LoadGen's test meets no collection of what the warm-up left in the young generation (SeriesRunner).
            System.gc();
            final int code;
            try (CompletionWatchdog watchdog = new CompletionWatchdog(completionTimeoutMs, failures);
                JitCompilerThreads.Lowered jit = jitThreads.lowers() ? JitCompilerThreads.lower()
                    : JitCompilerThreads.Lowered.NONE)
            {
                // An audit.config name that cannot exist when there is none: LoadGen looks for the file it is given.
                final String auditConfig = settings.auditConfig() == null ? "" : settings.auditConfig().toString();
                code = LoadGenBridge.startTest(loadgen, sut.name(), qsl.name(), qsl.totalSampleCount(),
                    qsl.performanceSampleCount(), auditConfig, client);
            }
            joinIssueThreads(issueThreads);
            return OfficialResult.read(outcome(code), TestMode.fromCode(loadgen.mode()), LogFiles.find(logs),
                failures.reason(), LoadGenBridge.progress());
        }
    }

    /**
     * @return what the JIT compiler threads do while LoadGen's test runs, and why (for the console: LoadGen's detail
     *         log has no place for it).
     */
    public String jitThreads()
    {
        return jitThreads.reason();
    }

    /**
     * Ends the running test through LoadGen's abort path (from any thread, e.g. a signal handler): its logs are
     * finished and say why.
     *
     * @param reason what to log.
     */
    public void abort(final String reason)
    {
        failures.fail(reason, null);
    }

    private static OfficialResult.Outcome outcome(final int code)
    {
        if (code == LoadGenBridge.COMPLETED)
        {
            return OfficialResult.Outcome.COMPLETED;
        }
        if (code == LoadGenBridge.ABORTED)
        {
            return OfficialResult.Outcome.ABORTED;
        }
        if (code == LoadGenBridge.NO_LOGS)
        {
            return OfficialResult.Outcome.NO_LOGS;
        }
        if (code == LoadGenBridge.ALREADY_RAN)
        {
            return OfficialResult.Outcome.ALREADY_RAN;
        }
        return OfficialResult.Outcome.INTERNAL_ERROR;
    }

    /** LoadGen does not create its log folder, and cannot run without its files: say so before it starts. */
    private static void prepareOutputDirectory(final Path dir)
    {
        try
        {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".jloadgen-write-check", ".tmp"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("LoadGen cannot write its logs to " + dir.toAbsolutePath() + ": " + ex, ex);
        }
    }

    private static List<Thread> startIssueThreads(final long count)
    {
        final List<Thread> threads = new ArrayList<>();
        for (long i = 0; i < count; i++)
        {
            // Each blocks in LoadGen until the test ends, issuing Server queries on LoadGen's schedule.
            threads.add(Thread.ofPlatform().name("loadgen-issue-" + i).daemon()
                .start(LoadGenBridge::registerIssueThread));
        }
        return threads;
    }

    private void joinIssueThreads(final List<Thread> threads)
    {
        for (final Thread thread : threads)
        {
            try
            {
                thread.join(ISSUE_THREAD_JOIN_MS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
            if (thread.isAlive())
            {
                err.println("jloadgen: issue thread " + thread.getName() + " did not end with the test");
            }
        }
    }
}
