package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.TestScenario;
import org.jloadgen.log.DetailLogValues;
import org.junit.jupiter.api.Test;

class OverheadReportTest
{
    private static String record(final String key, final String value, final boolean error)
    {
        return ":::MLLOG {\"key\": \"" + key + "\", \"value\": " + value + ", \"time_ms\": 1.0, \"namespace\": "
            + "\"mlperf::logging\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": {\"is_error\": " + error
            + ", \"is_warning\": false}}";
    }

    private static RunResult run(final Configuration c, final int repeat, final long wallMs, final long rssKib,
        final String... keyValues)
    {
        final List<String> lines = new ArrayList<>();
        for (int i = 0; i < keyValues.length; i += 2)
        {
            lines.add(record(keyValues[i], keyValues[i + 1], keyValues[i].startsWith("error")));
        }
        return new RunResult(c, repeat, List.of("java"), Path.of("/tmp/run"), 0, wallMs * 1_000_000L, rssKib,
            DetailLogValues.parse(lines, "test"), 0.05, 0.02);
    }

    @Test
    void shouldPrintMinMedianMaxAndTheVerdictPerFigure()
    {
        final Configuration ss = BudgetTable.configuration(BudgetTable.SINGLE_STREAM_8M);
        final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        runs.put(ss.id(), List.of(
            run(ss, 1, 4000, 310_000, "generated_query_count", "8000001", "result_validity", "\"INVALID\"",
                "result_qps_with_loadgen_overhead", "5.9e+06", "result_90.00_percentile_latency_ns", "56",
                "error_runtime", "\"Ending early: Ran out of generated queries\""),
            run(ss, 2, 4200, 312_000, "generated_query_count", "8000001", "result_validity", "\"INVALID\"",
                "result_qps_with_loadgen_overhead", "5.5e+06", "result_90.00_percentile_latency_ns", "67"),
            run(ss, 3, 4600, 308_000, "generated_query_count", "8000001", "result_validity", "\"INVALID\"",
                "result_qps_with_loadgen_overhead", "6.1e+06", "result_90.00_percentile_latency_ns", "160")));
        final Configuration tiny = BudgetTable.tiny(TestScenario.SINGLE_STREAM);
        final Map<TestScenario, List<RunResult>> baselines = new EnumMap<>(TestScenario.class);
        baselines.put(TestScenario.SINGLE_STREAM, List.of(run(tiny, 1, 900, 100_000), run(tiny, 2, 900, 110_000),
            run(tiny, 3, 900, 105_000)));
        final OverheadReport report = new OverheadReport(3, OverheadRunner.DEFAULT_JVM_FLAGS, runs, null, baselines,
            List.of(), Path.of("/tmp/work"), "0.10 0.20 0.30", "1.00 0.50 0.40");

        final Map<String, OverheadReport.Row> rows = new LinkedHashMap<>();
        report.rows().forEach(r -> rows.put(r.figure(), r));
        final OverheadReport.Row qps = rows.get("SingleStream: queries/s with loadgen overhead (8M queries generated)");
        assertEquals(new Spread(5.5e6, 5.9e6, 6.1e6, 3), qps.spread());
        assertEquals("✓", qps.met());
        assertEquals(310_000 / 1024.0, qps.peakRssMib(), 1e-9);
        assertEquals(4.2, qps.wallS(), 1e-9);
        final OverheadReport.Row p90 = rows.get("SingleStream: p90 round-trip latency (8M queries generated)");
        assertEquals(67, p90.spread().median());
        // Memory: (peak - median tiny peak 105000 KiB) * 1024 / 8000001 generated queries.
        final OverheadReport.Row memory = rows.get("memory per generated query (SingleStream, 8M queries)");
        assertEquals((310_000 - 105_000) * 1024.0 / 8_000_001, memory.spread().median(), 1e-9);
        assertEquals("✗", memory.met());
        final OverheadReport.Row wall = rows.get(
            "whole-process wall time / min_duration (SingleStream 10 s, 8M queries generated)");
        assertEquals(new Spread(0.4, 0.42, 0.46, 3), wall.spread());
        assertEquals(4, rows.size(), "only the figures of the configurations that ran");

        final String md = report.markdown();
        assertTrue(md.contains("| SingleStream: queries/s with loadgen overhead (8M queries generated) | ~570k | "
            + "≥ 1.5M | 5.50M/s | 5.90M/s | 6.10M/s | ✓ | 303 MiB | 4.2 s |"), md);
        assertTrue(md.contains("runs: 1 × INVALID (error_runtime: Ending early: Ran out of generated queries), "
            + "2 × INVALID (INVALID: no reason logged)"), md);
        assertTrue(md.contains("before: 0.10 0.20 0.30, after: 1.00 0.50 0.40; CPU used by other processes in the "
            + "second before each run: median 5%, max 5%; during the runs: median 2%, max 2% of the machine."), md);
        assertTrue(md.contains("SingleStream 102.5 MiB"), md);
    }

    @Test
    void shouldPrintThePeakSearchAndAFailedConfiguration()
    {
        final Configuration at = BudgetTable.serverAt(2e6);
        final RunResult ok = run(at, 1, 15_000, 500_000, "result_validity", "\"VALID\"");
        final RunResult bad = run(at, 1, 25_000, 900_000, "result_validity", "\"INVALID\"",
            "result_invalid_reason", "\"Reduce target QPS to improve latency. \"");
        final ServerPeak peak = new ServerPeak(2e6, 4e6, List.of(
            new ServerPeak.Target(2e6, List.of(ok, ok, ok), true), new ServerPeak.Target(4e6, List.of(bad), false)));
        final Configuration offline = BudgetTable.configuration(BudgetTable.OFFLINE_3M);
        final RunResult crashed = new RunResult(offline, 1, List.of("java"), Path.of("/tmp/x"), 1, 1_000_000_000L,
            -1, null, Double.NaN, Double.NaN);
        final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        runs.put(offline.id(), List.of(crashed));
        final OverheadReport report = new OverheadReport(3, List.of(), runs, peak,
            new EnumMap<>(TestScenario.class), List.of(new SpinFloor.Result(100_000, 90, 3_500, 12_000, 80_000, 13_000,
                0.015), new SpinFloor.Result(100_000, 95, 4_500, 15_000, 90_000, 14_000, 0.017)),
            Path.of("/tmp/work"), "n/a", "n/a");

        final List<OverheadReport.Row> rows = new ArrayList<>(report.rows());
        assertEquals("Server: highest target QPS that is VALID in 3 of 3 runs", rows.get(0).figure());
        assertEquals(new Spread(3_500, 4_000, 4_500, 2), rows.get(1).spread());
        rows.remove(1);
        assertEquals(2e6, rows.get(0).spread().median());
        assertEquals("✓", rows.get(0).met());
        assertNull(rows.get(1).spread());
        final String md = report.markdown();
        assertTrue(md.contains("| — | 2.00M | — | ✓ | 488 MiB | 15.0 s |"), md);
        assertTrue(md.contains("| — | failed | — |"), md);
        assertTrue(md.contains("targets tried: 2.00M 3/3 VALID; 4.00M 0/1 VALID (INVALID: Reduce target QPS to "
            + "improve latency.)"), md);
        assertTrue(md.contains("runs: 1 × INVALID (no detail log (exit 1))"), md);
        assertTrue(md.contains("| platform floor, no engine: busy-spin to a 10k/s Poisson schedule, p99 lateness | — "
            + "| — | 3.50 µs | 4.00 µs | 4.50 µs |  | — | — |"), md);
        assertTrue(md.contains("p50 90 ns, p99 3500 ns, p99.9 12000 ns, max 80000 ns; 13000 clock gaps > 1 µs, "
            + "1.50% of the time."), md);
    }

    @Test
    void shouldSkipAFigureARunNeverLogged()
    {
        // A MultiStream run that stopped before its results: no query count, no power window.
        final Configuration ms = BudgetTable.configuration(BudgetTable.MULTI_STREAM);
        final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        runs.put(ms.id(), List.of(run(ms, 1, 2000, 300_000, "result_validity", "\"INVALID\"",
            "result_99.00_percentile_per_query_latency_ns", "198"), run(ms, 2, 2000, 300_000,
            "result_validity", "\"INVALID\"")));
        final List<OverheadReport.Row> rows = new OverheadReport(2, List.of(), runs, null,
            new EnumMap<>(TestScenario.class), List.of(), Path.of("/tmp/work"), "n/a", "n/a").rows();
        assertNull(rows.get(0).spread(), "queries/s: no run logged it");
        assertEquals(new Spread(198, 198, 198, 1), rows.get(1).spread());
    }
}
