package org.jloadgen.analysis.peak;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.spi.SutInstance;

/**
 * Runs each probe of a peak search as a full test of the engine ({@link TestRunner}) against one SUT instance that
 * stays loaded for the whole search, each into its own log folder, and judges it exactly as its summary does.
 * Every run gets fresh seeds unless they are pinned; with a replayed trace, the trace is sped up or slowed down to
 * the target QPS.
 */
public final class EngineProber implements PeakSearch.Prober
{
    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream(), true,
        StandardCharsets.UTF_8);

    private final SutInstance instance;
    private final TestSettings base;
    private final EngineOptions engine;
    private final Path auditConfig;
    private final List<String> configErrors;
    private final Path out;
    private final RunSeeds seeds;
    private final ReplayQueries trace;
    private volatile TestRunner current;
    private volatile String abortReason;

    /**
     * @param instance     the SUT and its sample library, created once for the search.
     * @param base         the requested settings (Server, PerformanceOnly); the target QPS and seeds are set per run.
     * @param engine       the engine options (the JIT warm-up runs before the first run only).
     * @param auditConfig  an audit.config to apply as {@code run} does, or {@code null}.
     * @param configErrors lenient config errors, logged in every run.
     * @param out          the search's folder; each run writes into a folder of its own below it.
     * @param seeds        the seeds of each run.
     * @param trace        a captured trace to replay scaled to each target, or {@code null} to generate LoadGen's.
     */
    public EngineProber(final SutInstance instance, final TestSettings base, final EngineOptions engine,
        final Path auditConfig, final List<String> configErrors, final Path out, final RunSeeds seeds,
        final ReplayQueries trace)
    {
        if (base.scenario() != TestScenario.SERVER || base.mode() != TestMode.PERFORMANCE_ONLY)
        {
            throw new IllegalArgumentException("peak probes are Server PerformanceOnly runs, not " + base.scenario()
                + " " + base.mode());
        }
        if (trace != null && !(trace.samplesPerSecond() > 0))
        {
            throw new IllegalArgumentException(trace.source() + ": a trace of one instant has no rate to scale");
        }
        this.instance = instance;
        this.base = base.copy();
        this.engine = instance.engineOptions(engine);
        this.auditConfig = auditConfig;
        this.configErrors = List.copyOf(configErrors);
        this.out = out;
        this.seeds = seeds;
        this.trace = trace;
    }

    /**
     * Aborts the run in progress (any thread); it finishes its logs and counts as ABORTED.
     *
     * @param reason why, for its logs.
     */
    public void abort(final String reason)
    {
        abortReason = reason;
        final TestRunner runner = current;
        if (runner != null)
        {
            runner.abort(reason);
        }
    }

    /**
     * @param number    run number.
     * @param targetQps target.
     * @param repeat    repeat at the target.
     * @return the folder of that run: {@code run-NN-<qps>qps-rK}.
     */
    public Path folder(final int number, final double targetQps, final int repeat)
    {
        return out.resolve(String.format(Locale.ROOT, "run-%02d-%sqps-r%d", number, PeakFormat.qps(targetQps), repeat));
    }

    @Override
    public ProbeRun run(final int number, final double targetQps, final int repeat)
    {
        final ProbeRun.Seeds runSeeds = seeds.forRun(number);
        final TestSettings settings = base.copy().serverTargetQps(targetQps).qslRngSeed(runSeeds.qsl())
            .sampleIndexRngSeed(runSeeds.sample()).scheduleRngSeed(runSeeds.schedule());
        final ReplayQueries replay = trace == null ? null : scaledTrace(targetQps, settings);
        final Path folder = folder(number, targetQps, repeat);
        final EngineOptions options = number == 1 ? engine : engine.copy().jitWarmupMs(0);
        final TestRunner runner = new TestRunner(instance.sut(), instance.qsl(), settings,
            new LogSettings().outputDirectory(folder).copySummaryToStdout(false), options, auditConfig, configErrors,
            DISCARD);
        if (replay != null)
        {
            runner.replay(replay);
        }
        final long startNs = System.nanoTime();
        final TestResult result;
        current = runner;
        try
        {
            if (abortReason != null)
            {
                runner.abort(abortReason);
            }
            result = runner.run();
        }
        finally
        {
            current = null;
        }
        final long wallMs = (System.nanoTime() - startNs) / 1_000_000;
        try
        {
            instance.writeStatistics(folder, DISCARD);
        }
        catch (final java.io.IOException | RuntimeException ex)
        {
            // The statistics are a convenience; the run's verdict does not depend on them.
        }
        return judge(number, targetQps, repeat, folder, runSeeds, result, wallMs);
    }

    private ReplayQueries scaledTrace(final double targetQps, final TestSettings settings)
    {
        final double speed = targetQps / trace.samplesPerSecond();
        final double seconds = trace.lastOffsetNs() / 1e9 / speed;
        if (seconds * 1000 < settings.minDurationMs())
        {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s lasts %.3f s when replayed at %s QPS "
                + "(speed %.4g), less than min_duration_ms %d: that run could never be VALID; give a longer trace "
                + "or a lower --duration-ms (the trace reaches min_duration up to %s QPS)", trace.source(), seconds,
                PeakFormat.qps(targetQps), speed, settings.minDurationMs(),
                PeakFormat.qps(trace.samplesPerSecond() * trace.lastOffsetNs() / 1e6 / settings.minDurationMs())));
        }
        return trace.scaled(speed);
    }

    private ProbeRun judge(final int number, final double targetQps, final int repeat, final Path folder,
        final ProbeRun.Seeds runSeeds, final TestResult result, final long wallMs)
    {
        final List<PerformanceSummary> performance = result.performance();
        final String firstError = result.messages().isEmpty() ? "" : result.messages().get(0);
        if (performance.isEmpty())
        {
            return new ProbeRun(number, targetQps, repeat, folder, ProbeRun.Verdict.INVALID, runSeeds,
                new ProbeRun.Latencies(0, 0, 0, 0, 0), 0, 0, false, false, false, false, result.errorCount(),
                firstError.isEmpty() ? "no performance result" : firstError, wallMs);
        }
        final PerformanceSummary s = performance.get(performance.size() - 1);
        final boolean aborted = abortReason != null && result.messages().stream()
            .anyMatch(m -> m.contains(abortReason));
        final ProbeRun.Verdict verdict = aborted ? ProbeRun.Verdict.ABORTED
            : result.valid() ? ProbeRun.Verdict.VALID : ProbeRun.Verdict.INVALID;
        final String why;
        if (verdict == ProbeRun.Verdict.VALID)
        {
            why = "";
        }
        else
        {
            final StringBuilder b = new StringBuilder(s.invalidReason().trim());
            if (!s.earlyStoppingMet())
            {
                b.append(b.isEmpty() ? "" : " ").append("Early stopping not met.");
            }
            if (result.errorCount() > 0)
            {
                b.append(b.isEmpty() ? "" : " ").append(result.errorCount()).append(" error(s)")
                    .append(firstError.isEmpty() ? "" : ": " + firstError);
            }
            why = b.toString();
        }
        final boolean tokens = s.settings().useTokenLatencies;
        final ProbeRun.Latencies latencies = new ProbeRun.Latencies(percentileNs(s, 0.5), percentileNs(s, 0.99),
            s.settings().targetLatencyPercentile, tokens ? s.targetFirstTokenNs() : s.targetSampleLatencyNs(),
            tokens ? s.settings().serverTtftLatencyNs : s.settings().targetLatencyNs);
        return new ProbeRun(number, targetQps, repeat, folder, verdict, runSeeds, latencies,
            s.completedSamplesPerSecond(), s.queryCount(), s.perfConstraintsMet(), s.earlyStoppingMet(),
            s.minDurationMet(), s.minQueriesMet(), result.errorCount(), why, wallMs);
    }

    private static long percentileNs(final PerformanceSummary s, final double p)
    {
        return s.sampleCount() == 0 ? 0 : s.sampleLatencyPercentileNs(PerformanceSummary.percentileIndex(p));
    }
}
