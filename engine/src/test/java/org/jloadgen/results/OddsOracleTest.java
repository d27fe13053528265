package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link OddsOracle}'s fast stages against LoadGen's computation ({@link EarlyStopping#odds}, run operation for
 * operation): every finder call of a real SingleStream evaluation, and (h, t) pairs at the threshold for t up to
 * 10 million, where both error bounds are held against LoadGen's actual value, not only the decisions.
 */
class OddsOracleTest
{
    private static final double C = EarlyStopping.CONFIDENCE;
    private static final double D = EarlyStopping.TOLERANCE;
    private static final double THRESHOLD = 1 - C;

    @Test
    void shouldAgreeWithTheExactFinderOnEveryCallOfATwoMillionQuerySingleStreamEvaluation()
    {
        final long queries = 2_000_000;
        final MinPassingQueriesFinder fast = MinPassingQueriesFinder.create();
        final MinPassingQueriesFinder exact = MinPassingQueriesFinder.exact();
        // EarlyStopping.singleStream's calls: F(1), the loop at the target percentile, then the same at 0.99.
        final long[] expectedT = {199_013, 19_672};
        final double[] percentiles = {0.9, 0.99};
        for (int k = 0; k < percentiles.length; k++)
        {
            final double p = percentiles[k];
            assertEquals(exact.find(1, p, D, C), fast.find(1, p, D, C), "F(1) at p=" + p);
            long t = 1;
            for (long i = 2; i < queries + 1; i++)
            {
                final long h = fast.find(i, p, D, C);
                assertEquals(exact.find(i, p, D, C), h, "F(" + i + ") at p=" + p);
                if (queries < h + i)
                {
                    t = i - 1;
                    break;
                }
            }
            assertEquals(expectedT[k], t, "discard count at p=" + p);
            assertTrue(fast.refinedDecisions(p, D, C) > 20,
                "the refined stage decided comparisons at p=" + p + ": " + fast.refinedDecisions(p, D, C));
        }
    }

    @Test
    void shouldBoundLoadGensOddsByBothEstimatesAtTheThresholdUpToTenMillionOverLatency()
    {
        final SplittableRandom random = new SplittableRandom(20_250_101L);
        int refinedChecked = 0;
        int tightened = 0;
        for (final double p : new double[] {0.9, 0.99, 0.999, 0.95, 0.5})
        {
            final OddsOracle oracle = new OddsOracle(p, D, C);
            for (int n = 0; n < 60; n++)
            {
                // log-uniform t in [32, 1e7]
                final long t = (long)Math.exp(Math.log(32) + random.nextDouble() * Math.log(1e7 / 32));
                final long threshold = MinPassingQueriesFinder.create().find(t, p, D, C);
                // Random h within half the way to the mean h = t p / (1 - p), where the series converges.
                final long span = Math.max(1, (threshold - (long)(t * p / (1 - p))) / 2);
                for (final long h : new long[] {threshold - 2, threshold - 1, threshold, threshold + 1,
                    threshold + random.nextLong(-span, span)})
                {
                    final double loadGen = EarlyStopping.odds(h, t, p, D);
                    final OddsOracle.Estimate estimate = oracle.estimate(h, t);
                    final String at = "p=" + p + " h=" + h + " t=" + t;
                    assertNotNull(estimate, "fast regime at " + at);
                    assertTrue(Math.abs(loadGen / estimate.walked() - 1) <= estimate.coarseError(),
                        "coarse bound at " + at + ": " + loadGen + " vs " + estimate);
                    if (!Double.isNaN(estimate.refined()))
                    {
                        assertTrue(Math.abs(loadGen / estimate.refined() - 1) <= estimate.refinedError(),
                            "refined bound at " + at + ": " + loadGen + " vs " + estimate);
                        refinedChecked++;
                        if (t >= 1_000_000 && estimate.refinedError() * 1000 < estimate.coarseError())
                        {
                            tightened++;
                        }
                    }
                    assertEquals(loadGen < THRESHOLD, oracle.passes(h, t), "decision at " + at);
                }
            }
        }
        assertTrue(refinedChecked >= 1400, "pairs with a refined estimate: " + refinedChecked);
        assertTrue(tightened >= 50, "pairs with t >= 1e6 whose refined bound is 1000x tighter: " + tightened);
    }

    @Test
    void shouldDecideAlmostNoComparisonOfTwentyMillionQueriesWithLoadGensSeries()
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        long t = 1;
        for (long i = 2; i < 20_000_001; i++)
        {
            if (20_000_000 < finder.find(i, 0.9, D, C) + i)
            {
                t = i - 1;
                break;
            }
        }
        assertEquals(1_996_878, t);
        final long exact = finder.exactEvaluations(0.9, D, C);
        final long refined = finder.refinedDecisions(0.9, D, C);
        assertTrue(refined > 10_000, "the coarse stage leaves ~1.6% to the refined one: " + refined);
        assertTrue(exact < 500, "exact evaluations (LoadGen's own ~3M, the coarse stage alone ~33k): " + exact);
    }

    @Test
    void shouldComputeLoadGensExponentAsBetaRegularizedDoes()
    {
        for (final long[] ht : new long[][] {{63, 1}, {12471, 100}, {5_000_000, 571_402}, {63_905_881, 7_094_119}})
        {
            final long h = ht[0];
            final long b = ht[1] + 1;
            final double x = 0.9;
            final double series = EarlyStopping.hypergeometric2F1A1(1 - b, 1 + h, x / (x - 1));
            final double exponent = EarlyStopping.exponent(GlibcMath.log(x), GlibcMath.log(1 - x), h, b);
            assertEquals(EarlyStopping.betaRegularized(x, h, b), GlibcMath.exp(exponent) / h * series, "h=" + h);
        }
    }

    @Test
    void shouldLeaveTheSmallAndNonConvergentRegimeToTheExactComputation()
    {
        final OddsOracle oracle = new OddsOracle(0.9, D, C);
        assertEquals(null, oracle.estimate(100, 5), "t < 32");
        assertEquals(null, oracle.estimate(100, 1000), "series ratio above 1");
        assertEquals(null, new OddsOracle(0.3, D, C).estimate(1000, 100), "p - d below 0.5");
        assertEquals(EarlyStopping.odds(100, 5, 0.9, D) < THRESHOLD, oracle.passes(100, 5));
        assertEquals(1, oracle.exactEvaluations());
    }
}
