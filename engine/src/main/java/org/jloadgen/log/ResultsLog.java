package org.jloadgen.log;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import org.jloadgen.api.TestScenario;
import org.jloadgen.clib.CFormat;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.results.PerformanceSummary;

/**
 * The detail-log records LoadGen writes at the end of a performance series (spec §8.2 items 10, 11 and 13;
 * loadgen/results.cc, PerformanceSummary::LogDetail): the logger counters, the power window and the results, in
 * LoadGen's order and with its value types. Each group shares one timestamp, as LoadGen logs each group from one
 * closure.
 */
public final class ResultsLog
{
    /** JLoadGen's record of the samples that failed in a series (a SUT's counting policy); absent when none did. */
    public static final String FAILED_SAMPLES_KEY = "jloadgen_failed_samples";

    private static final DateTimeFormatter POWER_FORMAT =
        DateTimeFormatter.ofPattern("MM-dd-yyyy HH:mm:ss").withZone(ZoneOffset.UTC);

    private ResultsLog()
    {
    }

    /**
     * The six logger contention counters. JLoadGen's completion path has no CAS retries or swap slots, so they are
     * all zero (spec §8.2 item 10; loadgen/results.cc, PerformanceSummary::LogDetail).
     *
     * @param log detail log.
     */
    public static void logLoggerCounters(final DetailLog log)
    {
        log.stamp();
        log.log("logger_swap_request_slots_retry_count", 0L);
        log.log("logger_swap_request_slots_retry_retry_count", 0L);
        log.log("logger_swap_request_slots_retry_reencounter_count", 0L);
        log.log("logger_start_reading_entries_retry_count", 0L);
        log.log("logger_tls_total_log_cas_fail_count", 0L);
        log.log("logger_tls_total_swap_buffers_slot_retry_count", 0L);
        log.unstamp();
    }

    /**
     * {@code power_begin} and {@code power_end}: wall-clock time when issuing started, and that plus the time from
     * issue start to the last completion (spec §6; loadgen/loadgen.cc, IssueQueries).
     *
     * @param log                    detail log.
     * @param issueStartEpochNs      wall clock (ns since the epoch) when issuing started.
     * @param sutActiveDurationNs    last completion time minus issue start, on the run clock.
     */
    public static void logPower(final DetailLog log, final long issueStartEpochNs, final long sutActiveDurationNs)
    {
        log.stamp();
        log.log("power_begin", powerTimestamp(issueStartEpochNs));
        log.log("power_end", powerTimestamp(issueStartEpochNs + sutActiveDurationNs));
        log.unstamp();
    }

    /**
     * @param epochNs ns since the epoch.
     * @return LoadGen's power format {@code %m-%d-%Y %H:%M:%S.mmm} in UTC, milliseconds truncated and zero-padded.
     */
    public static String powerTimestamp(final long epochNs)
    {
        final long seconds = Math.floorDiv(epochNs, 1_000_000_000L);
        final long millis = Math.floorMod(epochNs, 1_000_000_000L) / 1_000_000L;
        final StringBuilder sb = new StringBuilder(23)
            .append(POWER_FORMAT.format(Instant.ofEpochSecond(seconds))).append('.');
        if (millis < 100)
        {
            sb.append('0');
        }
        if (millis < 10)
        {
            sb.append('0');
        }
        return sb.append(millis).toString();
    }

