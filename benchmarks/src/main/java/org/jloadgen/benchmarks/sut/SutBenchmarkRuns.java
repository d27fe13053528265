package org.jloadgen.benchmarks.sut;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.results.PerformanceSummary;

/**
 * What the SUTs' throughput benchmarks ({@code benchmarks/bench-cpu}, {@code benchmarks/bench-tensorrt}) share:
 * one in-process test of a SUT with the benchmark's waits, its Server line, and the machine's load for the record.
 */
public final class SutBenchmarkRuns
{
    private SutBenchmarkRuns()
    {
    }

    /**
     * Runs one test of {@code sut} in this process, its logs (summary not on standard output) in {@code dir}; the
     * engine's messages (fallbacks, warnings) go to standard error.
     *
     * @param sut            the SUT.
     * @param qsl            its sample library.
     * @param settings       the test.
     * @param dir            the log folder.
     * @param serverWait     the Server issue thread's wait.
     * @param completionWait the issue thread's completion wait.
     * @return the result.
     */
    public static TestResult run(final SystemUnderTest sut, final QuerySampleLibrary qsl, final TestSettings settings,
        final Path dir, final ServerWaitStrategy serverWait, final CompletionWaitStrategy completionWait)
    {
        final EngineOptions engine = new EngineOptions().serverWait(serverWait).completionWait(completionWait);
        final LogSettings logs = new LogSettings().outputDirectory(dir).copySummaryToStdout(false);
        final TestResult result = new TestRunner(sut, qsl, settings, logs, engine, null, List.of(), System.out).run();
        for (final String message : result.messages())
        {
            System.err.println("jloadgen: " + message);
        }
        return result;
    }

    /**
     * Prints one Server run's line: target, completed rate, p50, p99, validity and errors.
     *
     * @param console where to.
     * @param qps     the target QPS.
     * @param result  the run.
     */
    public static void printServerRun(final PrintStream console, final double qps, final TestResult result)
    {
        final PerformanceSummary p = result.performance().get(0);
        final int p50 = PerformanceSummary.percentileIndex(0.50);
        final int p99 = PerformanceSummary.percentileIndex(0.99);
        console.printf(Locale.ROOT, "  target %8.0f QPS: completed %9.0f samples/s, p50 %9.1f us, p99 %9.1f us, %s%s%n",
            qps, p.completedSamplesPerSecond(), p.sampleLatencyPercentileNs(p50) / 1e3,
            p.sampleLatencyPercentileNs(p99) / 1e3, p.valid() ? "VALID" : "INVALID",
            result.errorCount() > 0 ? " (" + result.errorCount() + " errors)" : "");
    }

    /**
     * @return {@code /proc/loadavg} as it reads, or {@code unknown} where there is none.
     */
    public static String loadAverage()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }
}
