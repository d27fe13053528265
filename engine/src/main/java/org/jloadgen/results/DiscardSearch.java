package org.jloadgen.results;

import org.jloadgen.api.TestScenario;

/**
 * SingleStream's and MultiStream's early-stopping search for the number of latencies to discard
 * ({@link EarlyStopping#discards}), taken in steps while the series runs. LoadGen's loop, for {@code Q} queries
 * issued, calls the finder for {@code i = 2, 3, ...} and stops at the first {@code i} with
 * {@code Q < F(i) + i}. {@code F(i)} does not depend on {@code Q}, so every {@code i} with {@code F(i) + i <= q} is
 * passed over by the loop of any run that issues at least {@code q} queries: {@link #advance} walks those while the
 * run is still issuing, and {@link #discards} walks the rest once {@code Q} is known. The finder sees LoadGen's
 * calls in LoadGen's order for each percentile (its caches are per percentile, and each is filled for
 * {@code i = 1, 2, 3, ...} without a gap), so the counts are LoadGen's.
 * <p>
 * After a VALID 10 s null-SUT SingleStream run the loop takes about a second (8M finder calls for 77M queries),
 * longer than collecting the latencies; in steps beside the run it is nearly done when the run ends. The finder keeps
 * a window of its last results ({@link MinPassingQueriesFinder#forIncreasingCalls}), so {@link #advance} allocates
 * nothing: its thread runs beside a measured series, where an allocation could start a collection that stops every
 * thread (the finder's growing caches did: G1 pauses of 1-3 ms inside the run, {@code -Xlog:gc}). Not thread-safe:
 * one thread at a time, with a happens-before edge between threads (a thread start or join).
 */
public final class DiscardSearch
{
    private final TestScenario scenario;
    private final double percentile;
    private final MinPassingQueriesFinder finder = MinPassingQueriesFinder.forIncreasingCalls();
    /** SingleStream at the 99th percentile: its second loop is its first again (LoadGen's cache answers it). */
    private final boolean secondIsFirst;
    private final long minQueries;
    private final long minQueries99;
    /** The next {@code i} of each percentile's loop. */
    private long next = 2;
    private long next99 = 2;
    /** The largest query count {@link #advance} was given. */
    private long advancedTo;

    /**
     * @param scenario   SingleStream or MultiStream.
     * @param percentile the target latency percentile.
     */
    public DiscardSearch(final TestScenario scenario, final double percentile)
    {
        if (scenario != TestScenario.SINGLE_STREAM && scenario != TestScenario.MULTI_STREAM)
        {
            throw new IllegalArgumentException("no discard search in " + scenario);
        }
        this.scenario = scenario;
        this.percentile = percentile;
        this.secondIsFirst = scenario == TestScenario.SINGLE_STREAM
            && percentile == EarlyStopping.SINGLE_STREAM_SECOND_PERCENTILE;
        this.minQueries = finder.find(1, percentile, EarlyStopping.TOLERANCE, EarlyStopping.CONFIDENCE);
        this.minQueries99 = scenario == TestScenario.SINGLE_STREAM
            ? finder.find(1, EarlyStopping.SINGLE_STREAM_SECOND_PERCENTILE, EarlyStopping.TOLERANCE,
                EarlyStopping.CONFIDENCE)
            : 0;
    }

    /**
     * Walks the loops as far as any run that issues at least {@code queries} queries walks them.
     *
     * @param queries queries issued so far.
     */
    public void advance(final long queries)
    {
        if (queries <= advancedTo)
        {
            return;
        }
        advancedTo = queries;
        if (queries >= minQueries + 1)
        {
            next = walk(percentile, next, queries);
        }
        if (scenario == TestScenario.SINGLE_STREAM && !secondIsFirst && queries >= minQueries99 + 1)
        {
            next99 = walk(EarlyStopping.SINGLE_STREAM_SECOND_PERCENTILE, next99, queries);
        }
    }

    /**
     * @param queriesIssued queries the series issued.
     * @return the counts for that many queries; computed afresh if {@link #advance} went past it.
     */
    public EarlyStopping.Discards discards(final long queriesIssued)
    {
        if (queriesIssued < advancedTo)
        {
            return new DiscardSearch(scenario, percentile).discards(queriesIssued);
        }
        final long t = queriesIssued < minQueries + 1 ? 0 : discardedPlusOne(finder, percentile, next, queriesIssued);
        if (scenario == TestScenario.MULTI_STREAM)
        {
            return new EarlyStopping.Discards(percentile, queriesIssued, minQueries, t, 0, 0);
        }
        final long t99 = queriesIssued < minQueries99 + 1 ? 0
            : secondIsFirst ? t : discardedPlusOne(finder, EarlyStopping.SINGLE_STREAM_SECOND_PERCENTILE, next99,
                queriesIssued);
        return new EarlyStopping.Discards(percentile, queriesIssued, minQueries, t, minQueries99, t99);
    }

    /**
     * @return the next {@code i} at which the loop for {@code queries} would stop or has not yet looked.
     */
    private long walk(final double p, final long from, final long queries)
    {
        long i = from;
        while (i < queries + 1)
        {
            final long h = finder.find(i, p, EarlyStopping.TOLERANCE, EarlyStopping.CONFIDENCE);
            if (queries < h + i)
            {
                break;
            }
            i++;
        }
        return i;
    }

    /**
     * LoadGen's loop from {@code from} on: {@code t = i - 1} for the first {@code i} with {@code Q < F(i) + i}, else 1.
     * From 2 it is the whole loop ({@link EarlyStopping}'s estimates run it so).
     */
    static long discardedPlusOne(final MinPassingQueriesFinder finder, final double p, final long from,
        final long queriesIssued)
    {
        for (long i = from; i < queriesIssued + 1; i++)
        {
            final long h = finder.find(i, p, EarlyStopping.TOLERANCE, EarlyStopping.CONFIDENCE);
            if (queriesIssued < h + i)
            {
                return i - 1;
            }
        }
        return 1;
    }
}
