package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.HdrHistogram.Histogram;

/**
 * What the side-by-side comparison measured, as Markdown: per case, the official LoadGen's and JLoadGen's p50, p99 and
 * p99.9 latency (median over the repeats, min–max beside it) and LoadGen's figure divided by JLoadGen's; then where
 * JLoadGen's latency went (issue lateness and hand-off, the harness's share; inference per batch where the SUT
 * records it).
 *
 * @param repeats        runs per engine and case.
 * @param officialBinary the official LoadGen's null SUT, or {@code null}.
 * @param cases          the results per case, in table order.
 * @param workDir        where the runs' logs are.
 * @param loadBefore     load average before the first run.
 * @param loadAfter      load average after the last run.
 */
public record SideBySideReport(int repeats, Path officialBinary, List<CaseResult> cases, Path workDir,
    String loadBefore, String loadAfter)
{
    private static final String NONE = "—";
    private static final String[] PERCENTILE_KEYS = {"result_50.00_percentile_latency_ns",
        "result_99.00_percentile_latency_ns", "result_99.90_percentile_latency_ns"};

    /**
     * The runs of one case.
     *
     * @param sideBySideCase the case.
     * @param official       the official LoadGen's runs (empty when it has no counterpart).
     * @param jloadgen       JLoadGen's runs.
     * @param breakdowns     JLoadGen's runs taken apart (an entry is {@code null} for a run that wrote no lateness
     *                       log).
     */
    public record CaseResult(SideBySide.Case sideBySideCase, List<RunResult> official, List<RunResult> jloadgen,
        List<LatencyBreakdown> breakdowns)
    {
        /**
         * @param percentile 0 (p50), 1 (p99) or 2 (p99.9).
         * @return LoadGen's spread over its VALID-or-not runs that logged the figure, or {@code null}.
         */
        public Spread official(final int percentile)
        {
            return spread(official, PERCENTILE_KEYS[percentile]);
        }

        /**
         * @param percentile 0 (p50), 1 (p99) or 2 (p99.9).
         * @return JLoadGen's spread, or {@code null}.
         */
        public Spread jloadgen(final int percentile)
        {
            return spread(jloadgen, PERCENTILE_KEYS[percentile]);
        }
    }

    /**
     * @return the report as Markdown.
     */
    public String markdown()
    {
        final StringBuilder out = new StringBuilder();
        out.append("| case | engine | p50 | p99 | p99.9 | VALID runs |\n|---|---|---:|---:|---:|---:|\n");
        for (final CaseResult c : cases)
        {
            final String label = c.sideBySideCase().id();
            if (!c.official().isEmpty())
            {
                out.append("| ").append(label).append(" | LoadGen 6.0.17");
                for (int p = 0; p < PERCENTILE_KEYS.length; p++)
                {
                    out.append(" | ").append(cell(c.official(p)));
                }
                out.append(" | ").append(validCount(c.official())).append(" |\n");
            }
            out.append("| ").append(c.official().isEmpty() ? label : "").append(" | JLoadGen");
            for (int p = 0; p < PERCENTILE_KEYS.length; p++)
            {
                out.append(" | ").append(cell(c.jloadgen(p)));
            }
            out.append(" | ").append(validCount(c.jloadgen())).append(" |\n");
            if (!c.official().isEmpty())
            {
                out.append("| | LoadGen / JLoadGen");
                for (int p = 0; p < PERCENTILE_KEYS.length; p++)
                {
                    out.append(" | ").append(ratio(c.official(p), c.jloadgen(p)));
                }
                out.append(" | |\n");
            }
        }
        if (cases.stream().anyMatch(c -> c.breakdowns().stream().anyMatch(b -> b != null)))
        {
            out.append("\nWhere JLoadGen's latency goes (its issue lateness log and SUT statistics; p50 / p99 / p99.9, "
                + "median over the runs). Issue lateness (scheduled time → SUT called) and hand-off (SUT called → "
                + "a worker took the batch's first sample up: an idle worker's reaction or wake-up, the harness's "
                + "share, or the wait for a busy one, queueing in the SUT) come before batching and inference.\n\n");
            out.append("| case | issue lateness (per query) | hand-off (per batch) | inference (per batch) | samples "
                + "per batch |\n|---|---:|---:|---:|---:|\n");
            for (final CaseResult c : cases)
            {
                final List<LatencyBreakdown> b = c.breakdowns().stream().filter(x -> x != null).toList();
                if (b.isEmpty())
                {
                    continue;
                }
                out.append("| ").append(c.sideBySideCase().id())
                    .append(" | ").append(percentiles(b, LatencyBreakdown::issueLateness))
                    .append(" | ").append(percentiles(b, LatencyBreakdown::handoff))
                    .append(" | ").append(percentiles(b, LatencyBreakdown::inference))
                    .append(" | ").append(meanBatch(b)).append(" |\n");
            }
        }
        out.append('\n');
        for (final CaseResult c : cases)
        {
            out.append("- `").append(c.sideBySideCase().id()).append("`: ").append(c.sideBySideCase().description())
                .append(". LoadGen: ").append(c.official().isEmpty() ? "not run (no counterpart; the bridge runs a "
                    + "Java SUT under LoadGen)" : "`official_null_sut " + String.join(" ",
                        c.sideBySideCase().official().arguments()) + "`")
                .append("; JLoadGen: `").append(c.sideBySideCase().jloadgen().commandLine()).append("`")
                .append(problems(c)).append('\n');
        }
        out.append(String.format(Locale.ROOT, "%nEach case ran %d times per engine, alternating (LoadGen, then "
            + "JLoadGen), each in a fresh process; medians with min–max in brackets. Load average before: %s, after: "
            + "%s. Logs: %s%s.%n", repeats, loadBefore, loadAfter, workDir,
            officialBinary == null ? "" : "; official null SUT: " + officialBinary));
        return out.toString();
    }

    /**
     * Writes {@link #markdown()} to a file.
     *
     * @param file the file.
     */
    public void write(final Path file)
    {
        try
        {
            Files.writeString(file, markdown(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static Spread spread(final List<RunResult> runs, final String key)
    {
        final List<Double> values = new ArrayList<>();
        for (final RunResult r : runs)
        {
            if (r.detail() != null && r.detail().number(key).isPresent())
            {
                values.add(r.detail().number(key).getAsDouble());
            }
        }
        return values.isEmpty() ? null : Spread.of(values);
    }

    private static String cell(final Spread s)
    {
        if (s == null)
        {
            return NONE;
        }
        if (s.count() == 1)
        {
            return Format.NANOS.format(s.median());
        }
        return Format.NANOS.format(s.median()) + " [" + Format.NANOS.format(s.min()) + "–"
            + Format.NANOS.format(s.max()) + "]";
    }

    /**
     * @return LoadGen's median over JLoadGen's, e.g. {@code 12.3×}.
     */
    static String ratio(final Spread loadgen, final Spread jloadgen)
    {
        if (loadgen == null || jloadgen == null || jloadgen.median() <= 0)
        {
            return NONE;
        }
        return Format.digits3(loadgen.median() / jloadgen.median()) + "×";
    }

    private static String validCount(final List<RunResult> runs)
    {
        return runs.stream().filter(RunResult::valid).count() + " of " + runs.size();
    }

    private static String percentiles(final List<LatencyBreakdown> runs,
        final Function<LatencyBreakdown, Histogram> which)
    {
        final List<Double> p50 = new ArrayList<>();
        final List<Double> p99 = new ArrayList<>();
        final List<Double> p999 = new ArrayList<>();
        for (final LatencyBreakdown b : runs)
        {
            final Histogram h = which.apply(b);
            if (h != null && h.getTotalCount() > 0)
            {
                p50.add((double)h.getValueAtPercentile(50));
                p99.add((double)h.getValueAtPercentile(99));
                p999.add((double)h.getValueAtPercentile(99.9));
            }
        }
        if (p50.isEmpty())
        {
            return NONE;
        }
        return Format.NANOS.format(Spread.of(p50).median()) + " / " + Format.NANOS.format(Spread.of(p99).median())
            + " / " + Format.NANOS.format(Spread.of(p999).median());
    }

    private static String meanBatch(final List<LatencyBreakdown> runs)
    {
        final List<Double> values = runs.stream().map(LatencyBreakdown::samplesPerBatch).filter(v -> !v.isNaN())
            .toList();
        return values.isEmpty() ? NONE : Format.digits3(Spread.of(values).median());
    }

    private static String problems(final CaseResult c)
    {
        final StringBuilder out = new StringBuilder();
        for (final List<RunResult> runs : List.of(c.official(), c.jloadgen()))
        {
            for (final RunResult r : runs)
            {
                if (!r.valid())
                {
                    out.append("; ").append(r).append(runs == c.official() ? " (LoadGen)" : " (JLoadGen)").append(": ")
                        .append(r.problem().isEmpty() ? "not VALID" : r.problem());
                }
            }
        }
        return out.toString();
    }
}
