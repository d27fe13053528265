package org.jloadgen.benchmarks.overhead;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jloadgen.api.TestScenario;

/**
 * The side-by-side comparison of {@code jloadgen overhead --official}: the Java null SUT under the official LoadGen
 * (through the bridge, {@code --engine official}) against a null SUT written in C++ (benchmarks/official) under the
 * same LoadGen build, in the budget table's configurations, runs alternated so drift of a shared machine hits both.
 * The C++ SUT completes a large query 1024 samples per call, as the Java null SUT does: LoadGen takes one timestamp
 * per call, so the granularity, not the language, would otherwise decide the Offline figure.
 */
public final class OfficialComparison
{
    /** SingleStream queries/s at LoadGen's example settings. */
    public static final String SINGLE_STREAM = "official-singlestream";
    /** Offline samples/s, 3.3M samples. */
    public static final String OFFLINE_3M = "official-offline-3.3m";
    /** Server at 10k QPS, p99, completion inside IssueQuery. */
    public static final String SERVER_10K = "official-server-10k";
    /** Server at 10k QPS, p99, one worker thread completing. */
    public static final String SERVER_10K_WORKER = "official-server-10k-worker";
    /** A short SingleStream pair for smoke tests (not in the default set). */
    public static final String SMOKE = "official-smoke";
    /** The default set, in table order. */
    public static final List<String> DEFAULT_IDS = List.of(SINGLE_STREAM, OFFLINE_3M, SERVER_10K, SERVER_10K_WORKER);
    /** Every known id. */
    public static final List<String> ALL_IDS = List.of(SINGLE_STREAM, OFFLINE_3M, SERVER_10K, SERVER_10K_WORKER,
        SMOKE);
    /** Java at least this fraction of C++ on each figure: the goal of the issue. */
    public static final double GOAL = 0.9;

    private static final long TEN_S_MS = 10_000;
    private static final String MAX_DURATION = "max_duration_ms=20000";

    private OfficialComparison()
    {
    }

    /**
     * One figure, measured on both sides.
     *
     * @param id             the comparison's id.
     * @param figure         what is measured.
     * @param format         how it is printed.
     * @param key            the detail-log key it is read from.
     * @param higherIsBetter whether more is better (rates) or less (latencies).
     * @param java           the Java null SUT's run under the official LoadGen.
     * @param cpp            the C++ null SUT's run under the same LoadGen.
     */
    public record Row(String id, String figure, Format format, String key, boolean higherIsBetter,
        Configuration java, Configuration cpp)
    {
    }

    /**
     * @param id         an id of {@link #ALL_IDS}.
     * @param nullSut    the C++ null SUT built against the LoadGen the bridge uses.
     * @param loadgenDir the LoadGen source the Java side builds the bridge from, or {@code null} for its default.
     * @return the row.
     * @throws IllegalArgumentException for an unknown id.
     */
    public static Row row(final String id, final Path nullSut, final Path loadgenDir)
    {
        final List<String> official = new ArrayList<>(List.of("--engine", "official"));
        if (loadgenDir != null)
        {
            official.addAll(List.of("--loadgen-dir", loadgenDir.toString()));
        }
        return switch (id)
        {
            case SINGLE_STREAM -> pair(id, "SingleStream: queries/s with loadgen overhead (expected latency 2500 ns)",
                Format.RATE, "result_qps_with_loadgen_overhead", true, TestScenario.SINGLE_STREAM, TEN_S_MS, "null",
                official, List.of(), nullSut, "single_stream_expected_latency_ns=2500", MAX_DURATION);
            case OFFLINE_3M -> pair(id, "Offline, 3.3M samples: samples/s", Format.RATE, "result_samples_per_second",
                true, TestScenario.OFFLINE, TEN_S_MS, "null", official, List.of("--chunk", "1024"), nullSut,
                "offline_expected_qps=300000", MAX_DURATION);
            case SERVER_10K -> pair(id, "Server at 10k QPS: p99 latency, completion inside IssueQuery", Format.NANOS,
                "result_99.00_percentile_latency_ns", false, TestScenario.SERVER, TEN_S_MS, "null", official,
                List.of(), nullSut, "server_target_qps=10000", MAX_DURATION);
            case SERVER_10K_WORKER -> pair(id, "Server at 10k QPS: p99 latency, one worker thread completing",
                Format.NANOS, "result_99.00_percentile_latency_ns", false, TestScenario.SERVER, TEN_S_MS,
                "null-worker", official, List.of("--completion", "worker"), nullSut, "server_target_qps=10000",
                MAX_DURATION);
            case SMOKE -> pair(id, "SingleStream smoke test: queries/s with loadgen overhead (20k queries)",
                Format.RATE, "result_qps_with_loadgen_overhead", true, TestScenario.SINGLE_STREAM, 0, "null",
                official, List.of(), nullSut, "min_query_count=20000", "single_stream_expected_latency_ns=10000");
            default -> throw new IllegalArgumentException("unknown comparison '" + id + "'; known: " + ALL_IDS);
        };
    }

