package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.PerformanceResult;
import org.jloadgen.record.SortedLatencies;
import org.jloadgen.testing.GoldenRuns;
import org.junit.jupiter.api.Test;

/**
 * {@link PerformanceSummary}: LoadGen's arithmetic (spec §7.1, §7.2), validity (§7.4), token metrics and the
 * edge cases where LoadGen would crash or print inf/nan.
 */
class PerformanceSummaryTest
{
    private static final SortedLatencies NONE = SortedLatencies.sortInPlace(new long[0]);

    @Test
    void shouldIndexPercentilesAsSortedAtNTimesPTruncated()
    {
        final long[] latencies = new long[10];
        for (int i = 0; i < latencies.length; i++)
        {
            latencies[i] = (10 - i) * 100L;
        }
        final PerformanceSummary s = summary(settings(TestScenario.SINGLE_STREAM), result(latencies, 10, 1.0));
        assertEquals(100, s.sampleLatencyMinNs());
        assertEquals(1000, s.sampleLatencyMaxNs());
        assertEquals(550, s.sampleLatencyMeanNs());
        assertEquals(600, s.sampleLatencyPercentileNs(0), "p50: sorted[5]");
        assertEquals(1000, s.sampleLatencyPercentileNs(1), "p90: sorted[9]");
        assertEquals(1000, s.sampleLatencyPercentileNs(5), "p99.9: sorted[9]");
        assertEquals(1000, s.targetSampleLatencyNs());
    }

    @Test
    void shouldTruncateTheMeanAsAnIntegerDivision()
    {
        final PerformanceSummary s = summary(settings(TestScenario.SINGLE_STREAM), result(new long[] {1, 2}, 2, 1.0));
        assertEquals(1, s.sampleLatencyMeanNs());
    }

