package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.jloadgen.api.TestScenario;
import org.jloadgen.record.SortedLatencies;
import org.junit.jupiter.api.Test;

/**
 * Early stopping with its discard counts searched ahead, on another thread ({@link EarlyStopping#discards}), gives
 * what the search in line gives: the counts depend on the percentile and the queries issued only.
 */
class EarlyStoppingDiscardsTest
{
    @Test
    void shouldEqualTheSearchInLineForSingleStreamAndMultiStream()
    {
        // Below h_min + 1 (no search), around LoadGen's 99th-percentile minimum (662 queries), and well past both.
        for (final long queries : new long[] {10, 64, 600, 662, 700, 5_000, 123_457, 1_000_003})
        {
            final long[] latencies = new long[(int)queries];
            for (int i = 0; i < latencies.length; i++)
            {
                latencies[i] = 1_000 + (i * 7919L) % 50_000;
            }
            final SortedLatencies sorted = SortedLatencies.sortInPlace(latencies);
            for (final TestScenario scenario : new TestScenario[] {TestScenario.SINGLE_STREAM,
                TestScenario.MULTI_STREAM})
            {
                for (final double percentile : new double[] {0.9, 0.99})
                {
                    final EarlyStopping.Result inLine = EarlyStopping.evaluate(scenario, percentile, queries,
                        sorted, sorted, 0, 0, 0);
                    final EarlyStopping.Discards discards = EarlyStopping.discards(scenario, percentile, queries);
                    final EarlyStopping.Result ahead = EarlyStopping.evaluate(scenario, percentile, queries, sorted,
                        sorted, 0, 0, 0, discards);
                    assertEquals(inLine, ahead, scenario + " " + percentile + " " + queries);
                    // Counts for another query count are not used.
                    final EarlyStopping.Result other = EarlyStopping.evaluate(scenario, percentile, queries, sorted,
                        sorted, 0, 0, 0, EarlyStopping.discards(scenario, percentile, queries + 1_000));
                    assertEquals(inLine, other, scenario + " " + percentile + " " + queries);
                }
            }
        }
        // The counts handed in are the ones used: one more discarded query moves the estimate's rank.
        final long queries = 5_000;
        final long[] latencies = new long[(int)queries];
        for (int i = 0; i < latencies.length; i++)
        {
            latencies[i] = i;
        }
        final SortedLatencies sorted = SortedLatencies.sortInPlace(latencies);
        final EarlyStopping.Discards d = EarlyStopping.discards(TestScenario.SINGLE_STREAM, 0.9, queries);
        final EarlyStopping.Discards shifted = new EarlyStopping.Discards(d.percentile(), d.queriesIssued(),
            d.minQueries(), d.discardedPlusOne() + 1, d.minQueries99(), d.discardedPlusOne99());
        assertEquals(EarlyStopping.evaluate(TestScenario.SINGLE_STREAM, 0.9, queries, sorted, sorted, 0, 0, 0, d)
            .latencySsNs() - 1, EarlyStopping.evaluate(TestScenario.SINGLE_STREAM, 0.9, queries, sorted, sorted, 0, 0,
            0, shifted).latencySsNs());
        assertNull(EarlyStopping.discards(TestScenario.SERVER, 0.99, 1_000));
        assertNull(EarlyStopping.discards(TestScenario.OFFLINE, 0.9, 1_000));
    }
}
