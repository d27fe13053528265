package org.jloadgen.analysis.peak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.schedule.PoissonTrace;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.testing.CommandLineRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jloadgen peak} from the command line: a whole search, its report and folders, bad input, a stop in the
 * middle of a run.
 */
class PeakCommandTest
{
    /** A row of peak.md's run table: number, target, repeat, verdict, ..., folder. */
    private static final Pattern RUN_ROW = Pattern.compile(
        "^\\| (\\d+) \\| ([0-9.]+) \\| (\\d+) \\| (VALID|INVALID|ABORTED) \\|.*\\| (run-[^ ]+) \\|$",
        Pattern.MULTILINE);

    @TempDir
    Path dir;

    private static List<String> simulatedM2()
    {
        // Two servers of 1 ms mean (capacity 2000/s) with a 20 ms p99 bound: the peak is near 1760 QPS.
        return List.of("--scenario", "Server", "--no-audit-config", "--sut", "synthetic", "--sut-opt", "time=simulated",
            "--sut-opt", "service=exponential:1ms", "--sut-opt", "workers=2", "--sut-opt", "tick=10us",
            "--set", "server_target_latency_ns=20000000");
    }

    private static CommandLineRun peak(final List<String> common, final String... more)
    {
        final List<String> args = new ArrayList<>();
        args.add("peak");
        args.addAll(common);
        args.addAll(List.of(more));
        return CommandLineRun.jloadgen(args.toArray(String[]::new));
    }

    @Test
    void shouldFindThePeakFromACapacityProbeAndReportEveryRunAsItsSummaryJudgedIt() throws IOException
    {
        final Path out = dir.resolve("peak");
        final CommandLineRun r = peak(simulatedM2(), "--duration-ms", "10000", "--repeats", "2", "--out",
            out.toString());
        assertEquals(ExitCodes.VALID, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("capacity probe 1: Offline"), r.out());
        assertTrue(r.out().contains("run 1: "), r.out());
        assertTrue(r.out().contains("Peak: "), r.out());
        // Every line reads in an 80-column terminal, a long path alone on its line excepted.
        for (final String line : r.out().split("\n"))
        {
            assertTrue(line.length() <= 80 || !line.strip().contains(" "), () -> line.length() + ": " + line);
        }
        final String report = Files.readString(out.resolve("peak.md"));
        assertTrue(report.startsWith("# jloadgen peak: SimulatedSyntheticSUT (--sut synthetic "), report);
        assertTrue(report.contains("Search: found;"), report);
        // The latency-vs-QPS chart, drawn with the report's charting, as PNG and SVG, shown in peak.md.
        assertTrue(report.contains("![latency vs target QPS](latency-vs-qps.png)"), report);
        assertTrue(Files.size(out.resolve("latency-vs-qps.png")) > 10_000);
        final String svg = Files.readString(out.resolve("latency-vs-qps.svg"));
        assertTrue(svg.contains("Latency vs target QPS") && svg.contains("bound: p99 &lt;= 20.00 ms"), svg);
        assertTrue(Pattern.compile("started from: a capacity probe: (19|20)\\d\\d\\.\\d\\d samples/s flat out")
            .matcher(report).find(), report);
        final Matcher peakLine = Pattern.compile("\\*\\*Peak: ([0-9.]+) QPS\\*\\*, VALID in 2 of 2 runs")
            .matcher(report);
        assertTrue(peakLine.find(), report);
        final double peak = Double.parseDouble(peakLine.group(1));
        assertTrue(peak > 1_650 && peak < 1_850, "peak " + peak);

        // Every run has its own folder with LoadGen's logs, and peak.md's verdict is its summary's.
        final Matcher rows = RUN_ROW.matcher(report);
        int runs = 0;
        while (rows.find())
        {
            runs++;
            final Path folder = out.resolve(rows.group(5));
            final String summary = Files.readString(folder.resolve("mlperf_log_summary.txt"));
            final boolean valid = summary.contains("Result is : VALID") && summary.contains("No errors encountered");
            assertEquals(valid ? "VALID" : "INVALID", rows.group(4), folder.toString());
            final MlLogParser detail = MlLogParser.parse(folder.resolve("mlperf_log_detail.txt"));
            assertEquals(Double.parseDouble(rows.group(2)),
                ((Number)detail.value("effective_target_qps")).doubleValue(), 0.01);
        }
        assertTrue(runs >= 6, "runs " + runs);
        try (Stream<Path> folders = Files.list(out))
        {
            assertEquals(runs, folders.filter(p -> p.getFileName().toString().startsWith("run-")).count());
        }
        // Fresh seeds: no two runs share a schedule seed.
        final Matcher seeds = Pattern.compile("schedule_rng_seed=(-?\\d+)").matcher(report);
        final List<String> seen = new ArrayList<>();
        while (seeds.find())
        {
            assertFalse(seen.contains(seeds.group(1)), "seed repeated: " + seeds.group(1));
            seen.add(seeds.group(1));
        }
        assertEquals(runs, seen.size());
    }

