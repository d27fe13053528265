package org.jloadgen.log;

import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;

/**
 * Logs settings into the detail log exactly as LoadGen 6.0.17 does at the start of a test
 * (loadgen/test_settings_internal.cc, LogRequestedTestSettings and TestSettingsInternal::LogEffectiveSettings; spec
 * §8.2 items 3-5): config errors, the {@code error_invalid_test_settings} records of the effective settings, all
 * {@code requested_*} keys sharing one timestamp, then all {@code effective_*} keys sharing another. Value types follow
 * LoadGen's C++ types: doubles as {@code %g}, booleans {@code true}/{@code false}, unsigned 64-bit fields unsigned,
 * chrono durations (signed) signed.
 */
public final class SettingsLog
{
    private SettingsLog()
    {
    }

    /**
     * Logs config errors returned by a lenient {@link org.jloadgen.config.SettingsLoader} as {@code
     * error_invalid_config}.
     *
     * @param log      detail log.
     * @param messages LoadGen's messages.
     */
    public static void logConfigErrors(final DetailLog log, final List<String> messages)
    {
        for (final String message : messages)
        {
            log.error("error_invalid_config", message);
        }
    }

    /**
     * Logs, in LoadGen's order, the effective settings' {@code error_invalid_test_settings} records, then the
     * requested settings, then the effective settings.
     *
     * @param log       detail log.
     * @param requested the settings the test was started with, after audit.config and test05 overrides.
     * @param effective the settings derived from them.
     */
    public static void logAll(final DetailLog log, final TestSettings requested, final EffectiveSettings effective)
    {
        for (final String error : effective.errors)
        {
            log.error("error_invalid_test_settings", error);
        }
        logRequested(log, requested);
        logEffective(log, effective);
    }

    /**
     * Logs the {@code requested_*} keys: the scenario-specific ones for the requested scenario, and the token
     * keys only when {@code use_token_latencies} is true (TTFT/TPOT not for Offline). All share one timestamp.
     *
     * @param log detail log.
     * @param s   requested settings.
     */
    public static void logRequested(final DetailLog log, final TestSettings s)
    {
        log.stamp();
        try
        {
            log.log("requested_scenario", s.scenario().logName());
            log.log("requested_test_mode", s.mode().logName());
            switch (s.scenario())
            {
                case SINGLE_STREAM ->
                {
                    log.log("requested_single_stream_expected_latency_ns", s.singleStreamExpectedLatencyNs());
                    log.log("requested_single_stream_target_latency_percentile",
                        s.singleStreamTargetLatencyPercentile());
                }
                case MULTI_STREAM ->
                {
                    log.log("requested_multi_stream_expected_latency_ns", s.multiStreamExpectedLatencyNs());
                    log.log("requested_multi_stream_target_latency_percentile", s.multiStreamTargetLatencyPercentile());
                    log.logUnsigned("requested_multi_stream_samples_per_query", s.multiStreamSamplesPerQuery());
                }
                case SERVER ->
                {
                    log.log("requested_server_target_qps", s.serverTargetQps());
                    log.logUnsigned("requested_server_target_latency_ns", s.serverTargetLatencyNs());
                    log.log("requested_server_target_latency_percentile", s.serverTargetLatencyPercentile());
                    log.log("requested_server_coalesce_queries", s.serverCoalesceQueries());
                    log.log("requested_server_find_peak_qps_decimals_of_precision",
                        (long)s.serverFindPeakQpsDecimalsOfPrecision());
                    log.log("requested_server_find_peak_qps_boundary_step_size",
                        s.serverFindPeakQpsBoundaryStepSize());
                    log.logUnsigned("requested_server_max_async_queries", s.serverMaxAsyncQueries());
                    log.logUnsigned("requested_server_num_issue_query_threads", s.serverNumIssueQueryThreads());
                }
                case OFFLINE -> log.log("requested_offline_expected_qps", s.offlineExpectedQps());
                default -> throw new IllegalStateException("unknown scenario " + s.scenario());
            }
            log.logUnsigned("requested_min_duration_ms", s.minDurationMs());
            log.logUnsigned("requested_max_duration_ms", s.maxDurationMs());
            log.logUnsigned("requested_min_query_count", s.minQueryCount());
            log.logUnsigned("requested_max_query_count", s.maxQueryCount());
            log.logUnsigned("requested_qsl_rng_seed", s.qslRngSeed());
            log.logUnsigned("requested_sample_index_rng_seed", s.sampleIndexRngSeed());
            log.logUnsigned("requested_schedule_rng_seed", s.scheduleRngSeed());
            log.logUnsigned("requested_accuracy_log_rng_seed", s.accuracyLogRngSeed());
            log.log("requested_accuracy_log_probability", s.accuracyLogProbability());
            log.logUnsigned("requested_accuracy_log_sampling_target", s.accuracyLogSamplingTarget());
            log.log("requested_print_timestamps", s.printTimestamps());
            log.log("requested_performance_issue_unique", s.performanceIssueUnique());
            log.log("requested_performance_issue_same", s.performanceIssueSame());
            log.logUnsigned("requested_performance_issue_same_index", s.performanceIssueSameIndex());
            log.logUnsigned("requested_performance_sample_count_override", s.performanceSampleCountOverride());
            log.logUnsigned("requested_accuracy_sample_count_override", s.accuracySampleCountOverride());
            log.log("requested_sample_concatenate_permutation", s.sampleConcatenatePermutation());
            if (s.useTokenLatencies())
            {
                log.log("requested_use_token_latencies", true);
                if (s.scenario() != TestScenario.OFFLINE)
                {
                    log.logUnsigned("requested_server_ttft_latency", s.serverTtftLatencyNs());
                    log.logUnsigned("requested_server_tpot_latency", s.serverTpotLatencyNs());
                }
            }
        }
        finally
        {
            log.unstamp();
        }
    }

