package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.junit.jupiter.api.Test;

/**
 * {@link AccuracyLogSampling}: the sampling probability of spec §9.2 and the selection rule of §4.6.
 */
class AccuracyLogSamplingTest
{
    /** First uniform_real draw of mt19937(720381539243781796), the TEST01/04/06 seed (spec §4.9). */
    private static final double TEST01_OFFSET = 0.49069568815352677;

    @Test
    void shouldUseTheConfiguredProbabilityWithoutASamplingTarget()
    {
        final EffectiveSettings s = effective(new TestSettings().scenario(TestScenario.SERVER)
            .accuracyLogProbability(0.25));
        assertEquals(0.25, AccuracyLogSampling.probability(s));
    }

    @Test
    void shouldDivideTheTargetByTheExpectedSamplesInOffline()
    {
        // expected = 20000 * 600 s = 12M; minimum = min_sample_count = spq = (uint64)(1.1 * 600 * 20000).
        final EffectiveSettings s = effective(new TestSettings().scenario(TestScenario.OFFLINE)
            .offlineExpectedQps(20_000).minDurationMs(600_000).accuracyLogSamplingTarget(4096));
        assertEquals(13_200_000, s.minSampleCount);
        assertEquals(4096.0 / 13_200_000, AccuracyLogSampling.probability(s));
    }

    @Test
    void shouldMultiplyByTheSamplesPerQueryOutsideOffline()
    {
        final EffectiveSettings multi = effective(new TestSettings().scenario(TestScenario.MULTI_STREAM)
            .multiStreamExpectedLatencyNs(50_000_000).minDurationMs(600_000).minQueryCount(662)
            .accuracyLogSamplingTarget(1024));
        // (uint64)(20 qps * 600 s) = 12000 queries * 8 samples = 96000 > 662 * 8.
        assertEquals(1024.0 / 96_000, AccuracyLogSampling.probability(multi));

        final EffectiveSettings server = effective(new TestSettings().scenario(TestScenario.SERVER)
            .serverTargetQps(0.5).minDurationMs(1000).minQueryCount(270_336).accuracyLogSamplingTarget(100));
        assertEquals(100.0 / 270_336, AccuracyLogSampling.probability(server), "the minimum wins");
    }

    @Test
    void shouldTruncateTheExpectedCountAfterTheDoubleArithmetic()
    {
        final EffectiveSettings s = effective(new TestSettings().scenario(TestScenario.SERVER)
            .serverTargetQps(2.9).minDurationMs(1000).minQueryCount(1).accuracyLogSamplingTarget(1));
        assertEquals(1.0 / 2, AccuracyLogSampling.probability(s), "(uint64)(2.9 * 1000 / 1000) = 2");
    }

    @Test
    void shouldLogEverySampleWhenNothingIsExpected()
    {
        final EffectiveSettings s = effective(new TestSettings().scenario(TestScenario.SERVER)
            .serverTargetQps(0).minDurationMs(0).minQueryCount(0).accuracyLogSamplingTarget(10));
        assertEquals(Double.POSITIVE_INFINITY, AccuracyLogSampling.probability(s));
        assertTrue(AccuracyLogSampling.selected(TestMode.PERFORMANCE_ONLY, 0.999, 0.5, AccuracyLogSampling
            .probability(s)));
    }

    @Test
    void shouldWrapTheShiftedValueIntoTheUnitInterval()
    {
        assertEquals(0.6 + TEST01_OFFSET - 1.0, AccuracyLogSampling.shiftedValue(0.6, TEST01_OFFSET));
        assertEquals(0.1 + TEST01_OFFSET, AccuracyLogSampling.shiftedValue(0.1, TEST01_OFFSET));
        assertEquals(0.0, AccuracyLogSampling.shiftedValue(0.5, 0.5), "exactly 1.0 wraps to 0");
    }

    @Test
    void shouldSelectAtOrBelowTheProbability()
    {
        final double shifted = AccuracyLogSampling.shiftedValue(0.6, TEST01_OFFSET);
        assertTrue(AccuracyLogSampling.selected(TestMode.PERFORMANCE_ONLY, 0.6, TEST01_OFFSET, shifted));
        assertFalse(AccuracyLogSampling.selected(TestMode.PERFORMANCE_ONLY, 0.6, TEST01_OFFSET,
            Math.nextDown(shifted)));
        assertFalse(AccuracyLogSampling.selected(TestMode.PERFORMANCE_ONLY, 0.0, 0.0, -1.0));
        assertTrue(AccuracyLogSampling.selected(TestMode.ACCURACY_ONLY, 0.99, 0.0, 0.0), "accuracy logs everything");
    }

    private static EffectiveSettings effective(final TestSettings requested)
    {
        return new EffectiveSettings(requested, 50_000, 1024);
    }
}
