package org.jloadgen.benchmarks.overhead;

import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.sut.synthetic.NullWorkerSut;

/**
 * The configurations and figures of the performance budget (DESIGN.md, "Performance budget"), with the settings
 * of the official LoadGen's null-SUT example runs in {@code shared/data/example-logs}: 10 s minimum duration,
 * 20 s maximum, a QSL of 1024/1024 samples.
 */
public final class BudgetTable
{
    /** Server at 10k QPS. */
    public static final String SERVER_10K = "server-10k";
    /** Server at 10k QPS, completed by one worker thread. */
    public static final String SERVER_10K_WORKER = "server-10k-worker";
    /** The search for the highest 3-of-3 VALID Server target. */
    public static final String SERVER_PEAK = "server-peak";
    /** SingleStream at LoadGen's example settings (expected latency 2500 ns: 8M queries generated). */
    public static final String SINGLE_STREAM_8M = "singlestream-8m";
    /** SingleStream with an expected latency that generates enough queries for the whole 10 s. */
    public static final String SINGLE_STREAM_FULL = "singlestream-full";
    /** MultiStream, 8 samples per query, at LoadGen's example settings. */
    public static final String MULTI_STREAM = "multistream";
    /** Offline, 3.3M samples. */
    public static final String OFFLINE_3M = "offline-3.3m";
    /** Offline, 33M samples. */
    public static final String OFFLINE_33M = "offline-33m";
    /** A tiny SingleStream run for smoke tests (not in the default set). */
    public static final String SMOKE = "smoke";

    /** The default set, in table order. */
    public static final List<String> DEFAULT_IDS = List.of(SERVER_PEAK, SERVER_10K, SERVER_10K_WORKER,
        SINGLE_STREAM_8M, SINGLE_STREAM_FULL, MULTI_STREAM, OFFLINE_3M, OFFLINE_33M);

    /** Every known id. */
    public static final List<String> ALL_IDS = List.of(SERVER_PEAK, SERVER_10K, SERVER_10K_WORKER,
        SINGLE_STREAM_8M, SINGLE_STREAM_FULL, MULTI_STREAM, OFFLINE_3M, OFFLINE_33M, SMOKE);

    private static final String NONE = "—";
    private static final String MAX_DURATION = "max_duration_ms=20000";
    private static final long TEN_S_MS = 10_000;

    private BudgetTable()
    {
    }

    /**
     * @param id a configuration id other than {@link #SERVER_PEAK} and {@link #SINGLE_STREAM_FULL}.
     * @return its configuration.
     * @throws IllegalArgumentException for an unknown id.
     */
    public static Configuration configuration(final String id)
    {
        return switch (id)
        {
            case SERVER_10K -> Configuration.of(id, "Server, 10k QPS, 10 s", TestScenario.SERVER, TEN_S_MS, "null",
                "server_target_qps=10000", MAX_DURATION);
            case SERVER_10K_WORKER -> Configuration.of(id,
                "Server, 10k QPS, 10 s, one worker thread completing (null-worker SUT)", TestScenario.SERVER,
                TEN_S_MS, NullWorkerSut.NAME, "server_target_qps=10000", MAX_DURATION);
            case SINGLE_STREAM_8M -> Configuration.of(id,
                "SingleStream, 10 s, single_stream_expected_latency_ns=2500 (8M queries generated)",
                TestScenario.SINGLE_STREAM, TEN_S_MS, "null", "single_stream_expected_latency_ns=2500",
                MAX_DURATION);
            case MULTI_STREAM -> Configuration.of(id,
                "MultiStream, 8 samples/query, 5 s, multi_stream_expected_latency_ns=3333 (3M queries generated)",
                TestScenario.MULTI_STREAM, 5_000, "null", "multi_stream_expected_latency_ns=3333",
                "multi_stream_samples_per_query=8", "max_duration_ms=10000");
            case OFFLINE_3M -> Configuration.of(id, "Offline, offline_expected_qps=300000 (3.3M samples)",
                TestScenario.OFFLINE, TEN_S_MS, "null", "offline_expected_qps=300000", MAX_DURATION);
            case OFFLINE_33M -> Configuration.of(id, "Offline, offline_expected_qps=3000000 (33M samples)",
                TestScenario.OFFLINE, TEN_S_MS, "null", "offline_expected_qps=3000000", MAX_DURATION);
            case SMOKE -> Configuration.of(id, "SingleStream, 200k queries (smoke test)", TestScenario.SINGLE_STREAM,
                0, "null", "min_query_count=200000");
            default -> throw new IllegalArgumentException("unknown configuration '" + id + "'; known: " + ALL_IDS);
        };
    }

    /**
     * @param targetQps a Server target.
     * @return one run of the peak search at that target.
     */
    public static Configuration serverAt(final double targetQps)
    {
        return Configuration.of(SERVER_PEAK, "Server, 10 s, at a target QPS", TestScenario.SERVER, TEN_S_MS, "null",
            "server_target_qps=" + (long)targetQps, MAX_DURATION);
    }