    /**
     * The results of a performance series, from {@code result_validity} to {@code num_errors} (spec §8.2 item 13;
     * loadgen/results.cc, PerformanceSummary::LogDetail). Doubles are printed as C {@code %g}; newlines in
     * recommendations become spaces.
     *
     * @param log     detail log; {@code num_errors} is its error count when this is called.
     * @param summary computed results.
     */
    public static void logResults(final DetailLog log, final PerformanceSummary summary)
    {
        final EffectiveSettings settings = summary.settings();
        final TestScenario scenario = settings.scenario;
        final double[] percentiles = PerformanceSummary.percentiles();
        log.stamp();

        log.log("result_validity", summary.valid() ? "VALID" : "INVALID");
        if (summary.hasPerfConstraints())
        {
            log.log("result_perf_constraints_met", summary.perfConstraintsMet());
        }
        log.log("result_min_duration_met", summary.minDurationMet());
        log.log("result_min_queries_met", summary.minQueriesMet());
        log.log("early_stopping_met", summary.earlyStoppingMet());
        if (!summary.valid())
        {
            log.log("result_invalid_reason", summary.invalidReason());
        }
        if (!settings.useTokenLatencies)
        {
            log.log("early_stopping_result", oneLine(summary.earlyStoppingRecommendation()));
        }
        else
        {
            log.log("early_stopping_ttft_result", oneLine(summary.earlyStoppingTtftRecommendation()));
            log.log("early_stopping_tpot_result", oneLine(summary.earlyStoppingTpotRecommendation()));
        }
        log.logUnsigned("result_query_count", summary.queryCount());
        if (scenario == TestScenario.SERVER)
        {
            log.logUnsigned("result_overlatency_query_count", summary.overlatencyQueryCount());
        }

        switch (scenario)
        {
            case SINGLE_STREAM ->
            {
                log.log("result_qps_with_loadgen_overhead", summary.qpsWithLoadgenOverhead());
                log.log("result_qps_without_loadgen_overhead", summary.qpsWithoutLoadgenOverhead());
                log.log("early_stopping_latency_ss", summary.earlyStoppingLatencySsNs());
                log.log("early_stopping_latency_ms", summary.earlyStoppingLatencyMsNs());
            }
            case MULTI_STREAM ->
            {
                log.log("result_min_query_latency_ns", summary.queryLatencyMinNs());
                log.log("result_max_query_latency_ns", summary.queryLatencyMaxNs());
                log.log("result_mean_query_latency_ns", summary.queryLatencyMeanNs());
                for (int i = 0; i < percentiles.length; i++)
                {
                    log.log("result_" + CFormat.fixed(percentiles[i] * 100, 2) + "_percentile_per_query_latency_ns",
                        summary.queryLatencyPercentileNs(i));
                }
                log.log("early_stopping_latency_ms", summary.earlyStoppingLatencyMsNs());
            }
            case SERVER ->
            {
                log.log("result_scheduled_samples_per_sec", summary.scheduledSamplesPerSecond());
                log.log("result_completed_samples_per_sec", summary.completedSamplesPerSecond());
            }
            case OFFLINE -> log.log("result_samples_per_second", summary.samplesPerSecond());
            default -> throw new IllegalStateException("unknown scenario " + scenario);
        }

        log.log("result_min_latency_ns", summary.sampleLatencyMinNs());
        log.log("result_max_latency_ns", summary.sampleLatencyMaxNs());
        log.log("result_mean_latency_ns", summary.sampleLatencyMeanNs());
        for (int i = 0; i < percentiles.length; i++)
        {
            log.log("result_" + CFormat.fixed(percentiles[i] * 100, 2) + "_percentile_latency_ns",
                summary.sampleLatencyPercentileNs(i));
        }

        if (settings.useTokenLatencies)
        {
            if (scenario != TestScenario.OFFLINE)
            {
                log.log("result_first_token_min_latency_ns", summary.firstTokenMinNs());
                log.log("result_first_token_max_latency_ns", summary.firstTokenMaxNs());
                log.log("result_first_token_mean_latency_ns", summary.firstTokenMeanNs());
                for (int i = 0; i < percentiles.length; i++)
                {
                    log.log("result_first_token_" + CFormat.fixed(percentiles[i] * 100, 2) + "_percentile_latency_ns",
                        summary.firstTokenPercentileNs(i));
                }
                log.log("result_token_throughput_with_loadgen_overhead", summary.tokenThroughputWithLoadgenOverhead());
                log.log("result_token_throughput", summary.tokenThroughput());
                for (int i = 0; i < percentiles.length; i++)
                {
                    log.log("result_time_per_output_token_" + CFormat.fixed(percentiles[i] * 100, 2) + "_percentile_ns",
                        summary.timePerOutputTokenPercentileNs(i));
                }
                log.log("result_time_to_output_token_min", summary.timePerOutputTokenMinNs());
                log.log("result_time_to_output_token_max", summary.timePerOutputTokenMaxNs());
                log.log("result_time_to_output_token_mean", summary.timePerOutputTokenMeanNs());
                log.log("result_completed_tokens_per_second", summary.completedTokensPerSecond());
            }
            else
            {
                log.log("result_tokens_per_second", summary.tokensPerSecond());
            }
        }
        if (settings.inferTokenLatencies)
        {
            if (scenario == TestScenario.SERVER)
            {
                log.log("result_inferred_completed_tokens_per_second", summary.inferredCompletedTokensPerSecond());
            }
            else if (scenario == TestScenario.OFFLINE)
            {
                log.log("result_inferred_tokens_per_second", summary.inferredTokensPerSecond());
            }
        }
        if (!summary.end().noneFailed())
        {
            // JLoadGen's own records, only for a series with failed samples (a SUT's on-error=count policy).
            log.log(FAILED_SAMPLES_KEY, summary.end().samplesFailed());
            log.log("jloadgen_completed_samples", summary.end().samplesCompleted());
            log.log("jloadgen_goodput_samples_per_second", summary.goodputSamplesPerSecond());
        }
        log.log("num_errors", (long)log.errorCount());
        log.unstamp();
    }

    private static String oneLine(final String text)
    {
        return text.replace('\n', ' ');
    }
}