    @Test
    void shouldCountServerSamplesAboveTheTargetAsOverLatency()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings()
            .scenario(TestScenario.SERVER).serverTargetLatencyNs(1000).minDurationMs(1000).minQueryCount(1));
        final PerformanceSummary s = summary(settings, result(new long[] {999, 1000, 1001, 5000}, 4, 2.0));
        assertEquals(2, s.overlatencyQueryCount());
    }

    @Test
    void shouldComputeServerRatesFromSampleCountMinusOne()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .minDurationMs(1000).minQueryCount(1));
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {1, 2, 3, 4, 5}),
            NONE, 5, 5e-9, 2.0, 2.5, 4.0, NONE, NONE, 0);
        final PerformanceSummary s = summary(settings, r);
        assertEquals(2.0, s.scheduledSamplesPerSecond());
        assertEquals(1.0, s.completedSamplesPerSecond());
        assertTrue(s.minDurationMet(), "Server compares the final scheduled time");
    }

    @Test
    void shouldJudgeValidityPerScenario()
    {
        final PerformanceSummary offline = summary(GoldenRuns.offline().settings(), GoldenRuns.offline().result());
        assertFalse(offline.valid());
        assertFalse(offline.minDurationMet());
        assertEquals(PerformanceSummary.MIN_DURATION_RECO_OFFLINE + " ", offline.invalidReason());

        final PerformanceSummary server = summary(GoldenRuns.server().settings(), GoldenRuns.server().result());
        assertTrue(server.valid());
        assertEquals("", server.invalidReason());
    }

    @Test
    void shouldFailTheServerConstraintWhenEverySampleIsLate()
    {
        final long[] latencies = new long[2000];
        Arrays.fill(latencies, 200_000_000L);
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .minDurationMs(10_000));
        final PerformanceSummary s = summary(settings, result(latencies, 2000, 1.0));

        assertFalse(s.perfConstraintsMet());
        assertFalse(s.minDurationMet());
        assertFalse(s.earlyStoppingMet());
        assertEquals(2000, s.overlatencyQueryCount());
        assertEquals("Reduce target QPS to improve latency. "
            + "Increase the target QPS so the loadgen pre-generates more queries. ", s.invalidReason());
    }

    @Test
    void shouldNotCrashOrProduceNonFiniteValuesWithoutSamples()
    {
        for (final TestScenario scenario : TestScenario.values())
        {
            final PerformanceResult empty = new PerformanceResult(NONE, NONE, 0, 0.0, 0.0, 0.0, 0.0, NONE, NONE, 0);
            final PerformanceSummary s = summary(settings(scenario), empty);
            assertEquals(0, s.sampleCount());
            assertEquals(0, s.queryCount());
            assertEquals(0, s.sampleLatencyMeanNs());
            assertFalse(s.valid(), scenario + " cannot be valid without samples");
            for (final double v : rates(s))
            {
                assertEquals(0.0, v, scenario + ": rates are 0, never inf or nan");
            }
        }
    }

    @Test
    void shouldReportZeroRatesWhenFinalTimesAreZero()
    {
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {0, 0, 0}), NONE,
            3, 0.0, 0.0, 0.0, 0.0, NONE, NONE, 0);
        for (final TestScenario scenario : TestScenario.values())
        {
            for (final double v : rates(summary(settings(scenario), r)))
            {
                assertTrue(Double.isFinite(v), scenario + " rate " + v);
            }
        }
    }

    @Test
    void shouldHandleASingleQuery()
    {
        final PerformanceSummary s = summary(settings(TestScenario.SINGLE_STREAM), result(new long[] {1234}, 1, 0.5));
        assertEquals(1234, s.targetSampleLatencyNs());
        assertEquals(0.0, s.qpsWithLoadgenOverhead(), "(1 - 1) / t");
        assertEquals(1 / (1234 / 1e9), s.qpsWithoutLoadgenOverhead());
        assertFalse(s.earlyStoppingMet());
        assertTrue(s.earlyStoppingRecommendation().startsWith(" * Only processed 1 queries."));
    }

    @Test
    void shouldComputeMultiStreamStatisticsFromQueryLatencies()
    {
        final long[] queries = {40, 10, 30, 20};
        final long[] samples = {10, 10, 20, 20, 30, 30, 40, 40};
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(samples),
            SortedLatencies.sortInPlace(queries), 4, 4e-8, 1.0, 1.0, 1.0, NONE, NONE, 0);
        final PerformanceSummary s = summary(settings(TestScenario.MULTI_STREAM), r);
        assertEquals(10, s.queryLatencyMinNs());
        assertEquals(40, s.queryLatencyMaxNs());
        assertEquals(25, s.queryLatencyMeanNs());
        assertEquals(40, s.targetQueryLatencyNs(), "p99 of 4: sorted[3]");
        assertEquals(30, s.queryLatencyPercentileNs(0), "p50 of 4: sorted[2]");
    }

    @Test
    void shouldUseTheTokenArraysInTokenMode()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .useTokenLatencies(true).serverTtftLatencyNs(500).serverTpotLatencyNs(50).minDurationMs(1000)
            .minQueryCount(1));
        final long[] samples = {1000, 2000, 3000, 4000};
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(samples), NONE, 4,
            4e-6, 2.0, 2.0, 3.0, SortedLatencies.sortInPlace(new long[] {100, 200, 300, 900}),
            SortedLatencies.sortInPlace(new long[] {10, 20, 30, 90}), 401);
        final PerformanceSummary s = summary(settings, r);

        assertEquals(401, s.tokenCount());
        assertEquals(375, s.firstTokenMeanNs());
        assertEquals(37, s.timePerOutputTokenMeanNs());
        assertEquals(900, s.targetFirstTokenNs());
        assertEquals(90, s.targetTimePerOutputTokenNs());
        assertFalse(s.perfConstraintsMet());
        assertEquals(PerformanceSummary.PERF_RECO_TTFT + "\n * " + PerformanceSummary.PERF_RECO_TPOT,
            s.perfConstraintsRecommendation());
        assertTrue(s.invalidReason().startsWith(PerformanceSummary.PERF_RECO_TTFT + "  * TPOT"),
            "newlines become spaces: " + s.invalidReason());
        assertEquals(401 / 3.0, s.completedTokensPerSecond());
        assertEquals(401.0 / (2500.0 * 4), s.tokenThroughput(), "LoadGen divides by ns, not seconds");
        assertEquals(401 / 2.0, s.tokenThroughputWithLoadgenOverhead());
        assertFalse(s.earlyStoppingMet(), "one TPOT over its limit needs 661 more under it");
        assertEquals("", s.earlyStoppingTtftRecommendation(), "TTFT is not evaluated when TPOT already failed");
    }

    @Test
    void shouldReportTheFirstTokenEstimateAsSingleStreamLatencyInTokenMode()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings()
            .scenario(TestScenario.SINGLE_STREAM).useTokenLatencies(true).minDurationMs(1).minQueryCount(1));
        final int n = 1000;
        final long[] samples = new long[n];
        final long[] ttft = new long[n];
        final long[] tpot = new long[n];
        for (int i = 0; i < n; i++)
        {
            samples[i] = 100_000 + i;
            ttft[i] = 10_000 + i;
            tpot[i] = 100 + i;
        }
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(samples), NONE, n, 1e-4,
            1.0, 1.0, 1.0, SortedLatencies.sortInPlace(ttft), SortedLatencies.sortInPlace(tpot), 5000);
        final PerformanceSummary s = summary(settings, r);

        assertTrue(s.earlyStoppingMet());
        assertEquals(ttft[n - 78], s.earlyStoppingLatencySsNs(), "the TTFT pass runs last [LG quirk]");
        assertEquals(ttft[n - 2], s.earlyStoppingLatencyMsNs());
        assertTrue(s.earlyStoppingTpotRecommendation().contains("estimate: " + tpot[n - 78]));
        assertTrue(s.earlyStoppingTtftRecommendation().contains("estimate: " + ttft[n - 78]));
        assertEquals("", s.earlyStoppingRecommendation());
    }

    @Test
    void shouldNotFailOnZeroTokenCounts()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.OFFLINE)
            .useTokenLatencies(true).offlineExpectedQps(1).minDurationMs(1));
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {5, 6}), NONE, 1,
            6e-9, 0.0, 0.0, 6e-9, NONE, NONE, 0);
        final PerformanceSummary s = summary(settings, r);
        assertEquals(0, s.tokenCount());
        assertEquals(0.0, s.tokensPerSecond());
        assertEquals(0.0, s.tokenThroughput());
    }

    @Test
    void shouldInferTokensFromTheScalingFactor()
    {
        final EffectiveSettings offline = GoldenRuns.effective(new TestSettings().scenario(TestScenario.OFFLINE)
            .inferTokenLatencies(true).tokenLatencyScalingFactor(69).offlineExpectedQps(1));
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {1, 2, 3}), NONE,
            1, 2.0, 0.0, 0.0, 4.0, NONE, NONE, 0);
        assertEquals(69 * 3 / 2.0, summary(offline, r).inferredTokensPerSecond());

        final EffectiveSettings server = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .inferTokenLatencies(true).tokenLatencyScalingFactor(69));
        assertEquals(2 * 69 / 4.0, summary(server, r).inferredCompletedTokensPerSecond());
    }

    @Test
    void shouldRequireBothMinimumQueriesAndMinimumSamples()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings()
            .scenario(TestScenario.MULTI_STREAM).minQueryCount(2).minDurationMs(1));
        final PerformanceResult fewSamples = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {1, 2}),
            SortedLatencies.sortInPlace(new long[] {1, 2}), 2, 1e-9, 1.0, 1.0, 1.0, NONE, NONE, 0);
        final PerformanceSummary s = summary(settings, fewSamples);
        assertFalse(s.minQueriesMet(), "2 queries but only 2 of 16 samples");
        assertTrue(s.invalidReason().endsWith("The test exited early, before enough queries were issued."));
    }

    @Test
    void shouldBeInvalidWhenSamplesNeverCompletedThoughLoadGensFourChecksPass()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.OFFLINE)
            .minDurationMs(1000).offlineExpectedQps(1).minQueryCount(1));
        final PerformanceResult r = result(new long[] {2_000_000_000L, 2_000_000_000L}, 1, 2.0);
        assertTrue(summary(settings, r).valid(), "every sample completed");

        final PerformanceSummary missing = new PerformanceSummary("TestSUT", settings, r, new SeriesEnd(5, 3, null));
        assertTrue(missing.minDurationMet() && missing.minQueriesMet() && missing.perfConstraintsMet()
            && missing.earlyStoppingMet());
        assertFalse(missing.valid());
        assertTrue(missing.recommendationsApply());
        assertEquals("3 of 5 issued samples never completed.", missing.invalidReason());

        final PerformanceSummary aborted = new PerformanceSummary("TestSUT", settings, result(new long[] {5}, 1, 0.5),
            new SeriesEnd(2, 1, "interrupted"));
        assertFalse(aborted.minDurationMet());
        assertFalse(aborted.recommendationsApply(), "LoadGen's advice assumes a run that went to its end");
        assertEquals("The run was aborted: interrupted. Its results cover only the part before the abort; run it again "
            + "to the end. 1 of 2 issued samples never completed.", aborted.invalidReason());
        assertThrows(IllegalArgumentException.class, () -> new SeriesEnd(2, 3, null));
    }

    private static double[] rates(final PerformanceSummary s)
    {
        return new double[] {s.qpsWithLoadgenOverhead(), s.qpsWithoutLoadgenOverhead(),
            s.scheduledSamplesPerSecond(), s.completedSamplesPerSecond(), s.samplesPerSecond(), s.tokensPerSecond(),
            s.completedTokensPerSecond(), s.tokenThroughput(), s.tokenThroughputWithLoadgenOverhead(),
            s.tokensPerSecondWithoutLoadgenOverhead(), s.inferredTokensPerSecond(),
            s.inferredCompletedTokensPerSecond()};
    }

    private static EffectiveSettings settings(final TestScenario scenario)
    {
        return GoldenRuns.effective(new TestSettings().scenario(scenario).mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(1000).offlineExpectedQps(1));
    }

    private static PerformanceResult result(final long[] latencies, final long queries, final double seconds)
    {
        final long[] copy = latencies.clone();
        final SortedLatencies sorted = SortedLatencies.sortInPlace(copy);
        return new PerformanceResult(sorted, NONE, queries, copy[copy.length - 1] / 1e9, seconds, seconds, seconds,
            NONE, NONE, 0);
    }

    private static PerformanceSummary summary(final EffectiveSettings settings, final PerformanceResult result)
    {
        return new PerformanceSummary("TestSUT", settings, result);
    }
}