    @Test
    void shouldSearchServerByDefaultAndExitZeroWhenTheRunLimitEndsABisectionThatFoundAPeak() throws IOException
    {
        // No --scenario: peak's default is Server. 1000 QPS passes, 2000 fails, 1500 passes: then --max-runs 3 ends
        // the bisection with a peak found (a passing target below the failing one).
        final Path out = dir.resolve("limited");
        final CommandLineRun r = peak(simulatedM2().subList(2, simulatedM2().size()), "--start-qps", "1000",
            "--duration-ms", "5000", "--repeats", "1", "--max-runs", "3", "--out", out.toString());
        assertEquals(ExitCodes.VALID, r.exitCode(), r.out() + r.err());
        final String report = Files.readString(out.resolve("peak.md"));
        assertTrue(report.contains("Search: reached --max-runs"), report);
        assertTrue(report.contains("**Peak: 1500.00 QPS**"), report);
        final CommandLineRun help = CommandLineRun.jloadgen("peak", "--help");
        assertTrue(help.out().replaceAll("\\s+", " ").contains("Server or Offline (default: Server)"), help.out());
    }

    @Test
    void shouldSayThatNoRateMeetsABoundBelowTheServiceTimeAndKeepTheRuns() throws IOException
    {
        final Path out = dir.resolve("impossible");
        final CommandLineRun r = peak(List.of("--scenario", "Server", "--no-audit-config", "--sut", "synthetic",
                "--sut-opt", "time=simulated", "--sut-opt", "service=fixed:1ms", "--sut-opt", "tick=10us",
                "--set", "server_target_latency_ns=500000"),
            "--start-qps", "200", "--min-qps", "40", "--duration-ms", "5000", "--out", out.toString());
        assertEquals(ExitCodes.INVALID, r.exitCode(), r.out() + r.err());
        final String report = Files.readString(out.resolve("peak.md"));
        assertTrue(report.contains("**No peak**: no target passed all 3 of its runs; lowest failing target 40.00 QPS"),
            report);
        assertTrue(report.contains("The search ended early: no target down to --min-qps passed."), report);
        assertTrue(report.contains("Reduce target QPS to improve latency."), report);
        assertEquals(4, RUN_ROW.matcher(report).results().count(), "200, 100, 50, 40: " + report);
    }

    @Test
    void shouldNameTheSutsErrorWhenItFailsAtEveryRate() throws IOException
    {
        final Path out = dir.resolve("failing");
        final CommandLineRun r = peak(List.of("--scenario", "Server", "--no-audit-config", "--sut", "synthetic",
                "--sut-opt", "misbehave=throw", "--set", "server_target_latency_ns=10000000",
                "--completion-timeout-ms", "2000", "--jit-warmup-ms", "0"),
            "--start-qps", "400", "--min-qps", "100", "--duration-ms", "200", "--out", out.toString());
        assertEquals(ExitCodes.INVALID, r.exitCode(), r.out() + r.err());
        final String report = Files.readString(out.resolve("peak.md"));
        assertTrue(report.contains("**No peak**"), report);
        assertTrue(report.contains("error(s): error: The SUT failed: java.lang.IllegalStateException: "
            + "synthetic SUT misbehaving on purpose: throw from issueQuery"), report);
        assertEquals(3, RUN_ROW.matcher(report).results().count(), "400, 200, 100: " + report);
        assertTrue(r.out().contains("run 3: 100.00 QPS (repeat 1): INVALID"), r.out());
    }

