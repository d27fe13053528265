package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.jloadgen.api.TestScenario;
import org.jloadgen.record.SortedLatencies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Early stopping against spec §7.3's reference values and against values computed by LoadGen's own algorithm
 * compiled with g++ 12 / glibc 2.36 (the same source transcribed from the spec, run once to produce the tables
 * below).
 */
class EarlyStoppingTest
{
    private static final double C = EarlyStopping.CONFIDENCE;
    private static final double D = EarlyStopping.TOLERANCE;

    @Test
    void shouldReproduceTheSpecReferenceValuesAtP90()
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        assertEquals(63, finder.find(1, 0.9, D, C));
        assertEquals(79, finder.find(2, 0.9, D, C));
        assertEquals(187, finder.find(10, 0.9, D, C));
    }

    @Test
    void shouldReproduceTheSpecReferenceValuesAtP99AndP999()
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        assertEquals(661, finder.find(1, 0.99, D, C));
        assertEquals(836, finder.find(2, 0.99, D, C));
        assertEquals(2000, finder.find(10, 0.99, D, C));
        assertEquals(6635, MinPassingQueriesFinder.create().find(1, 0.999, D, C));
    }

    @Test
    void shouldReproduceTheSpecServerSequence()
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        assertEquals(459, finder.find(0, 0.99, D, C));
        assertEquals(1302, finder.find(5, 0.99, D, C));
        assertEquals(12471, finder.find(100, 0.99, D, C));
        assertEquals(12471, finder.find(100, 0.99, D, C), "a cached answer is returned unchanged");
    }

    @Test
    void shouldDiscardSeventySevenOfAThousandSingleStreamQueries()
    {
        final long[] latencies = new long[1000];
        for (int i = 0; i < latencies.length; i++)
        {
            latencies[i] = 1000 + i;
        }
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.SINGLE_STREAM, 0.9, 1000,
            SortedLatencies.sortInPlace(latencies), SortedLatencies.sortInPlace(new long[0]), 0, 0, 0);

        assertTrue(result.met());
        assertEquals(latencies[1000 - 78], result.latencySsNs(), "estimate = sorted[Q - t] with t = 78");
        assertEquals(latencies[1000 - 2], result.latencyMsNs(), "99th estimate: t = 2");
        assertEquals(" * Processed at least 64 queries (1000).\n"
            + " * Would discard 77 highest latency queries.\n"
            + " * Early stopping 90.0th percentile estimate: 1922\n"
            + " * Early stopping 99.0th percentile estimate: 1998", result.recommendation());
    }

    @ParameterizedTest(name = "Q={0} p={1} -> t={2}")
    @CsvSource({
        "64, 0.9, 1", "65, 0.9, 1", "100, 0.9, 3", "1000, 0.9, 78", "4999, 0.9, 450", "5000, 0.9, 450",
        "12345, 0.9, 1157", "100000, 0.9, 9779", "270001, 0.9, 26637", "1265382, 0.9, 125753",
        "5730734, 0.9, 571402",
        "1000, 0.99, 2", "4999, 0.99, 33", "12345, 0.99, 97", "100000, 0.99, 927", "270001, 0.99, 2579",
        "1265382, 0.99, 12393", "5730734, 0.99, 56753",
        "12345, 0.999, 4", "100000, 0.999, 77", "270001, 0.999, 232", "1265382, 0.999, 1182",
        "616340, 0.95, 30419", "1465816, 0.95, 72677", "5494, 0.95, 237", "240083, 0.999, 204",
        "15962, 0.5, 7833", "305436, 0.5, 152074", "112, 0.5, 43", "6028, 0.999, -6636",
    })
    void shouldFindLoadGensDiscardCount(final long queries, final double p, final long expectedT)
    {
        assertEquals(expectedT, discardCount(MinPassingQueriesFinder.create(), queries, p));
    }

    @ParameterizedTest(name = "p={0} t={1} -> h={2}")
    @CsvSource({
        "0.9, 0, 44", "0.9, 5, 122", "0.9, 37, 493", "0.9, 100, 1146", "0.9, 1000, 9722", "0.9, 10000, 92231",
        "0.9, 123456, 1118882",
        "0.99, 0, 459", "0.99, 1, 661", "0.99, 37, 5334", "0.99, 1000, 106569", "0.99, 10000, 1013394",
        "0.99, 123456, 12303720",
        "0.999, 0, 4603", "0.999, 2, 8401", "0.999, 100, 125726", "0.999, 10000, 10224999",
        "0.999, 123456, 124152001", "0.95, 278796, 5321117", "0.99, 262450, 26101378", "0.999, 99158, 99793501",
        "0.5, 23, 43", "0.95, 4, 225",
    })
    void shouldFindLoadGensServerMinimumOnAFreshFinder(final double p, final long t, final long expectedH)
    {
        assertEquals(expectedH, MinPassingQueriesFinder.create().find(t, p, D, C));
    }

    @Test
    void shouldAgreeWithTheExactComputationForEverySmallRun()
    {
        for (long queries = 60; queries <= 3000; queries += 37)
        {
            for (final double p : new double[] {0.9, 0.99})
            {
                assertEquals(discardCount(MinPassingQueriesFinder.exact(), queries, p),
                    discardCount(MinPassingQueriesFinder.create(), queries, p), "Q=" + queries + " p=" + p);
            }
        }
    }

    @Test
    void shouldAgreeWithTheExactComputationOnEveryCallOfALongSequence()
    {
        final MinPassingQueriesFinder fast = MinPassingQueriesFinder.create();
        final MinPassingQueriesFinder exact = MinPassingQueriesFinder.exact();
        for (long t = 1; t <= 20_000; t++)
        {
            assertEquals(exact.find(t, 0.9, D, C), fast.find(t, 0.9, D, C), "t=" + t);
        }
    }

    @Test
    void shouldRunLoadGensSeriesOnlyNearTheThreshold()
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        assertEquals(571_402, discardCount(finder, 5_730_734, 0.9));
        final long exact = finder.exactEvaluations(0.9, D, C);
        assertTrue(exact < 5_000, "LoadGen makes ~588k odds evaluations here; exact ones: " + exact);
    }

    @Test
    void shouldComputeOddsBitForBitAsLoadGen()
    {
        // {h, t, p * 1000, glibc result bits}
        final Object[][] cases = {
            {63L, 1L, 0.9, 0x1.395d83a1d53acp-7}, {62L, 1L, 0.9, 0x1.5769fcf77cef1p-7},
            {79L, 2L, 0.9, 0x1.42275cc8545b1p-7}, {1000L, 100L, 0.9, 0x1.5c58042bc6643p-3},
            {12471L, 100L, 0.9, 0.0}, {459L, 0L, 0.9, 0x1.2c5dd2f6e4a08p-70},
            {5_000_000L, 571_402L, 0.9, 0x1.ffffffcaa1244p-1},
            {63L, 1L, 0.99, 0x1.bb12915247528p-1}, {62L, 1L, 0.99, 0x1.bccd64a0d77aep-1},
            {79L, 2L, 0.99, 0x1.e76d0f0c381fdp-1}, {1000L, 100L, 0.99, 0x1.000000000050ap0},
            {12471L, 100L, 0.99, 0x1.479deb3dbc32ep-7}, {12470L, 100L, 0.99, 0x1.485f63af3408bp-7},
            {459L, 0L, 0.99, 0x1.451729de73d12p-7},
        };
        for (final Object[] c : cases)
        {
            assertEquals((double)c[3], EarlyStopping.odds((long)c[0], (long)c[1], (double)c[2], D),
                "odds(" + c[0] + ", " + c[1] + ", " + c[2] + ")");
        }
        assertTrue(Double.isNaN(EarlyStopping.odds(5_000_000, 571_402, 0.99, D)), "LoadGen's series overflows here");
    }

    @Test
    void shouldFollowLoadGensBinarySearchBounds()
    {
        // [min_h, max_h) with no passing h returns max_h; with every h passing returns min_h.
        assertEquals(10, EarlyStopping.findMinPassing(5, 10, 1, 0.9, D, C));
        assertEquals(100, EarlyStopping.findMinPassing(100, 200, 1, 0.9, D, C));
        assertEquals(63, EarlyStopping.findMinPassing(53, 89, 1, 0.9, D, C));
        assertEquals(7, EarlyStopping.findMinPassing(7, 7, 1, 0.9, D, C), "empty range");
    }

    @Test
    void shouldSumTheHypergeometricSeriesUntilATermIsBelowTwoToTheMinus33()
    {
        assertEquals(1.0, EarlyStopping.hypergeometric2F1A1(0, 5, -9.0), "b = 0 terminates after the first term");
        // 2F1(1, -1; c; x) = 1 - x / c.
        assertEquals(1.0 + 0.5 / 3.0, EarlyStopping.hypergeometric2F1A1(-1, 3, -0.5));
        assertEquals(1.0 / (1.0 - 0.25), EarlyStopping.hypergeometric2F1A1(1, 1, 0.25), 1e-9);
    }

    @Test
    void shouldFailSingleStreamWithTooFewQueries()
    {
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.SINGLE_STREAM, 0.9, 63,
            sorted(63, 500), SortedLatencies.sortInPlace(new long[0]), 0, 7, 9);
        assertFalse(result.met());
        assertEquals(" * Only processed 63 queries.\n * Need to process at least 64 queries for early stopping.",
            result.recommendation());
        assertEquals(7, result.latencySsNs(), "estimates are left as they were");
        assertEquals(9, result.latencyMsNs());
    }

    @Test
    void shouldReportTheMissingNinetyNinthEstimateForShortSingleStreamRuns()
    {
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.SINGLE_STREAM, 0.9, 100,
            sorted(100, 700), SortedLatencies.sortInPlace(new long[0]), 0, 0, 0);
        assertTrue(result.met());
        assertEquals(" * Processed at least 64 queries (100).\n"
            + " * Would discard 2 highest latency queries.\n"
            + " * Early stopping 90.0th percentile estimate: 797\n"
            + " * Not enough queries processed for 99.0th percentile\n"
            + " early stopping estimate (would need to process at\n"
            + " least 662 total queries).", result.recommendation());
        assertEquals(797, result.latencySsNs());
        assertEquals(0, result.latencyMsNs());
    }

    @Test
    void shouldEstimateMultiStreamFromQueryLatencies()
    {
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.MULTI_STREAM, 0.99, 1000,
            sorted(8000, 1), sorted(1000, 10_000), 0, 0, 0);
        assertTrue(result.met());
        assertEquals(" * Processed at least 662 queries (1000).\n"
            + " * Would discard 1 highest latency queries.\n"
            + " * Early stopping 99.0th percentile estimate: 10998", result.recommendation());
        assertEquals(10_998, result.latencyMsNs());
    }

    @Test
    void shouldFailMultiStreamWithTooFewQueries()
    {
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.MULTI_STREAM, 0.99, 661,
            sorted(661 * 8, 1), sorted(661, 1), 0, 0, 0);
        assertFalse(result.met());
        assertEquals(" * Only processed 661 queries.\n * Need to process at least 662 queries for early stopping.",
            result.recommendation());
    }

    @Test
    void shouldPassServerWhenEnoughQueriesAreUnderLatency()
    {
        final long[] latencies = new long[12_571];
        Arrays.fill(latencies, 10);
        Arrays.fill(latencies, 0, 100, 2_000);
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.SERVER, 0.99, latencies.length,
            SortedLatencies.sortInPlace(latencies), SortedLatencies.sortInPlace(new long[0]), 1_000, 0, 0);
        assertTrue(result.met(), "100 over latency needs h = 12471, and 12471 + 100 = 12571 were issued");
        assertEquals(" * Run successful.", result.recommendation());
    }

    @Test
    void shouldTellServerHowManyMoreQueriesItNeeds()
    {
        final long[] latencies = new long[12_570];
        Arrays.fill(latencies, 10);
        Arrays.fill(latencies, 0, 100, 1_001);
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.SERVER, 0.99, latencies.length,
            SortedLatencies.sortInPlace(latencies), SortedLatencies.sortInPlace(new long[0]), 1_000, 0, 0);
        assertFalse(result.met());
        assertEquals(" * Run unsuccessful.\n * Processed 12570 queries.\n"
            + " * Would need to run at least 1 more queries,\n"
            + " with the run being successful if every additional\n query were under latency.",
            result.recommendation());
    }

    @Test
    void shouldCountOnlyLatenciesStrictlyAboveTheServerTarget()
    {
        final long[] latencies = {5, 1000, 1000, 1001, 7000};
        assertEquals(2, EarlyStopping.countAbove(SortedLatencies.sortInPlace(latencies), 1000));
        assertEquals(0, EarlyStopping.countAbove(SortedLatencies.sortInPlace(new long[0]), 1000));
    }

    @Test
    void shouldFailServerWithNoQueries()
    {
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.SERVER, 0.99, 0,
            SortedLatencies.sortInPlace(new long[0]), SortedLatencies.sortInPlace(new long[0]), 1_000, 0, 0);
        assertFalse(result.met());
        assertTrue(result.recommendation().contains("Would need to run at least 459 more queries"));
    }

    @Test
    void shouldAlwaysPassOffline()
    {
        final EarlyStopping.Result result = EarlyStopping.evaluate(TestScenario.OFFLINE, 0.99, 1,
            sorted(10, 5), SortedLatencies.sortInPlace(new long[0]), 0, 0, 0);
        assertTrue(result.met());
        assertEquals("", result.recommendation());
    }

    private static long discardCount(final MinPassingQueriesFinder finder, final long queries, final double p)
    {
        final long hMin = finder.find(1, p, D, C);
        if (queries < hMin + 1)
        {
            return -(hMin + 1);
        }
        for (long i = 2; i < queries + 1; i++)
        {
            if (queries < finder.find(i, p, D, C) + i)
            {
                return i - 1;
            }
        }
        return 1;
    }

    /** n latencies base, base + 1, ..., sorted. */
    private static SortedLatencies sorted(final int n, final long base)
    {
        final long[] values = new long[n];
        for (int i = 0; i < n; i++)
        {
            values[i] = base + i;
        }
        return SortedLatencies.sortInPlace(values);
    }
}
