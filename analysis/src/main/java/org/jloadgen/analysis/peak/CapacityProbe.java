package org.jloadgen.analysis.peak;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.spi.SutInstance;

/**
 * A quick estimate of what the SUT can do flat out, for a search with no start QPS: Offline runs (every sample
 * available at once, so batches fill) of a short window, the expected rate raised to what the previous run
 * measured until a run lasts at least half the window; the estimate is that last, longest run's rate (a short
 * first run can be far off either way). The Server peak under a latency bound lies below it, so the search starts
 * there and steps down.
 */
final class CapacityProbe
{
    /** Most samples one capacity run issues (its latency slots take 8 bytes each). */
    static final long MAX_SAMPLES = 4_000_000;
    private static final int MAX_ATTEMPTS = 4;
    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream(), true,
        StandardCharsets.UTF_8);

    /**
     * The estimate.
     *
     * @param samplesPerSecond the rate the last (longest) run measured.
     * @param folders          the runs' log folders.
     */
    record Estimate(double samplesPerSecond, List<Path> folders)
    {
    }

    private CapacityProbe()
    {
    }

    /**
     * @param instance the SUT.
     * @param base     the search's settings (their seeds are used).
     * @param engine   engine options (the SUT's adjustments applied).
     * @param out      the search's folder.
     * @param windowMs how long a run should last.
     * @param console  where progress goes.
     * @return the estimate.
     * @throws IllegalArgumentException when a run fails, saying to give a start QPS instead.
     */
    static Estimate run(final SutInstance instance, final TestSettings base, final EngineOptions engine,
        final Path out, final long windowMs, final PrintStream console)
    {
        final List<Path> folders = new ArrayList<>();
        double expected = 1_000;
        double last = 0;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++)
        {
            final double capped = Math.min(expected, MAX_SAMPLES / (1.1 * windowMs / 1e3));
            final TestSettings settings = new TestSettings().scenario(TestScenario.OFFLINE)
                .mode(TestMode.PERFORMANCE_ONLY).offlineExpectedQps(capped).minDurationMs(windowMs)
                .qslRngSeed(base.qslRngSeed()).sampleIndexRngSeed(base.sampleIndexRngSeed())
                .scheduleRngSeed(base.scheduleRngSeed());
            final Path folder = out.resolve("capacity-" + attempt);
            folders.add(folder);
            final TestResult result = new TestRunner(instance.sut(), instance.qsl(), settings,
                new LogSettings().outputDirectory(folder).copySummaryToStdout(false),
                attempt == 1 ? engine : engine.copy().jitWarmupMs(0), null, List.of(), DISCARD).run();
            if (result.performance().isEmpty() || result.errorCount() > 0)
            {
                throw new IllegalArgumentException("the capacity probe (an Offline run, logs in " + folder
                    + ") failed" + (result.messages().isEmpty() ? "" : ": " + result.messages().get(0))
                    + "; give --start-qps to search without it");
            }
            final PerformanceSummary s = result.performance().get(0);
            final double rate = s.samplesPerSecond();
            final double seconds = rate > 0 ? s.sampleCount() / rate : 0;
            last = rate;
            console.printf(Locale.ROOT, "capacity probe %d: Offline, %d samples in %.3f s: %.2f samples/s%n",
                attempt, s.sampleCount(), seconds, rate);
            if (seconds * 1e3 >= windowMs / 2.0 || capped < expected || !(rate > 0))
            {
                break;
            }
            expected = rate * 1.5;
        }
        if (!(last > 0))
        {
            throw new IllegalArgumentException("the capacity probe measured no throughput (logs in " + out
                + "); give --start-qps");
        }
        return new Estimate(last, List.copyOf(folders));
    }
}