    /**
     * @param expectedLatencyNs an expected latency short enough that the run does not run out of queries.
     * @return the full-length SingleStream configuration.
     */
    public static Configuration singleStreamFull(final long expectedLatencyNs)
    {
        return Configuration.of(SINGLE_STREAM_FULL, "SingleStream, 10 s, single_stream_expected_latency_ns="
            + expectedLatencyNs + " (" + Format.si(2.0 * TEN_S_MS * 1e6 / expectedLatencyNs)
            + " queries generated: enough for the whole run)", TestScenario.SINGLE_STREAM, TEN_S_MS, "null",
            "single_stream_expected_latency_ns=" + expectedLatencyNs, MAX_DURATION);
    }

    /**
     * @param scenario a scenario.
     * @return the tiny run of that scenario whose peak RSS is the memory baseline: 100 queries (Offline: samples).
     */
    public static Configuration tiny(final TestScenario scenario)
    {
        return Configuration.of("tiny-" + scenario.logName().toLowerCase(java.util.Locale.ROOT),
            scenario.logName() + ", 100 queries (memory baseline)", scenario, 0, "null", "min_query_count=100");
    }

    /**
     * @return the figures of the table, in order (the Server peak row is built separately).
     */
    public static List<Figure> figures()
    {
        final List<Figure> f = new ArrayList<>();
        f.add(new Figure("Server at 10k QPS: p99 latency (scheduled → complete)", SERVER_10K, "~1.9 ms", "≤ 5 µs",
            Format.NANOS, Figure.key("result_99.00_percentile_latency_ns"), v -> v <= 5_000, null));
        f.add(new Figure("Server at 10k QPS, one worker thread completing: p99 latency", SERVER_10K_WORKER,
            "~145 µs²", "≤ 15 µs", Format.NANOS, Figure.key("result_99.00_percentile_latency_ns"), v -> v <= 15_000,
            null));
        f.add(new Figure("SingleStream: queries/s with loadgen overhead (8M queries generated)", SINGLE_STREAM_8M,
            "~570k", "≥ 1.5M", Format.RATE, Figure.key("result_qps_with_loadgen_overhead"), v -> v >= 1.5e6, null));
        f.add(new Figure("SingleStream: queries/s with loadgen overhead (enough queries for 10 s)",
            SINGLE_STREAM_FULL, NONE, "≥ 1.5M", Format.RATE, Figure.key("result_qps_with_loadgen_overhead"),
            v -> v >= 1.5e6, null));
        f.add(new Figure("SingleStream: p90 round-trip latency (8M queries generated)", SINGLE_STREAM_8M, "~230 ns",
            "≤ 150 ns", Format.NANOS, Figure.key("result_90.00_percentile_latency_ns"), v -> v <= 150, null));
        f.add(new Figure("SingleStream: p90 round-trip latency (enough queries for 10 s)", SINGLE_STREAM_FULL, NONE,
            "≤ 150 ns", Format.NANOS, Figure.key("result_90.00_percentile_latency_ns"), v -> v <= 150, null));
        f.add(new Figure("MultiStream, 8 samples/query: queries/s (issue start → last completion)", MULTI_STREAM,
            "253k¹", NONE, Format.RATE, (run, base) -> run.number("result_query_count")
                / run.detail().powerWindowSeconds().orElseThrow(), null, null));
        f.add(new Figure("MultiStream, 8 samples/query: p99 query latency", MULTI_STREAM, "1.37 µs¹", NONE,
            Format.NANOS, Figure.key("result_99.00_percentile_per_query_latency_ns"), null, null));
        f.add(new Figure("Offline, 3.3M samples: samples/s", OFFLINE_3M, "~52M", "≥ 100M", Format.RATE,
            Figure.key("result_samples_per_second"), v -> v >= 100e6, null));
        f.add(new Figure("Offline, 33M samples: samples/s", OFFLINE_33M, NONE, NONE, Format.RATE,
            Figure.key("result_samples_per_second"), null, null));
        f.add(new Figure("memory per generated query (SingleStream, 8M queries)", SINGLE_STREAM_8M, "~330 B",
            "≤ 24 B", Format.BYTES, (run, base) -> (run.peakRssKib() - base) * 1024.0
                / run.number("generated_query_count"), v -> v <= 24, TestScenario.SINGLE_STREAM));
        f.add(new Figure("memory per sample (Offline, 33M samples)", OFFLINE_33M, "~105 B", "≤ 16 B", Format.BYTES,
            (run, base) -> (run.peakRssKib() - base) * 1024.0
                / (run.number("generated_query_count") * run.number("generated_samples_per_query")),
            v -> v <= 16, TestScenario.OFFLINE));
        f.add(new Figure("whole-process wall time / min_duration (SingleStream 10 s, 8M queries generated)",
            SINGLE_STREAM_8M, "~2.4", "≤ 1.1", Format.RATIO, (run, base) -> run.wallPerMinDuration(), v -> v <= 1.1,
                null));
        f.add(new Figure("whole-process wall time / min_duration (SingleStream 10 s, enough queries)",
            SINGLE_STREAM_FULL, NONE, "≤ 1.1", Format.RATIO, (run, base) -> run.wallPerMinDuration(), v -> v <= 1.1,
                null));
        f.add(new Figure("SingleStream smoke test: queries/s with loadgen overhead", SMOKE, NONE, NONE, Format.RATE,
            Figure.key("result_qps_with_loadgen_overhead"), null, null));
        return f;
    }
}