    @Test
    void shouldRefuseConflictingOptions()
    {
        final List<String> base = simulatedM2();
        assertUsage(peak(List.of("--scenario", "Offline", "--sut", "null")), "peak searches Server target QPS; "
            + "--scenario Offline has none");
        assertUsage(peak(base, "--mode", "AccuracyOnly"), "peak runs PerformanceOnly probes; --mode AccuracyOnly");
        assertUsage(peak(base, "--duration-ms", "100", "--set", "min_duration_ms=200"),
            "--duration-ms and --set min_duration_ms both set the run length");
        assertUsage(peak(base, "--min-queries", "100", "--set", "min_query_count=200"),
            "--min-queries and --set min_query_count both set the minimum queries");
        assertUsage(peak(base, "--set", "server_target_qps=100"), "peak chooses each run's server_target_qps");
        assertUsage(peak(base, "--pin-seeds", "--seed", "4"), "--pin-seeds keeps the config's seeds");
        assertUsage(peak(base, "--capacity-probe", "--start-qps", "10"), "--capacity-probe chooses the start");
        assertUsage(peak(base, "--resolution", "2", "--start-qps", "10", "--out", dir.toString()),
            "--resolution must be between 0 and 1");
        assertUsage(peak(base, "--start-qps", "10", "--min-qps", "50", "--out", dir.toString()),
            "the start QPS 10.00 is outside --min-qps 50.00");
        assertUsage(peak(List.of("--scenario", "Server", "--sut", "null", "--set", "server_target_latency_ns=0")),
            "the settings give no latency bound (server_target_latency_ns = 0)");
        assertUsage(peak(base, "--duration-ms", "0"), "--duration-ms must be positive");
        assertUsage(peak(base, "--warmup-ms", "-5"), "--warmup-ms must be at least 0, got -5");
        assertUsage(peak(base, "--duration-ms", "5000", "--set", "max_duration_ms=1000"),
            "max_duration_ms 1000 is below min_duration_ms 5000: no run could be VALID");
    }

