package org.jloadgen.analysis.peak;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.EngineFlags;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.cli.api.SettingsOptions;
import org.jloadgen.cli.api.SutSelection;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.spi.SutInstance;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jloadgen peak}: the highest Server target QPS a system sustains under its latency bound, found with full
 * runs of the engine as SyLT describes (see {@link PeakSearch}), against one SUT loaded once.
 */
@Command(
    name = "peak",
    mixinStandardHelpOptions = true,
    description = {
        "Find the highest Server target QPS whose runs are VALID (latency bound at its percentile, early stopping, "
            + "min duration and queries), as SyLT does: bracket from a start QPS, then bisect to --resolution, "
            + "repeating runs near the boundary.",
        "Every run keeps its logs in its own folder under --out; peak.md there sums up the search (rewritten "
            + "after every run) with a latency-vs-QPS chart. Ctrl-C stops the search and keeps what it found.",
        "Exit codes: 0 a peak was found (also where --max-runs ended the bisection early: peak.md gives the "
            + "bracket), 3 none (no target passed, or the search was stopped before one did), 2 bad usage or a "
            + "target that cannot be judged, 1 unexpected failure."},
    defaultValueProvider = PeakDefaults.class)
public final class PeakCommand implements Callable<Integer>
{
    /** LoadGen's default {@code server_target_qps}: a config that leaves it there has not chosen a target. */
    private static final double LOADGEN_DEFAULT_TARGET_QPS = 1.0;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions settings;

    @Mixin
    SutSelection sut;