    private static Row pair(final String id, final String figure, final Format format, final String key,
        final boolean higherIsBetter, final TestScenario scenario, final long minDurationMs, final String javaSut,
        final List<String> javaExtra, final List<String> cppExtra, final Path nullSut, final String... sets)
    {
        final Configuration java = Configuration.of(id + "-java", figure + " (Java null SUT, official LoadGen)",
            scenario, minDurationMs, javaSut, sets).with(javaExtra);
        final Configuration cpp = Configuration.cppNullSut(id + "-cpp", figure + " (C++ null SUT, official LoadGen)",
            scenario, minDurationMs, nullSut, cppExtra, sets);
        return new Row(id, figure, format, key, higherIsBetter, java, cpp);
    }

    /**
     * What the comparison measured.
     *
     * @param repeats runs per side and row.
     * @param rows    the rows, in order.
     * @param java    each row's Java runs.
     * @param cpp     each row's C++ runs.
     * @param work    where the runs' logs are.
     */
    public record Report(int repeats, List<Row> rows, Map<String, List<RunResult>> java,
        Map<String, List<RunResult>> cpp, Path work)
    {
        /**
         * @return a Markdown table: each figure's median (min–max) on both sides and the Java / C++ ratio of the
         *         medians (C++ / Java for latencies), against the goal.
         */
        public String markdown()
        {
            final StringBuilder md = new StringBuilder(2048)
                .append("| figure (null SUT, official LoadGen) | C++ null SUT | Java null SUT (bridge) | Java / C++ |")
                .append(" goal |\n|---|---:|---:|---:|---|\n");
            for (final Row row : rows)
            {
                final Spread java = spread(row, this.java.get(row.id()));
                final Spread cpp = spread(row, this.cpp.get(row.id()));
                md.append("| ").append(row.figure()).append(" | ").append(cell(row, cpp)).append(" | ")
                    .append(cell(row, java)).append(" | ");
                if (java != null && cpp != null)
                {
                    final double ratio = row.higherIsBetter() ? java.median() / cpp.median()
                        : cpp.median() / java.median();
                    md.append(String.format(Locale.ROOT, "%.2f", ratio)).append(" | ")
                        .append(ratio >= GOAL ? "met" : "not met");
                }
                else
                {
                    md.append("— | no figure");
                }
                md.append(" (≥ ").append(String.format(Locale.ROOT, "%.1f", GOAL)).append(") |\n");
            }
            md.append("\nMedian (min–max) of ").append(repeats).append(" runs per side, each in a fresh process, "
                + "alternated; logs under ").append(work).append(". Commands:\n\n");
            for (final Row row : rows)
            {
                md.append("- ").append(row.java().commandLine()).append("\n- ").append(row.cpp().commandLine())
                    .append('\n');
            }
            return md.toString();
        }

        private static Spread spread(final Row row, final List<RunResult> runs)
        {
            final List<Double> values = new ArrayList<>();
            for (final RunResult run : runs == null ? List.<RunResult>of() : runs)
            {
                if (run.detail() != null)
                {
                    run.detail().number(row.key()).ifPresent(values::add);
                }
            }
            return values.isEmpty() ? null : Spread.of(values);
        }

        private static String cell(final Row row, final Spread spread)
        {
            if (spread == null)
            {
                return "—";
            }
            return row.format().format(spread.median()) + " (" + row.format().format(spread.min()) + "–"
                + row.format().format(spread.max()) + ")";
        }
    }

    /**
     * @param ids ids in any order.
     * @return them in table order.
     * @throws IllegalArgumentException for an unknown id or none.
     */
    static List<String> ordered(final List<String> ids)
    {
        for (final String id : ids)
        {
            if (!ALL_IDS.contains(id))
            {
                throw new IllegalArgumentException("unknown comparison '" + id + "'; known: " + ALL_IDS);
            }
        }
        final List<String> ordered = new ArrayList<>();
        for (final String id : ALL_IDS)
        {
            if (ids.contains(id))
            {
                ordered.add(id);
            }
        }
        if (ordered.isEmpty())
        {
            throw new IllegalArgumentException("no comparison selected");
        }
        return ordered;
    }

    /**
     * @param rows the rows.
     * @return empty run lists keyed by row id, in order.
     */
    static Map<String, List<RunResult>> emptyRuns(final List<Row> rows)
    {
        final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        for (final Row row : rows)
        {
            runs.put(row.id(), new ArrayList<>());
        }
        return runs;
    }
}