    private static void assertUsage(final CommandLineRun r, final String message)
    {
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains(message), r.err());
    }

    @Test
    void shouldSearchOnACapturedTraceScaledToEachTarget() throws IOException
    {
        // A 20 s Poisson capture at 1000 QPS; the search replays it faster and slower.
        final Path csv = dir.resolve("capture.csv");
        final StringBuilder text = new StringBuilder();
        PoissonTrace.generate(1_000, 1, 20_000_000_000L, 1024, 5, 6).write(text, ReplayQueries.Format.CSV);
        Files.writeString(csv, text);
        final Path out = dir.resolve("trace");
        final CommandLineRun r = peak(simulatedM2(), "--trace", csv.toString(), "--duration-ms", "5000",
            "--repeats", "1", "--resolution", "0.02", "--out", out.toString());
        assertEquals(ExitCodes.VALID, r.exitCode(), r.out() + r.err());
        final String report = Files.readString(out.resolve("peak.md"));
        assertTrue(report.contains("started from: the trace's own rate, "), report);
        assertTrue(report.contains("capture.csv scaled to each target"), report);
        final Matcher peakLine = Pattern.compile("\\*\\*Peak: ([0-9.]+) QPS\\*\\*").matcher(report);
        assertTrue(peakLine.find(), report);
        final double peak = Double.parseDouble(peakLine.group(1));
        assertTrue(peak > 1_600 && peak < 1_900, "peak " + peak);
        final Matcher first = RUN_ROW.matcher(report);
        assertTrue(first.find());
        final MlLogParser detail = MlLogParser.parse(out.resolve(first.group(5)).resolve("mlperf_log_detail.txt"));
        assertTrue(detail.records().stream().anyMatch(x -> x.key().equals("generic_message")
            && String.valueOf(x.value()).startsWith("Replaying ")), "replayed, not generated");
    }

    @Test
    void shouldStopWhenAScaledTraceIsTooShortToJudgeATarget() throws IOException
    {
        final Path csv = dir.resolve("short.csv");
        final StringBuilder text = new StringBuilder();
        PoissonTrace.generate(1_000, 1, 3_000_000_000L, 1024, 5, 6).write(text, ReplayQueries.Format.CSV);
        Files.writeString(csv, text);
        final Path out = dir.resolve("short");
        final CommandLineRun r = peak(simulatedM2(), "--trace", csv.toString(), "--duration-ms", "2000",
            "--repeats", "1", "--out", out.toString());
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.out() + r.err());
        final String report = Files.readString(out.resolve("peak.md"));
        assertTrue(report.contains("a target could not be judged"), report);
        assertTrue(report.contains("less than min_duration_ms 2000: that run could never be VALID"), report);
        assertTrue(RUN_ROW.matcher(report).results().count() >= 1, "the runs before are kept: " + report);
    }

    @Test
    void shouldKeepEveryFinishedRunWhenStoppedDuringARun() throws Exception
    {
        // Real time: runs of 3 s against the threaded synthetic SUT; the stop comes during the second run, whatever
        // the first run's verdict was on a busy machine.
        final Map<String, String> options = new HashMap<>(Map.of("service", "exponential:200us", "workers", "2"));
        try (SutInstance instance = new BuiltinSutProviders.Synthetic().create(
            new SutContext(TestScenario.SERVER, options, 1024, 1024)))
        {
            final TestSettings base = new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
                .serverTargetLatencyNs(1_000_000_000L).minDurationMs(3_000).minQueryCount(100);
            final Path out = dir.resolve("stopped");
            final EngineProber prober = new EngineProber(instance, base,
                new EngineOptions().jitWarmupMs(0).completionTimeoutMs(5_000), null, List.of(), out,
                RunSeeds.fresh(1), null);
            final PeakSearch.Limits limits = new PeakSearch.Limits(1, 1e6, 0.01, 1, 2, 10);
            final ByteArrayOutputStream console = new ByteArrayOutputStream();
            final PeakJob job = new PeakJob(new PeakSearch(limits), prober, out, new PeakReport.Context("test SUT",
                "jloadgen peak (test)", "Server", "p99 <= 1 s", "3 s", "--start-qps 200", limits,
                RunSeeds.fresh(1)), new PrintStream(console, true, StandardCharsets.UTF_8));
            final PeakSearch.Result[] result = new PeakSearch.Result[1];
            final Thread search = new Thread(() -> result[0] = job.run(200), "peak-search");
            search.start();
            // A run's folder appears when it opens its logs (they are renamed into place only at its end).
            final long deadlineNs = System.nanoTime() + 120_000_000_000L;
            Path second = null;
            while (second == null && System.nanoTime() < deadlineNs)
            {
                Thread.sleep(10);
                try (Stream<Path> folders = Files.list(out))
                {
                    second = folders.filter(p -> p.getFileName().toString().startsWith("run-02-")).findFirst()
                        .orElse(null);
                }
                catch (final java.nio.file.NoSuchFileException ex)
                {
                    // Not created yet.
                }
            }
            Thread.sleep(200);
            job.interrupt("interrupted by the test");
            assertTrue(job.awaitReport(60_000), "the report is written after the stop");
            search.join(60_000);

            assertEquals(PeakSearch.Status.STOPPED, result[0].status());
            assertEquals(2, result[0].runs().size(), result[0].runs().toString());
            assertTrue(result[0].runs().get(0).counted());
            final ProbeRun stopped = result[0].runs().get(1);
            assertEquals(ProbeRun.Verdict.ABORTED, stopped.verdict());
            assertEquals(second, stopped.folder());
            final String report = Files.readString(out.resolve("peak.md"));
            assertTrue(report.contains("The search ended early: stopped: interrupted by the test."), report);
            assertTrue(report.contains("| 1 | 200.00 | 1 | " + result[0].runs().get(0).verdict() + " |"), report);
            assertTrue(report.contains("| 2 | " + PeakFormat.qps(stopped.targetQps()) + " | 1 | ABORTED |"), report);
            // The aborted run's logs are complete and say why.
            assertTrue(Files.readString(second.resolve("mlperf_log_detail.txt"))
                .contains("Test aborted: interrupted by the test"));
            try (Stream<Path> files = Files.list(second))
            {
                assertTrue(files.noneMatch(p -> p.toString().endsWith(".partial")));
            }
            // The console's answer is wrapped to 80 columns.
            assertTrue(console.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ")
                .contains("The search ended early: stopped"), () -> console.toString(StandardCharsets.UTF_8));
        }
    }
}
