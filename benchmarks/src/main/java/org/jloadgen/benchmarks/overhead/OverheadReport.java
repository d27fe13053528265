package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;

import org.jloadgen.bindings.JvmFlags;

import org.jloadgen.api.TestScenario;

/**
 * What an overhead run measured, printed as a Markdown table that can be pasted into the docs: one row per figure
 * with the official LoadGen's value, the target, min / median / max over the repeats, whether the median meets
 * the target, and the median peak RSS and wall time of the runs the figure comes from; then notes on each
 * configuration.
 *
 * @param repeats    repeats per configuration.
 * @param jvmFlags   the child JVMs' flags.
 * @param runs       the runs per configuration id.
 * @param peak       the Server peak search, or {@code null} if not run.
 * @param baselines  the tiny runs per scenario (memory baselines).
 * @param floors     the platform-floor measurements (before the first run, after the last).
 * @param workDir    where the runs' logs are.
 * @param loadBefore load average before the first run.
 * @param loadAfter  load average after the last run.
 */
public record OverheadReport(
    int repeats,
    List<String> jvmFlags,
    Map<String, List<RunResult>> runs,
    ServerPeak peak,
    Map<TestScenario, List<RunResult>> baselines,
    List<SpinFloor.Result> floors,
    Path workDir,
    String loadBefore,
    String loadAfter)
{
    private static final String NONE = "—";
    /** Longest reason printed for an INVALID run. */
    private static final int PROBLEM_CHARS = 100;

    /**
     * One printed row.
     *
     * @param figure the figure's label.
     * @param loadgen the official LoadGen's value.
     * @param target the target.
     * @param spread the values over the repeats, or {@code null} if no run produced one.
     * @param format how to print them.
     * @param met    ✓, ✗ or empty.
     * @param peakRssMib median peak RSS of the runs.
     * @param wallS  median wall time of the runs.
     */
    public record Row(String figure, String loadgen, String target, Spread spread, Format format, String met,
        double peakRssMib, double wallS)
    {
    }

    /**
     * @return the rows, in table order.
     */
    public List<Row> rows()
    {
        final List<Row> rows = new ArrayList<>();
        if (peak != null)
        {
            final ServerPeak.Target at = peak.peakTarget();
            final String label = "Server: highest target QPS that is VALID in " + repeats + " of " + repeats
                + " runs";
            rows.add(new Row(label, "~300k", "≥ 1.5M (aim 3M)",
                at == null ? null : new Spread(Double.NaN, peak.peakQps(), Double.NaN, 1), Format.COUNT,
                peak.peakQps() >= 1.5e6 ? "✓" : "✗", at == null ? Double.NaN : medianRssMib(at.runs()),
                at == null ? Double.NaN : medianWallS(at.runs())));
        }
        if (!floors.isEmpty())
        {
            final List<Double> p99 = new ArrayList<>();
            floors.forEach(f -> p99.add((double)f.p99Ns()));
            rows.add(new Row("platform floor, no engine: busy-spin to a 10k/s Poisson schedule, p99 lateness",
                NONE, NONE, Spread.of(p99), Format.NANOS, "", Double.NaN, Double.NaN));
        }
        for (final Figure f : BudgetTable.figures())
        {
            final List<RunResult> of = runs.get(f.configId());
            if (of == null)
            {
                continue;
            }
            final double baselineKib = f.baselineScenario() == null ? 0 : medianRssKib(baselines.get(
                f.baselineScenario()));
            final List<Double> values = new ArrayList<>();
            for (final RunResult r : of)
            {
                if (r.detail() != null && (f.baselineScenario() == null || r.peakRssKib() > 0))
                {
                    try
                    {
                        values.add(f.value().of(r, baselineKib));
                    }
                    catch (final IllegalStateException | IllegalArgumentException | NoSuchElementException ex)
                    {
                        // A run that stopped before logging this figure counts as producing none.
                    }
                }
            }
            final Spread spread = values.isEmpty() ? null : Spread.of(values);
            final String met = f.meets() == null || spread == null ? "" : f.meets().test(spread.median()) ? "✓" : "✗";
            rows.add(new Row(f.label(), f.loadgen(), f.target(), spread, f.format(), met, medianRssMib(of),
                medianWallS(of)));
        }
        return rows;
    }

    /**
     * @return the table and its notes in Markdown.
     */
    public String markdown()
    {
        final StringBuilder out = new StringBuilder();
        out.append("| figure (null SUT) | official LoadGen | target | JLoadGen min | median | max | met | peak RSS"
            + " | wall time |\n");
        out.append("|---|---:|---:|---:|---:|---:|:---:|---:|---:|\n");
        for (final Row r : rows())
        {
            final Spread s = r.spread();
            out.append("| ").append(r.figure()).append(" | ").append(r.loadgen()).append(" | ").append(r.target())
                .append(" | ").append(cell(s == null ? Double.NaN : s.min(), r.format()))
                .append(" | ").append(s == null ? "failed" : cell(s.median(), r.format()))
                .append(" | ").append(cell(s == null ? Double.NaN : s.max(), r.format()))
                .append(" | ").append(r.met())
                .append(" | ").append(Double.isNaN(r.peakRssMib()) ? NONE
                    : String.format(Locale.ROOT, "%.0f MiB", r.peakRssMib()))
                .append(" | ").append(Double.isNaN(r.wallS()) ? NONE : String.format(Locale.ROOT, "%.1f s", r.wallS()))
                .append(" |\n");
        }
        out.append('\n');
        out.append("¹ not a budget row: the official LoadGen's null-SUT example log in "
            + "testdata/official/example-logs.\n");
        out.append("² the official LoadGen's C++ null SUT with a condition-variable worker on the 2-core development "
            + "machine (benchmarks/README.md; `jloadgen overhead --side-by-side` measures it beside JLoadGen).\n\n");
        out.append("Each configuration ran ").append(repeats).append(" times, each in a fresh JVM (`")
            .append(String.join(" ", JvmFlags.REQUIRED)).append(' ').append(String.join(" ", jvmFlags))
            .append("`); min / median / max over the repeats, peak RSS (VmHWM) and whole-process wall time are ")
            .append("medians. Load average (1/5/15 min) before: ").append(loadBefore).append(", after: ")
            .append(loadAfter).append(busySummary()).append(".\n");
        if (!baselines.isEmpty())
        {
            out.append("Memory per query (sample) = (peak RSS − median peak RSS of a 100-query run of the same ")
                .append("scenario and JVM flags: ")
                .append(baselines.entrySet().stream().map(e -> e.getKey().logName() + " " + String.format(Locale.ROOT,
                    "%.1f MiB", medianRssKib(e.getValue()) / 1024)).collect(Collectors.joining(", ")))
                .append(") / generated queries (samples).\n");
        }
        for (final SpinFloor.Result f : floors)
        {
            out.append(String.format(Locale.ROOT,
                "Platform floor (in the runner's JVM, %d deadlines): p50 %d ns, p99 %d ns, "
                + "p99.9 %d ns, max %d ns; %d clock gaps > 1 µs, %.2f%% of the time.%n", f.deadlines(), f.p50Ns(),
                f.p99Ns(), f.p999Ns(), f.maxNs(), f.stalls(), 100 * f.stalledFraction()));
        }
        out.append('\n');
        for (final Map.Entry<String, List<RunResult>> e : runs.entrySet())
        {
            final List<RunResult> of = e.getValue();
            out.append("- `").append(e.getKey()).append("`: ").append(of.get(0).configuration().description())
                .append(": `").append(of.get(0).configuration().commandLine()).append("`; runs: ")
                .append(validity(of)).append('\n');
        }
        if (peak != null)
        {
            out.append("- `").append(BudgetTable.SERVER_PEAK).append("`: `")
                .append(BudgetTable.serverAt(0).commandLine().replace("server_target_qps=0", "server_target_qps=Q"))
                .append("`; targets tried: ")
                .append(peak.targets().stream().map(p -> Format.si(p.targetQps()) + " "
                    + p.runs().stream().filter(RunResult::valid).count() + "/" + p.runs().size() + " VALID"
                    + (p.passed() ? "" : " (" + p.runs().get(p.runs().size() - 1).problem() + ")"))
                    .collect(Collectors.joining("; ")))
                .append('\n');
        }
        out.append("\nRun logs: ").append(workDir).append('\n');
        return out.toString();
    }

    /**
     * @param file where to write {@link #markdown()}.
     * @throws IOException if it cannot be written.
     */
    public void write(final Path file) throws IOException
    {
        Files.writeString(file, markdown());
    }

    private String busySummary()
    {
        final List<Double> before = new ArrayList<>();
        final List<Double> during = new ArrayList<>();
        final List<RunResult> all = new ArrayList<>();
        runs.values().forEach(all::addAll);
        if (peak != null)
        {
            peak.targets().forEach(p -> all.addAll(p.runs()));
        }
        for (final RunResult r : all)
        {
            if (!Double.isNaN(r.busyBefore()))
            {
                before.add(r.busyBefore());
            }
            if (!Double.isNaN(r.otherCpu()))
            {
                during.add(r.otherCpu());
            }
        }
        final StringBuilder out = new StringBuilder();
        if (!before.isEmpty())
        {
            final Spread s = Spread.of(before);
            out.append(String.format(Locale.ROOT, "; CPU used by other processes in the second before each run: "
                + "median %.0f%%, max %.0f%%", 100 * s.median(), 100 * s.max()));
        }
        if (!during.isEmpty())
        {
            final Spread s = Spread.of(during);
            out.append(String.format(Locale.ROOT, "; during the runs: median %.0f%%, max %.0f%% of the machine",
                100 * s.median(), 100 * s.max()));
        }
        return out.toString();
    }

    private static String validity(final List<RunResult> runs)
    {
        final Map<String, Integer> outcomes = new LinkedHashMap<>();
        for (final RunResult r : runs)
        {
            outcomes.merge(r.valid() ? "VALID" : "INVALID (" + shorten(r.problem()) + ")", 1, Integer::sum);
        }
        return outcomes.entrySet().stream().map(e -> e.getValue() + " × " + e.getKey())
            .collect(Collectors.joining(", "));
    }

    private static String shorten(final String problem)
    {
        return problem.length() <= PROBLEM_CHARS ? problem : problem.substring(0, PROBLEM_CHARS - 1) + "…";
    }

    private static String cell(final double value, final Format format)
    {
        return Double.isNaN(value) ? NONE : format.format(value);
    }

    private static double medianRssKib(final List<RunResult> runs)
    {
        final List<Double> v = new ArrayList<>();
        for (final RunResult r : runs)
        {
            if (r.peakRssKib() > 0)
            {
                v.add((double)r.peakRssKib());
            }
        }
        return v.isEmpty() ? Double.NaN : Spread.of(v).median();
    }

    private static double medianRssMib(final List<RunResult> runs)
    {
        return medianRssKib(runs) / 1024;
    }

    private static double medianWallS(final List<RunResult> runs)
    {
        final List<Double> v = new ArrayList<>();
        for (final RunResult r : runs)
        {
            v.add(r.wallNs() / 1e9);
        }
        return Spread.of(v).median();
    }
}
