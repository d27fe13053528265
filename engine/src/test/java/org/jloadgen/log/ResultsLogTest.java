package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.PerformanceResult;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.record.SortedLatencies;
import org.jloadgen.testing.GoldenRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ResultsLog}: power timestamps, logger counters, result keys in token and edge-case runs, one timestamp
 * per group, and valid JSON everywhere. The official records themselves are compared in {@link GoldenLogsTest}.
 */
class ResultsLogTest
{
    private static final SortedLatencies NONE = SortedLatencies.sortInPlace(new long[0]);

    @TempDir
    Path dir;

    @Test
    void shouldFormatPowerTimestampsInUtcWithMilliseconds()
    {
        assertEquals("11-21-2026 22:50:56.077",
            ResultsLog.powerTimestamp(epochNs("2026-11-21T22:50:56.077999999Z")));
        assertEquals("01-02-2025 03:04:05.006", ResultsLog.powerTimestamp(epochNs("2025-01-02T03:04:05.006Z")));
        assertEquals("07-31-2025 09:26:03.554", ResultsLog.powerTimestamp(epochNs("2025-07-31T09:26:03.554Z")));
        assertEquals("01-01-1970 00:00:00.000", ResultsLog.powerTimestamp(0));
    }

    @Test
    void shouldLogThePowerWindowWithOneTimestamp()
    {
        final MlLogParser log = write(d -> ResultsLog.logPower(d, epochNs("2026-11-21T22:50:56.077Z"),
            10_000_400_000L));
        assertEquals("11-21-2026 22:50:56.077", log.value("power_begin"));
        assertEquals("11-21-2026 22:51:06.077", log.value("power_end"));
        assertEquals(log.first("power_begin").timeMs(), log.first("power_end").timeMs());
    }

    @Test
    void shouldLogTheLoggerCountersAsZerosInLoadGensOrder()
    {
        final List<MlLogParser.Record> records = write(ResultsLog::logLoggerCounters).records();
        assertEquals(List.of("logger_swap_request_slots_retry_count", "logger_swap_request_slots_retry_retry_count",
            "logger_swap_request_slots_retry_reencounter_count", "logger_start_reading_entries_retry_count",
            "logger_tls_total_log_cas_fail_count", "logger_tls_total_swap_buffers_slot_retry_count"),
            records.stream().map(MlLogParser.Record::key).toList());
        for (final MlLogParser.Record r : records)
        {
            assertEquals(0L, r.value());
        }
    }

    @Test
    void shouldSatisfyTheCheckerForEveryGoldenRun()
    {
        for (final GoldenRuns.Run run : List.of(GoldenRuns.offline(), GoldenRuns.server()))
        {
            final MlLogParser log = write(d ->
            {
                settingsRecords(d, run.settings());
                ResultsLog.logPower(d, 1_700_000_000_000_000_000L, 1_000_000L);
                ResultsLog.logResults(d, new PerformanceSummary("NullInlineSUT", run.settings(), run.result()));
            });
            log.requireCheckerKeys(run.settings().scenario, false, false);
        }
    }