    /**
     * Logs the {@code effective_*} keys, all sharing one timestamp.
     *
     * @param log detail log.
     * @param e   effective settings.
     */
    public static void logEffective(final DetailLog log, final EffectiveSettings e)
    {
        log.stamp();
        try
        {
            log.log("effective_scenario", e.scenario.logName());
            log.log("effective_test_mode", e.mode.logName());
            log.logUnsigned("effective_samples_per_query", e.samplesPerQuery);
            log.log("effective_target_qps", e.targetQps);
            // std::chrono counts are signed 64-bit.
            log.log("effective_target_latency_ns", e.targetLatencyNs);
            log.log("effective_target_latency_percentile", e.targetLatencyPercentile);
            log.logUnsigned("effective_max_async_queries", e.maxAsyncQueries);
            log.log("effective_target_duration_ms", e.targetDurationMs);
            log.log("effective_min_duration_ms", e.minDurationMs);
            log.log("effective_max_duration_ms", e.maxDurationMs);
            log.logUnsigned("effective_min_query_count", e.minQueryCount);
            log.logUnsigned("effective_max_query_count", e.maxQueryCount);
            log.logUnsigned("effective_min_sample_count", e.minSampleCount);
            log.logUnsigned("effective_qsl_rng_seed", e.qslRngSeed);
            log.logUnsigned("effective_sample_index_rng_seed", e.sampleIndexRngSeed);
            log.logUnsigned("effective_schedule_rng_seed", e.scheduleRngSeed);
            log.logUnsigned("effective_accuracy_log_rng_seed", e.accuracyLogRngSeed);
            log.log("effective_accuracy_log_probability", e.accuracyLogProbability);
            log.logUnsigned("effective_accuracy_log_sampling_target", e.accuracyLogSamplingTarget);
            log.log("effective_print_timestamps", e.printTimestamps);
            log.log("effective_performance_issue_unique", e.performanceIssueUnique);
            log.log("effective_performance_issue_same", e.performanceIssueSame);
            log.logUnsigned("effective_performance_issue_same_index", e.performanceIssueSameIndex);
            log.logUnsigned("effective_performance_sample_count", e.performanceSampleCount);
            log.logUnsigned("effective_accuracy_sample_count", e.accuracySampleCount);
            log.log("effective_sample_concatenate_permutation", e.sampleConcatenatePermutation);
        }
        finally
        {
            log.unstamp();
        }
    }
}