    @Mixin
    EngineFlags engineFlags;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "out/peak",
        description = "Folder of the search: peak.md, the chart and a folder per run (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--start-qps", paramLabel = "QPS",
        description = "First target. Default: the trace's own rate with --trace, else the config's "
            + "server_target_qps, else (LoadGen's default of 1 QPS counts as unset) a capacity probe.")
    Double startQps;

    @Option(names = "--capacity-probe",
        description = "Start from a quick capacity probe (Offline runs of --capacity-window-ms) even when the "
            + "config has a target.")
    boolean capacityProbe;

    @Option(names = "--capacity-window-ms", paramLabel = "MS", defaultValue = "1000",
        description = "How long a capacity-probe run should last (default: ${DEFAULT-VALUE}).")
    long capacityWindowMs;

    @Option(names = "--min-qps", paramLabel = "QPS",
        description = "Lowest target to try (default: the start / 1024).")
    Double minQps;

    @Option(names = "--max-qps", paramLabel = "QPS", description = "Highest target to try (default: no limit).")
    Double maxQps;

    @Option(names = "--resolution", paramLabel = "FRACTION", defaultValue = "0.01",
        description = "Bisect until the lowest failing target is within this fraction above the peak "
            + "(default: ${DEFAULT-VALUE} = 1%%).")
    double resolution;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3",
        description = "Runs a target needs, all VALID, while bisecting; the peak passed all of them "
            + "(default: ${DEFAULT-VALUE}; bracketing targets run once).")
    int repeats;

    @Option(names = "--step", paramLabel = "FACTOR", defaultValue = "2",
        description = "Bracketing factor: the target is multiplied (while runs pass) or divided (while they fail) by "
            + "this (default: ${DEFAULT-VALUE}).")
    double step;

    @Option(names = "--max-runs", paramLabel = "N", defaultValue = "60",
        description = "Most runs in all (default: ${DEFAULT-VALUE}).")
    int maxRuns;

    @Option(names = "--duration-ms", paramLabel = "MS",
        description = "Measured duration of each run (min_duration_ms; default: the config's).")
    Long durationMs;

    @Option(names = "--min-queries", paramLabel = "N",
        description = "Minimum queries of each run (min_query_count; default: the config's).")
    Long minQueries;

    @Option(names = "--seed", paramLabel = "BASE",
        description = "Runs draw fresh seeds from this base (default: the config's schedule_rng_seed).")
    Long seedBase;

    @Option(names = "--pin-seeds",
        description = "Every run uses the config's seeds (repeats then differ only by the system's own noise).")
    boolean pinSeeds;

    @Option(names = "--trace", paramLabel = "FILE",
        description = "Search on a captured trace (text or CSV, as run --trace reads) replayed faster or slower to "
            + "each target instead of LoadGen's generated Poisson trace.")
    Path trace;

    @Override
    public Integer call() throws Exception
    {
        final PrintStream stdout = System.out;
        if (sut.listRequested())
        {
            SutSelection.listSuts(stdout);
            return ExitCodes.VALID;
        }
        sut.provider();
        final SettingsOptions.Loaded loaded = settings.load(System.err);
        final TestSettings base = checkedSettings(loaded.settings());
        checkConflicts(base);
        final EngineOptions engine = engineFlags.engineOptions();
        final ReplayQueries replay = trace == null ? null : ReplayQueries.read(trace);
        if (replay != null && !(replay.samplesPerSecond() > 0))
        {
            throw new IllegalArgumentException(trace + ": a trace of one instant has no rate to scale");
        }
        Files.createDirectories(out);
        final RunSeeds seeds = pinSeeds
            ? RunSeeds.pinned(new ProbeRun.Seeds(base.qslRngSeed(), base.sampleIndexRngSeed(), base.scheduleRngSeed()))
            : RunSeeds.fresh(seedBase != null ? seedBase : base.scheduleRngSeed());
        try (SutInstance instance = sut.create(base, replay == null ? 0 : replay.maxIndex() + 1,
            new LogSettings().outputDirectory(out.resolve("sut-start")), stdout))
        {
            final String startedFrom;
            final double start;
            if (startQps != null)
            {
                start = startQps;
                startedFrom = "--start-qps " + PeakFormat.qps(start);
            }
            else if (!capacityProbe && replay != null)
            {
                start = replay.samplesPerSecond();
                startedFrom = "the trace's own rate, " + PeakFormat.qps(start) + " QPS";
            }
            else if (!capacityProbe && base.serverTargetQps() != LOADGEN_DEFAULT_TARGET_QPS)
            {
                start = base.serverTargetQps();
                startedFrom = "the config's server_target_qps, " + PeakFormat.qps(start);
            }
            else
            {
                final CapacityProbe.Estimate estimate = CapacityProbe.run(instance, base,
                    instance.engineOptions(engine), out, capacityWindowMs, stdout);
                start = estimate.samplesPerSecond();
                startedFrom = "a capacity probe: " + PeakFormat.qps(start) + " samples/s flat out (Offline, logs in "
                    + out.relativize(estimate.folders().get(estimate.folders().size() - 1)) + ")";
            }
            final PeakSearch.Limits limits = new PeakSearch.Limits(minQps != null ? minQps : start / 1024,
                maxQps != null ? maxQps : Double.POSITIVE_INFINITY, resolution, repeats, step, maxRuns);
            if (start < limits.minQps() || start > limits.maxQps())
            {
                throw new IllegalArgumentException("the start QPS " + PeakFormat.qps(start) + " is outside --min-qps "
                    + PeakFormat.qps(limits.minQps()) + " .. --max-qps " + PeakFormat.qps(limits.maxQps()));
            }
            final EngineProber prober = new EngineProber(instance, base, engine, settings.auditConfigPath(),
                loaded.errors(), out, seeds, replay);
            final PeakJob job = new PeakJob(new PeakSearch(limits), prober, out,
                context(instance, base, engine, replay, startedFrom, limits, seeds), stdout);
            stdout.println(ConsoleText.wrap(String.format(Locale.ROOT, "jloadgen peak: %s, starting at %s QPS; logs "
                + "under %s", instance.sut().name(), PeakFormat.qps(start), out.toAbsolutePath()), "  "));
            final PeakSearch.Result result = runInterruptibly(job, start);
            return exitCode(result);
        }
    }

    /**
     * @return the settings each run starts from, checked: Server, PerformanceOnly, a latency bound, the run
     *         length options applied.
     */
    private TestSettings checkedSettings(final TestSettings requested)
    {
        if (requested.scenario() != TestScenario.SERVER)
        {
            throw new IllegalArgumentException("peak searches Server target QPS; --scenario " + requested.scenario()
                + " has none (use --scenario Server)");
        }
        if (requested.mode() != TestMode.PERFORMANCE_ONLY)
        {
            throw new IllegalArgumentException("peak runs PerformanceOnly probes; --mode " + requested.mode()
                + " conflicts with it (LoadGen's own search is run --mode FindPeakPerformance)");
        }
        if (!requested.useTokenLatencies() && requested.serverTargetLatencyNs() <= 0)
        {
            throw new IllegalArgumentException("the settings give no latency bound (server_target_latency_ns = "
                + requested.serverTargetLatencyNs() + "): set one, e.g. --set server_target_latency_ns=10000000");
        }
        final TestSettings base = requested.copy();
        if (durationMs != null)
        {
            if (durationMs <= 0)
            {
                throw new IllegalArgumentException("--duration-ms must be positive, got " + durationMs);
            }
            base.minDurationMs(durationMs);
        }
        if (minQueries != null)
        {
            if (minQueries < 0)
            {
                throw new IllegalArgumentException("--min-queries must not be negative, got " + minQueries);
            }
            base.minQueryCount(minQueries);
        }
        return base;
    }

    /**
     * Options that contradict each other.
     */
    private void checkConflicts(final TestSettings base)
    {
        final List<String> sets = spec.commandLine().getParseResult().matchedOptionValue("--set", List.<String>of());
        for (final String assignment : sets)
        {
            final String key = assignment.contains("=") ? assignment.substring(0, assignment.indexOf('=')).trim() : "";
            if (durationMs != null && key.equals("min_duration_ms"))
            {
                throw new IllegalArgumentException("--duration-ms and --set min_duration_ms both set the run length; "
                    + "give one");
            }
            if (minQueries != null && key.equals("min_query_count"))
            {
                throw new IllegalArgumentException("--min-queries and --set min_query_count both set the minimum "
                    + "queries; give one");
            }
            if (key.equals("server_target_qps"))
            {
                throw new IllegalArgumentException("peak chooses each run's server_target_qps; give the first with "
                    + "--start-qps instead of --set server_target_qps");
            }
        }
        if (pinSeeds && seedBase != null)
        {
            throw new IllegalArgumentException("--pin-seeds keeps the config's seeds; --seed derives fresh ones: give "
                + "one");
        }
        if (capacityProbe && startQps != null)
        {
            throw new IllegalArgumentException("--capacity-probe chooses the start; --start-qps gives it: give one");
        }
        if (capacityWindowMs <= 0)
        {
            throw new IllegalArgumentException("--capacity-window-ms must be positive, got " + capacityWindowMs);
        }
        if (startQps != null && !(startQps > 0 && !startQps.isInfinite()))
        {
            throw new IllegalArgumentException("--start-qps must be a positive number, got " + startQps);
        }
        if (base.maxDurationMs() != 0 && base.maxDurationMs() < base.minDurationMs())
        {
            throw new IllegalArgumentException("max_duration_ms " + base.maxDurationMs() + " is below "
                + "min_duration_ms " + base.minDurationMs() + ": no run could be VALID");
        }
    }

    private PeakReport.Context context(final SutInstance instance, final TestSettings base,
        final EngineOptions engine, final ReplayQueries replay, final String startedFrom,
        final PeakSearch.Limits limits, final RunSeeds seeds)
    {
        final String sutText = instance.sut().name() + " (--sut " + sut.sutName()
            + (sut.options().isEmpty() ? "" : " " + sut.options()) + ")";
        final String scenario = "Server PerformanceOnly, " + (replay == null ? "LoadGen's Poisson trace"
            : "the trace " + replay.source() + " scaled to each target");
        final String percentile = PeakFormat.number(base.serverTargetLatencyPercentile() * 100);
        final String bound = base.useTokenLatencies()
            ? String.format(Locale.ROOT, "TTFT p%s <= %s, TPOT <= %s", percentile,
                PeakFormat.latency(base.serverTtftLatencyNs()), PeakFormat.latency(base.serverTpotLatencyNs()))
            : String.format(Locale.ROOT, "p%s <= %s", percentile, PeakFormat.latency(base.serverTargetLatencyNs()));
        final String duration = String.format(Locale.ROOT, "min_duration_ms %d, min_query_count %d, start-up %d ms, "
                + "warm-up %d ms", base.minDurationMs(), base.minQueryCount(), engine.startupMs(), engine.warmupMs());
        return new PeakReport.Context(sutText, "jloadgen " + String.join(" ",
            spec.commandLine().getParseResult().originalArgs()), scenario, bound, duration, startedFrom, limits,
            seeds);
    }

    /**
     * Runs the search so that Ctrl-C (SIGINT/SIGTERM) stops it cleanly: the run in progress is aborted, the report
     * is written with every finished run, and the signal handler waits for that before the JVM exits.
     */
    private static PeakSearch.Result runInterruptibly(final PeakJob job, final double start)
    {
        final Thread hook = new Thread(() ->
        {
            job.interrupt("interrupted by a signal (SIGINT/SIGTERM)");
            try
            {
                job.awaitReport(60_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "jloadgen-peak-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            return job.run(start);
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ex)
            {
                // Already shutting down: the hook is running and waits for the report.
            }
        }
    }

    private static int exitCode(final PeakSearch.Result result)
    {
        return switch (result.status())
        {
            case FOUND, ABOVE_MAX -> ExitCodes.VALID;
            // A passing target below every failing one is a peak, if not bisected to --resolution.
            case RUN_LIMIT -> Double.isNaN(result.peakQps()) ? ExitCodes.INVALID : ExitCodes.VALID;
            case UNJUDGEABLE -> ExitCodes.USAGE;
            default -> ExitCodes.INVALID;
        };
    }
}
