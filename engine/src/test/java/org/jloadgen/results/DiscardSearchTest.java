package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jloadgen.api.TestScenario;
import org.junit.jupiter.api.Test;

/**
 * The discard search taken in steps while a series runs ({@link DiscardSearch#advance}) ends where LoadGen's loop,
 * run once for the final query count, ends: for every percentile (the 99th shares its finder's cache with
 * SingleStream's second estimate), for steps that stop short of, at, and past what the final count needs, and for
 * a final count below the last step (searched afresh).
 */
class DiscardSearchTest
{
    private static final TestScenario[] SCENARIOS = {TestScenario.SINGLE_STREAM, TestScenario.MULTI_STREAM};

    @Test
    void shouldEqualTheLoopForTheFinalCountWhateverTheSteps()
    {
        for (final TestScenario scenario : SCENARIOS)
        {
            for (final double percentile : new double[] {0.9, 0.99, 0.999})
            {
                for (final long finalQueries : new long[] {10, 64, 661, 662, 700, 5_000, 123_457, 400_001})
                {
                    final EarlyStopping.Discards expected = loop(scenario, percentile, finalQueries);
                    final String what = scenario + " " + percentile + " " + finalQueries;

                    final DiscardSearch fine = new DiscardSearch(scenario, percentile);
                    for (long q = 1; q <= finalQueries; q += 1 + q / 7)
                    {
                        fine.advance(q);
                    }
                    assertEquals(expected, fine.discards(finalQueries), what + " fine steps");

                    final DiscardSearch exact = new DiscardSearch(scenario, percentile);
                    exact.advance(finalQueries / 2);
                    exact.advance(finalQueries);
                    exact.advance(finalQueries);
                    assertEquals(expected, exact.discards(finalQueries), what + " up to the count");

                    final DiscardSearch past = new DiscardSearch(scenario, percentile);
                    past.advance(finalQueries + 1_000);
                    assertEquals(expected, past.discards(finalQueries), what + " past the count");

                    assertEquals(expected, new DiscardSearch(scenario, percentile).discards(finalQueries),
                        what + " no step");
                }
            }
        }
    }

    @Test
    void shouldAllocateNothingInItsStepsOnceWarm()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        for (final double percentile : new double[] {0.9, 0.99})
        {
            final DiscardSearch search = new DiscardSearch(TestScenario.SINGLE_STREAM, percentile);
            // Warm: the code compiled and each percentile's window filled once over.
            for (long q = 1_000; q <= 200_000; q += 1_000)
            {
                search.advance(q);
            }
            threads.getCurrentThreadAllocatedBytes();
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (long q = 201_000; q <= 2_000_000; q += 1_000)
            {
                search.advance(q);
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, allocated, "bytes allocated by 1,800 steps at " + percentile);
            assertEquals(loop(TestScenario.SINGLE_STREAM, percentile, 2_000_000), search.discards(2_000_000));
        }
    }

    @Test
    void shouldAnswerAsLoadGensFinderThroughItsWindowAndRefuseCallsBelowIt()
    {
        final MinPassingQueriesFinder windowed = MinPassingQueriesFinder.forIncreasingCalls();
        final MinPassingQueriesFinder full = MinPassingQueriesFinder.create();
        for (long t = 1; t <= 1_000; t++)
        {
            assertEquals(full.find(t, 0.9, 0.0, 0.99), windowed.find(t, 0.9, 0.0, 0.99), "t " + t);
            assertEquals(full.find(t, 0.9, 0.0, 0.99), windowed.find(t, 0.9, 0.0, 0.99), "t " + t + " again");
        }
        assertEquals(full.find(999, 0.9, 0.0, 0.99), windowed.find(999, 0.9, 0.0, 0.99));
        assertThrows(IllegalStateException.class, () -> windowed.find(10, 0.9, 0.0, 0.99));
        assertThrows(IllegalStateException.class, () -> windowed.find(1_002, 0.9, 0.0, 0.99));
    }

    @Test
    void shouldRefuseScenariosWithoutTheSearch()
    {
        assertThrows(IllegalArgumentException.class, () -> new DiscardSearch(TestScenario.SERVER, 0.99));
        assertThrows(IllegalArgumentException.class, () -> new DiscardSearch(TestScenario.OFFLINE, 0.9));
    }

    /** LoadGen's loop as written in early_stopping's caller, one finder, h_min first. */
    private static EarlyStopping.Discards loop(final TestScenario scenario, final double p, final long queries)
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        final long hMin = finder.find(1, p, 0.0, 0.99);
        final long t = queries < hMin + 1 ? 0 : loopFor(finder, p, queries);
        if (scenario == TestScenario.MULTI_STREAM)
        {
            return new EarlyStopping.Discards(p, queries, hMin, t, 0, 0);
        }
        final long hMin99 = finder.find(1, 0.99, 0.0, 0.99);
        final long t99 = queries < hMin99 + 1 ? 0 : loopFor(finder, 0.99, queries);
        return new EarlyStopping.Discards(p, queries, hMin, t, hMin99, t99);
    }

    private static long loopFor(final MinPassingQueriesFinder finder, final double p, final long queries)
    {
        for (long i = 2; i < queries + 1; i++)
        {
            if (queries < finder.find(i, p, 0.0, 0.99) + i)
            {
                return i - 1;
            }
        }
        return 1;
    }
}
