package org.jloadgen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.junit.jupiter.api.Test;

class EffectiveSettingsTest
{
    @Test
    void shouldDeriveSingleStream()
    {
        final TestSettings s = new TestSettings().singleStreamExpectedLatencyNs(2500).minDurationMs(10_000)
            .maxDurationMs(20_000).mode(TestMode.ACCURACY_ONLY);
        final EffectiveSettings e = new EffectiveSettings(s, 2048, 1024);
        assertEquals(TestScenario.SINGLE_STREAM, e.scenario);
        assertEquals(TestMode.ACCURACY_ONLY, e.mode);
        assertEquals(1, e.samplesPerQuery);
        assertEquals(400_000.0, e.targetQps);
        assertEquals(0, e.targetLatencyNs);
        assertEquals(0.9, e.targetLatencyPercentile);
        assertEquals(1, e.maxAsyncQueries);
        assertEquals(10_000, e.targetDurationMs);
        assertEquals(10_000, e.minDurationMs);
        assertEquals(20_000, e.maxDurationMs);
        assertEquals(100, e.minQueryCount);
        assertEquals(100, e.minSampleCount);
        assertEquals(1024, e.performanceSampleCount);
        assertEquals(2048, e.accuracySampleCount);
        assertTrue(e.errors.isEmpty());
    }