    @Test
    void shouldLogTokenKeysInLoadGensOrder()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .useTokenLatencies(true).inferTokenLatencies(true).tokenLatencyScalingFactor(3).minDurationMs(1)
            .minQueryCount(1));
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {10, 20}), NONE, 2,
            2e-8, 2.0, 2.0, 4.0, SortedLatencies.sortInPlace(new long[] {3, 4}),
            SortedLatencies.sortInPlace(new long[] {1, 2}), 100);
        final MlLogParser log = write(d ->
        {
            d.log("requested_use_token_latencies", true);
            settingsRecords(d, settings);
            ResultsLog.logPower(d, 0, 0);
            ResultsLog.logResults(d, new PerformanceSummary("S", settings, r));
        });
        final List<String> keys = log.records().stream().map(MlLogParser.Record::key).toList();
        final int first = keys.indexOf("result_validity");
        assertEquals(List.of("result_validity", "result_perf_constraints_met", "result_min_duration_met",
            "result_min_queries_met", "early_stopping_met", "result_invalid_reason", "early_stopping_ttft_result",
            "early_stopping_tpot_result", "result_query_count", "result_overlatency_query_count",
            "result_scheduled_samples_per_sec", "result_completed_samples_per_sec", "result_min_latency_ns",
            "result_max_latency_ns", "result_mean_latency_ns", "result_50.00_percentile_latency_ns",
            "result_90.00_percentile_latency_ns", "result_95.00_percentile_latency_ns",
            "result_97.00_percentile_latency_ns", "result_99.00_percentile_latency_ns",
            "result_99.90_percentile_latency_ns", "result_first_token_min_latency_ns",
            "result_first_token_max_latency_ns", "result_first_token_mean_latency_ns",
            "result_first_token_50.00_percentile_latency_ns", "result_first_token_90.00_percentile_latency_ns",
            "result_first_token_95.00_percentile_latency_ns", "result_first_token_97.00_percentile_latency_ns",
            "result_first_token_99.00_percentile_latency_ns", "result_first_token_99.90_percentile_latency_ns",
            "result_token_throughput_with_loadgen_overhead", "result_token_throughput",
            "result_time_per_output_token_50.00_percentile_ns", "result_time_per_output_token_90.00_percentile_ns",
            "result_time_per_output_token_95.00_percentile_ns", "result_time_per_output_token_97.00_percentile_ns",
            "result_time_per_output_token_99.00_percentile_ns", "result_time_per_output_token_99.90_percentile_ns",
            "result_time_to_output_token_min", "result_time_to_output_token_max", "result_time_to_output_token_mean",
            "result_completed_tokens_per_second", "result_inferred_completed_tokens_per_second", "num_errors"),
            keys.subList(first, keys.size()));
        assertEquals(" * Run unsuccessful.  * Processed 2 queries.  * Would need to run at least 457 more queries,"
            + "  with the run being successful if every additional  query were under latency.",
            log.value("early_stopping_tpot_result"), "newlines become spaces");
        assertEquals(25L, log.value("result_completed_tokens_per_second"), "%g prints 25: a JSON integer");
        assertEquals("3.33333", log.first("result_token_throughput").valueText(), "100 / (15 ns * 2): ns, not s");
        assertEquals(0.75, log.value("result_inferred_completed_tokens_per_second"));
        log.requireCheckerKeys(TestScenario.SERVER, true, true);
    }

    @Test
    void shouldWriteValidJsonForARunWithoutSamples()
    {
        for (final TestScenario scenario : TestScenario.values())
        {
            final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(scenario)
                .useTokenLatencies(true).inferTokenLatencies(true).tokenLatencyScalingFactor(2));
            final PerformanceResult empty = new PerformanceResult(NONE, NONE, 0, 0.0, 0.0, 0.0, 0.0, NONE, NONE, 0);
            final MlLogParser log = write(d -> ResultsLog.logResults(d, new PerformanceSummary("S", settings, empty)));
            assertEquals("INVALID", log.value("result_validity"));
            for (final MlLogParser.Record r : log.records())
            {
                assertTrue(!r.valueText().contains("inf") && !r.valueText().contains("nan"), r.raw());
            }
        }
    }

    @Test
    void shouldCountErrorsLoggedBeforeTheResults()
    {
        final MlLogParser log = write(d ->
        {
            d.error("error_runtime", "Ending early: Max query count reached.");
            d.error("error_runtime", "another");
            ResultsLog.logResults(d, new PerformanceSummary("S", GoldenRuns.server().settings(),
                GoldenRuns.server().result()));
        });
        assertEquals(2L, log.value("num_errors"));
        assertEquals(2, log.errorCount());
    }

    @Test
    void shouldGiveAllResultRecordsOneTimestamp()
    {
        final AtomicLong clock = new AtomicLong();
        final Path file = dir.resolve("detail.txt");
        try (DetailLog d = new DetailLog(file, null, () -> clock.addAndGet(1_000)))
        {
            ResultsLog.logResults(d, new PerformanceSummary("S", GoldenRuns.offline().settings(),
                GoldenRuns.offline().result()));
        }
        final List<MlLogParser.Record> records = MlLogParser.parse(file).records();
        assertEquals(1, records.stream().map(MlLogParser.Record::timeMs).distinct().count(), "one closure, one time");
        assertInstanceOf(Double.class, records.stream().filter(r -> r.key().equals("result_samples_per_second"))
            .findFirst().orElseThrow().value());
    }

    private MlLogParser write(final java.util.function.Consumer<DetailLog> body)
    {
        final Path file = dir.resolve("detail-" + System.nanoTime() + ".txt");
        try (DetailLog d = new DetailLog(file, null, System::nanoTime))
        {
            body.accept(d);
        }
        return MlLogParser.parse(file);
    }

    /** The effective and identity keys the checker reads, as the settings module will log them. */
    private static void settingsRecords(final DetailLog d, final EffectiveSettings s)
    {
        d.log("sut_name", "NullInlineSUT");
        d.log("qsl_reported_total_count", 1024L);
        d.log("effective_scenario", s.scenario.logName());
        d.log("effective_samples_per_query", s.samplesPerQuery);
        d.log("effective_target_latency_ns", s.targetLatencyNs);
        d.log("effective_min_duration_ms", s.minDurationMs);
        d.log("effective_min_query_count", s.minQueryCount);
        d.logUnsigned("effective_qsl_rng_seed", s.qslRngSeed);
        d.logUnsigned("effective_sample_index_rng_seed", s.sampleIndexRngSeed);
        d.logUnsigned("effective_schedule_rng_seed", s.scheduleRngSeed);
        d.log("effective_performance_sample_count", s.performanceSampleCount);
        d.log("effective_accuracy_sample_count", s.accuracySampleCount);
        d.log("effective_sample_concatenate_permutation", s.sampleConcatenatePermutation);
    }

    private static long epochNs(final String iso)
    {
        final Instant instant = Instant.parse(iso);
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
