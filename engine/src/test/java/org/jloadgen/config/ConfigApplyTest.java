package org.jloadgen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class ConfigApplyTest
{
    private static TestSettings apply(final String text, final String model, final TestScenario scenario,
        final ConfType type)
    {
        final TestSettings s = new TestSettings().scenario(scenario);
        final List<ConfigDiagnostic> errors = ConfigFile.parse("t.conf", text).applyTo(s, model, scenario, type);
        assertTrue(errors.isEmpty(), errors::toString);
        return s;
    }

    private static TestSettings apply(final String text)
    {
        return apply(text, "m", TestScenario.SERVER, ConfType.USER);
    }

    @Test
    void shouldConvertMillisecondsAndPercentages()
    {
        final TestSettings s = apply("*.SingleStream.target_latency = 2.5\n*.MultiStream.target_latency = 80\n"
            + "*.Server.target_latency = 15\n*.SingleStream.target_latency_percentile = 90\n"
            + "*.MultiStream.target_latency_percentile = 99\n*.Server.target_latency_percentile = 99.9\n"
            + "*.*.min_duration = 600000\n*.*.max_duration = 1200000\n");
        assertEquals(2_500_000.0, s.singleStreamExpectedLatencyNs());
        assertEquals(80_000_000.0, s.multiStreamExpectedLatencyNs());
        assertEquals(15_000_000L, s.serverTargetLatencyNs());
        assertEquals(90 * 0.01, s.singleStreamTargetLatencyPercentile());
        assertEquals(0.99, s.multiStreamTargetLatencyPercentile());
        assertEquals(99.9 * 0.01, s.serverTargetLatencyPercentile());
        assertEquals(600_000L, s.minDurationMs());
        assertEquals(1_200_000L, s.maxDurationMs());
    }

    @Test
    void shouldParseServerTargetLatencyAsIntegerButStreamLatenciesAsDouble()
    {
        final TestSettings s = apply("*.*.target_latency = 2.5\n");
        assertEquals(2_000_000L, s.serverTargetLatencyNs());
        assertEquals(2_500_000.0, s.singleStreamExpectedLatencyNs());
        assertEquals(2_500_000.0, s.multiStreamExpectedLatencyNs());
    }

    @Test
    void shouldTruncateIntegerFieldsGivenFractionsOrExponents()
    {
        final TestSettings s = apply("*.*.min_query_count = 2.9\n*.*.min_duration = 6e5\n"
            + "*.Server.ttft_latency = 1.5\n*.*.use_token_latencies = 1\n");
        assertEquals(2, s.minQueryCount());
        assertEquals(6, s.minDurationMs(), "strtoull stops at the 'e'");
        assertEquals(1_000_000L, s.serverTtftLatencyNs());
    }

    @Test
    void shouldReadOctalForIntegerFieldsButDecimalForDoubleFields()
    {
        final TestSettings s = apply("*.*.min_query_count = 010\n*.Server.target_qps = 010\n"
            + "*.*.max_query_count = 08\n*.Offline.target_qps = 0x10\n*.*.performance_issue_same_index = 0x1F\n");
        assertEquals(8, s.minQueryCount());
        assertEquals(10.0, s.serverTargetQps());
        assertEquals(0, s.maxQueryCount(), "08 is accepted as a double, then read as octal 0");
        assertEquals(16.0, s.offlineExpectedQps());
        assertEquals(31, s.performanceIssueSameIndex());
    }

    @Test
    void shouldReadSeedsAboveInt64MaxFromMlperfConf()
    {
        final TestSettings s = apply("*.*.qsl_rng_seed = 2085463073848966840\n"
            + "*.*.sample_index_rng_seed = 2747215439041700203\n*.*.schedule_rng_seed = 16159082839903944936\n"
            + "*.*.test05_schedule_rng_seed = 0xFFFFFFFFFFFFFFFF\n*.*.accuracy_log_probability = 5\n"
            + "*.*.test05 = 1\n", "m", TestScenario.OFFLINE, ConfType.MLPERF);
        assertEquals(2085463073848966840L, s.qslRngSeed());
        assertEquals(2747215439041700203L, s.sampleIndexRngSeed());
        assertEquals("16159082839903944936", Long.toUnsignedString(s.scheduleRngSeed()));
        assertEquals(-1L, s.test05ScheduleRngSeed());
        assertEquals(0.05, s.accuracyLogProbability());
        assertTrue(s.test05());
    }

    @ParameterizedTest
    @EnumSource(value = ConfType.class, names = {"USER", "AUDIT"})
    void shouldIgnoreMlperfOnlyKeysInOtherFiles(final ConfType type)
    {
        final TestSettings s = apply("*.*.qsl_rng_seed = 1\n*.*.sample_index_rng_seed = 2\n"
            + "*.*.schedule_rng_seed = 3\n*.*.accuracy_log_probability = 50\n*.*.test05 = 1\n"
            + "*.*.test05_qsl_rng_seed = 4\n*.*.test05_sample_index_rng_seed = 5\n"
            + "*.*.test05_schedule_rng_seed = 6\n*.*.accuracy_log_rng_seed = 7\n", "*", TestScenario.SERVER, type);
        assertEquals(0, s.qslRngSeed());
        assertEquals(0, s.sampleIndexRngSeed());
        assertEquals(0, s.scheduleRngSeed());
        assertEquals(0.0, s.accuracyLogProbability());
        assertFalse(s.test05());
        assertEquals(0, s.test05QslRngSeed());
        assertEquals(0, s.test05SampleIndexRngSeed());
        assertEquals(0, s.test05ScheduleRngSeed());
        assertEquals(7, s.accuracyLogRngSeed(), "accuracy_log_rng_seed may be set by any file");
    }

    @ParameterizedTest
    @CsvSource({"1,true", "0,false", "2,false", "1.9,true", "0x1,true", "-1,false", "01,true"})
    void shouldSetEqualsOneBooleansOnlyForIntegerOne(final String value, final boolean expected)
    {
        final TestSettings s = apply("*.*.sample_concatenate_permutation = " + value + "\n*.*.use_token_latencies = "
            + value + "\n*.*.infer_token_latencies = " + value + "\n*.*.test05 = " + value + "\n", "m",
            TestScenario.SERVER, ConfType.MLPERF);
        assertEquals(expected, s.sampleConcatenatePermutation());
        assertEquals(expected, s.useTokenLatencies());
        assertEquals(expected, s.inferTokenLatencies());
        assertEquals(expected, s.test05());
    }

    @ParameterizedTest
    @CsvSource({"1,true", "0,false", "2,true", "0.5,false", "-1,true", "0x0,false"})
    void shouldSetNonZeroBooleansForAnyNonZeroInteger(final String value, final boolean expected)
    {
        final TestSettings s = apply("*.*.print_timestamps = " + value + "\n*.*.performance_issue_unique = " + value
            + "\n*.*.performance_issue_same = " + value + "\n*.Server.coalesce_queries = " + value + "\n");
        assertEquals(expected, s.printTimestamps());
        assertEquals(expected, s.performanceIssueUnique());
        assertEquals(expected, s.performanceIssueSame());
        assertEquals(expected, s.serverCoalesceQueries());
    }

    @Test
    void shouldReadFixedScenarioKeysWhateverTheCurrentScenario()
    {
        final String text = "*.Server.target_qps = 123\n*.Offline.target_qps = 456\n"
            + "*.MultiStream.samples_per_query = 4\n"
            + "*.Server.max_async_queries = 3\n*.Offline.min_query_count = 9\n";
        final TestSettings offline = apply(text, "m", TestScenario.OFFLINE, ConfType.USER);
        assertEquals(123.0, offline.serverTargetQps());
        assertEquals(456.0, offline.offlineExpectedQps());
        assertEquals(4, offline.multiStreamSamplesPerQuery());
        assertEquals(3, offline.serverMaxAsyncQueries());
        assertEquals(9, offline.minQueryCount());
        final TestSettings server = apply(text, "m", TestScenario.SERVER, ConfType.USER);
        assertEquals(456.0, server.offlineExpectedQps());
        assertEquals(100, server.minQueryCount(), "current-scenario keys follow the scenario");
    }

    @Test
    void shouldTruncateMaxAsyncQueriesToIntLikeLoadGen()
    {
        assertEquals(5, apply("*.Server.max_async_queries = 0x100000005\n").serverMaxAsyncQueries());
        assertEquals(-2147483648L, apply("*.Server.max_async_queries = 2147483648\n").serverMaxAsyncQueries());
    }

    @Test
    void shouldReadTokenLatenciesOnlyWhenUseTokenLatenciesIsAlreadyTrue()
    {
        final TestSettings off = apply("*.Server.ttft_latency = 7\n*.Server.tpot_latency = 8\n");
        assertEquals(100_000_000L, off.serverTtftLatencyNs());
        assertEquals(100_000_000L, off.serverTpotLatencyNs());

        final TestSettings on = apply("*.Server.ttft_latency = 7\n*.Server.tpot_latency = 8\n"
            + "*.*.use_token_latencies = 1\n");
        assertEquals(7_000_000L, on.serverTtftLatencyNs());
        assertEquals(8_000_000L, on.serverTpotLatencyNs());

        // True from an earlier file is enough; false in this file switches the lookup off.
        final ConfigFile f = ConfigFile.parse("t", "*.Server.ttft_latency = 7\n");
        final TestSettings earlier = new TestSettings().useTokenLatencies(true);
        f.applyTo(earlier, "m", TestScenario.OFFLINE, ConfType.USER);
        assertEquals(7_000_000L, earlier.serverTtftLatencyNs());
        final TestSettings switchedOff = new TestSettings().useTokenLatencies(true);
        ConfigFile.parse("t", "*.Server.ttft_latency = 7\n*.*.use_token_latencies = 0\n")
            .applyTo(switchedOff, "m", TestScenario.SERVER, ConfType.USER);
        assertEquals(100_000_000L, switchedOff.serverTtftLatencyNs());
    }

    @Test
    void shouldReadScalingFactorOnlyWhenInferTokenLatencies()
    {
        assertEquals(0, apply("*.*.token_latency_scaling_factor = 69\n").tokenLatencyScalingFactor());
        final TestSettings s = apply("*.*.token_latency_scaling_factor = 69\n*.*.infer_token_latencies = 1\n");
        assertTrue(s.inferTokenLatencies());
        assertEquals(69, s.tokenLatencyScalingFactor());
    }

    @ParameterizedTest
    @CsvSource({"0,SUBMISSION_RUN", "1,ACCURACY_ONLY", "2,PERFORMANCE_ONLY", "3,FIND_PEAK_PERFORMANCE",
        "2.7,PERFORMANCE_ONLY", "0x3,FIND_PEAK_PERFORMANCE"})
    void shouldSetModeByNumber(final String value, final TestMode mode)
    {
        assertEquals(mode, apply("*.*.mode = " + value + "\n").mode());
    }

    @ParameterizedTest
    @CsvSource({"4", "-1", "9.5", "18446744073709551615"})
    void shouldReportInvalidModeAndStillApplyOtherKeys(final String value)
    {
        final TestSettings s = new TestSettings();
        final ConfigFile f = ConfigFile.parse("t.conf", "\n*.*.mode = " + value + "\n*.*.min_query_count = 7\n");
        final List<ConfigDiagnostic> errors = f.applyTo(s, "m", TestScenario.SERVER, ConfType.USER);
        assertEquals(1, errors.size());
        assertEquals("Invalid value passed to Mode key in config.", errors.get(0).loadGenMessage());
        assertEquals(2, errors.get(0).line());
        assertTrue(errors.get(0).toString().startsWith("t.conf:2: key '*.*.mode': mode must be 0"));
        assertEquals(TestMode.PERFORMANCE_ONLY, s.mode());
        assertEquals(7, s.minQueryCount());
    }

    @Test
    void shouldWrapMillisecondMultiplicationModulo2To64()
    {
        // strtoull(...) * 1000000 in uint64_t arithmetic.
        final TestSettings s = apply("*.Server.target_latency = 18446744073709551615\n");
        assertEquals(-1_000_000L, s.serverTargetLatencyNs());
    }

    @Test
    void shouldApplyEveryReadKeyFromOneFile()
    {
        final TestSettings s = apply("*.*.mode = 1\n*.*.use_token_latencies = 1\n*.Server.ttft_latency = 450\n"
            + "*.Server.tpot_latency = 40\n*.*.infer_token_latencies = 1\n*.*.token_latency_scaling_factor = 69\n"
            + "*.MultiStream.samples_per_query = 16\n*.Server.coalesce_queries = 1\n*.Server.max_async_queries = 9\n"
            + "*.*.min_query_count = 11\n*.*.max_query_count = 12\n*.*.performance_sample_count_override = 13\n"
            + "*.*.accuracy_sample_count_override = 14\n*.*.accuracy_log_rng_seed = 15\n"
            + "*.*.accuracy_log_sampling_target = 16\n*.*.performance_issue_same_index = 17\n");
        assertEquals(TestMode.ACCURACY_ONLY, s.mode());
        assertEquals(450_000_000L, s.serverTtftLatencyNs());
        assertEquals(40_000_000L, s.serverTpotLatencyNs());
        assertEquals(69, s.tokenLatencyScalingFactor());
        assertEquals(16, s.multiStreamSamplesPerQuery());
        assertTrue(s.serverCoalesceQueries());
        assertEquals(9, s.serverMaxAsyncQueries());
        assertEquals(11, s.minQueryCount());
        assertEquals(12, s.maxQueryCount());
        assertEquals(13, s.performanceSampleCountOverride());
        assertEquals(14, s.accuracySampleCountOverride());
        assertEquals(15, s.accuracyLogRngSeed());
        assertEquals(16, s.accuracyLogSamplingTarget());
        assertEquals(17, s.performanceIssueSameIndex());
    }

    @Test
    void shouldUseMostSpecificLineForTheModel()
    {
        final String text = "*.*.min_query_count = 1\nresnet50.*.min_query_count = 2\n*.Offline.min_query_count = 3\n"
            + "resnet50.Offline.min_query_count = 4\n";
        assertEquals(4, apply(text, "resnet50", TestScenario.OFFLINE, ConfType.USER).minQueryCount());
        assertEquals(3, apply(text, "bert", TestScenario.OFFLINE, ConfType.USER).minQueryCount());
        assertEquals(2, apply(text, "resnet50", TestScenario.SERVER, ConfType.USER).minQueryCount());
        assertEquals(1, apply(text, "bert", TestScenario.SERVER, ConfType.USER).minQueryCount());
    }
}