    @Test
    void shouldDeriveMultiStream()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.MULTI_STREAM).multiStreamExpectedLatencyNs(3333)
            .multiStreamSamplesPerQuery(8).minQueryCount(662);
        final EffectiveSettings e = new EffectiveSettings(s, 1024, 1024);
        assertEquals(8, e.samplesPerQuery);
        assertEquals(1e9 / 3333, e.targetQps);
        assertEquals(0.99, e.targetLatencyPercentile);
        assertEquals(1, e.maxAsyncQueries);
        assertEquals(662, e.minQueryCount);
        assertEquals(662 * 8, e.minSampleCount);
    }

    @Test
    void shouldDeriveServer()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(10_000)
            .serverTargetLatencyNs(15_000_000).serverTargetLatencyPercentile(0.99).serverMaxAsyncQueries(64);
        final EffectiveSettings e = new EffectiveSettings(s, 1024, 1024);
        assertEquals(10_000.0, e.targetQps);
        assertEquals(15_000_000, e.targetLatencyNs);
        assertEquals(64, e.maxAsyncQueries);
        assertEquals(1, e.samplesPerQuery);
        assertEquals(10_000, e.targetDurationMs);
        assertEquals(100, e.minSampleCount);
        assertEquals(12_345.0, e.withTargetQps(12_345).targetQps);
        assertEquals(15_000_000, e.withTargetQps(12_345).targetLatencyNs);
    }

    @Test
    void shouldReportInvalidQpsAndKeepOne()
    {
        final EffectiveSettings server = new EffectiveSettings(
            new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(-2.5), 10, 10);
        assertEquals(1.0, server.targetQps);
        assertEquals(List.of("Invalid value for server_target_qps requested. requested: -2.5 using: 1"), server.errors);

        final EffectiveSettings offline = new EffectiveSettings(
            new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(-1e7), 10, 10);
        assertEquals(1.0, offline.targetQps);
        assertEquals(List.of("Invalid value for offline_expected_qps requested. requested: -1e+07 using: 1"),
            offline.errors);
        // 1.1 * 10 s * 1 qps = 11 samples, below min_query_count 100.
        assertEquals(100, offline.samplesPerQuery);
    }

    @Test
    void shouldSizeOfflineQueryFromDurationAndQps()
    {
        // The official Offline example: 1.1 * 10 s * 300000 qps.
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(300_000)
            .minDurationMs(10_000).maxDurationMs(20_000);
        final EffectiveSettings e = new EffectiveSettings(s, 1024, 1024);
        assertEquals(3_300_000, e.samplesPerQuery);
        assertEquals(1, e.minQueryCount);
        assertEquals(3_300_000, e.minSampleCount);
        assertEquals(0, e.targetDurationMs);
        assertEquals(10_000, e.minDurationMs);
        assertEquals(0.99, e.targetLatencyPercentile);
        assertEquals(1, e.maxAsyncQueries);
        // Truncation after the double products: 1.1 * 0.6 s * 1 qps = 0.66 -> 0 -> min_query_count wins.
        final EffectiveSettings small = new EffectiveSettings(new TestSettings().scenario(TestScenario.OFFLINE)
            .minDurationMs(600).minQueryCount(0), 10, 10);
        assertEquals(0, small.samplesPerQuery);
        // min_query_count wins when larger.
        assertEquals(24_576, new EffectiveSettings(new TestSettings().scenario(TestScenario.OFFLINE)
            .minQueryCount(24_576).offlineExpectedQps(10), 10, 10).samplesPerQuery);
        // Compared unsigned, as uint64_t.
        assertEquals(-2L, new EffectiveSettings(new TestSettings().scenario(TestScenario.OFFLINE)
            .minQueryCount(-2L).offlineExpectedQps(10), 10, 10).samplesPerQuery);
    }

    @Test
    void shouldIssuePerformanceSetOnceInOfflineUnique()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(300_000)
            .performanceIssueUnique(true);
        assertEquals(1024, new EffectiveSettings(s, 5000, 1024).samplesPerQuery);
        assertEquals(777, new EffectiveSettings(s.copy().performanceSampleCountOverride(777), 5000, 1024)
            .samplesPerQuery);
        // performance_issue_same does not change the Offline query size in LoadGen 6.0.
        assertEquals(3_300_000, new EffectiveSettings(s.copy().performanceIssueUnique(false)
            .performanceIssueSame(true), 5000, 1024).samplesPerQuery);
    }

    @Test
    void shouldRoundSingleStreamEqualIssueMinQueriesToQslCount()
    {
        // 2 * 600 s * 100 qps = 120000 queries, rounded up past a multiple of the QSL's 1024: 120832.
        final TestSettings s = new TestSettings().singleStreamExpectedLatencyNs(10_000_000).minDurationMs(600_000)
            .sampleConcatenatePermutation(true);
        final EffectiveSettings e = new EffectiveSettings(s, 5000, 1024);
        assertEquals(120_832, e.minQueryCount);
        assertEquals(120_832, e.minSampleCount);
        assertTrue(e.sampleConcatenatePermutation);
    }

    @Test
    void shouldAddWholeExtraPassWhenAlreadyMultiple()
    {
        final TestSettings s = new TestSettings().minDurationMs(0).minQueryCount(2048)
            .sampleConcatenatePermutation(true);
        assertEquals(3072, new EffectiveSettings(s, 5000, 1024).minQueryCount);
    }

    @Test
    void shouldRoundWithQslReportedCountNotOverride()
    {
        final TestSettings s = new TestSettings().minDurationMs(0).minQueryCount(100).sampleConcatenatePermutation(true)
            .performanceSampleCountOverride(64);
        final EffectiveSettings e = new EffectiveSettings(s, 5000, 1000);
        assertEquals(1000, e.minQueryCount);
        assertEquals(64, e.performanceSampleCount);
    }

    @Test
    void shouldNotRoundOtherScenariosOrWithoutEqualIssue()
    {
        assertEquals(100, new EffectiveSettings(new TestSettings().minDurationMs(0), 5000, 1024).minQueryCount);
        assertEquals(100, new EffectiveSettings(new TestSettings().scenario(TestScenario.MULTI_STREAM).minDurationMs(0)
            .sampleConcatenatePermutation(true), 5000, 1024).minQueryCount);
    }

    @Test
    void shouldReportZeroQslCountInsteadOfDividingByZero()
    {
        final EffectiveSettings e = new EffectiveSettings(new TestSettings().sampleConcatenatePermutation(true), 0, 0);
        assertEquals(1, e.errors.size());
    }

    @Test
    void shouldValidateAuditSettings()
    {
        final EffectiveSettings same = new EffectiveSettings(new TestSettings().performanceIssueSame(true)
            .performanceIssueSameIndex(1024), 2048, 1024);
        assertEquals(List.of("Sample Idx to be repeated in performance_issue_same mode cannot be greater than loaded "
            + "performance_sample_count. performance_issue_same_index: 1024 performance_sample_count: 1024"),
            same.errors);
        assertTrue(new EffectiveSettings(new TestSettings().performanceIssueSame(true).performanceIssueSameIndex(1023),
            2048, 1024).errors.isEmpty());
        // Unsigned comparison and printing.
        assertEquals(1, new EffectiveSettings(new TestSettings().performanceIssueSame(true)
            .performanceIssueSameIndex(-1L), 2048, 1024).errors.size());

        final EffectiveSettings both = new EffectiveSettings(new TestSettings().performanceIssueSame(true)
            .performanceIssueUnique(true).performanceIssueSameIndex(3), 2048, 1024);
        assertEquals(List.of("Performance_issue_unique and performance_issue_same, both cannot be true at the same "
            + "time. performance_issue_unique: 1 performance_issue_same: 1"), both.errors);
    }

    @Test
    void shouldCopySeedsFlagsAndOverrides()
    {
        final TestSettings s = new TestSettings().qslRngSeed(1).sampleIndexRngSeed(2).scheduleRngSeed(-3L)
            .accuracyLogRngSeed(4).accuracyLogProbability(0.5).accuracyLogSamplingTarget(6).printTimestamps(true)
            .accuracySampleCountOverride(99).useTokenLatencies(true).serverTtftLatencyNs(7).serverTpotLatencyNs(8)
            .inferTokenLatencies(true).tokenLatencyScalingFactor(9).maxQueryCount(10);
        final EffectiveSettings e = new EffectiveSettings(s, 5000, 1024);
        assertEquals(1, e.qslRngSeed);
        assertEquals(2, e.sampleIndexRngSeed);
        assertEquals(-3L, e.scheduleRngSeed);
        assertEquals(4, e.accuracyLogRngSeed);
        assertEquals(0.5, e.accuracyLogProbability);
        assertEquals(6, e.accuracyLogSamplingTarget);
        assertTrue(e.printTimestamps);
        assertEquals(99, e.accuracySampleCount);
        assertTrue(e.useTokenLatencies);
        assertEquals(7, e.serverTtftLatencyNs);
        assertEquals(8, e.serverTpotLatencyNs);
        assertTrue(e.inferTokenLatencies);
        assertEquals(9, e.tokenLatencyScalingFactor);
        assertEquals(10, e.maxQueryCount);
        assertFalse(e.sampleConcatenatePermutation);
    }
}
