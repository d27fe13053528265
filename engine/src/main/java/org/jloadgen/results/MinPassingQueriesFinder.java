package org.jloadgen.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * LoadGen's {@code MinPassingQueriesFinder} (spec §7.3; loadgen/early_stopping.cc,
 * MinPassingQueriesFinder::operator()): the smallest number of under-latency queries {@code h} such that {@code odds(h,
 * t, p, d) < 1 - c}, found by a lower-bound binary search whose bounds come from the two cached results just below
 * {@code t}. The bounds are reproduced exactly, quirks included: the "max slope" is the
 * <em>product</em> {@code (y1 - y0) * (x1 - x0)}, and the answer is clamped to {@code [min_h, max_h]}. Since those
 * bounds depend on earlier answers, one instance must see the same sequence of calls as LoadGen's (a fresh
 * finder per early-stopping evaluation).
 * <p>
 * Each odds comparison goes to an {@link OddsOracle}, which returns LoadGen's comparison result without summing
 * LoadGen's series unless the value is close to the threshold; {@link #exact()} builds a finder that always runs
 * LoadGen's computation (for tests and cross-checks). Not thread-safe.
 */
public final class MinPassingQueriesFinder
{
    /** Entries a windowed cache holds before it drops all but the last two. */
    private static final int WINDOW_ENTRIES = 64;

    private final boolean exactOnly;
    private final boolean windowed;
    private final List<Cache> caches = new ArrayList<>(2);

    private MinPassingQueriesFinder(final boolean exactOnly, final boolean windowed)
    {
        this.exactOnly = exactOnly;
        this.windowed = windowed;
    }

    /**
     * @return a finder that decides comparisons with the fast oracle.
     */
    public static MinPassingQueriesFinder create()
    {
        return new MinPassingQueriesFinder(false, false);
    }

    /**
     * A finder for callers whose {@code t} per key goes 1, 2, 3, ... (each new {@code t} one more than the last,
     * a repeat of either of the last two allowed): LoadGen's bounds for a new {@code t} come from the two results
     * just below it, so keeping only the last ones gives LoadGen's answers, in memory that never grows. A call
     * below that window throws. Allocates nothing after the first call per key (DiscardSearch runs on a thread
     * beside a measured series, where an allocation could start a collection that stops every thread).
     *
     * @return a finder that decides comparisons with the fast oracle and keeps a window of results per key.
     */
    public static MinPassingQueriesFinder forIncreasingCalls()
    {
        return new MinPassingQueriesFinder(false, true);
    }

    /**
     * @return a finder that runs LoadGen's odds computation for every comparison (slow for large t).
     */
    public static MinPassingQueriesFinder exact()
    {
        return new MinPassingQueriesFinder(true, false);
    }

    /**
     * LoadGen's {@code operator()(t, p, d, c)}.
     *
     * @param t number of over-latency queries.
     * @param p percentile (e.g. 0.9).
     * @param d tolerance (0.0).
     * @param c confidence (0.99).
     * @return the minimum passing number of under-latency queries.
     */
    public long find(final long t, final double p, final double d, final double c)
    {
        final Cache cache = cacheFor(p, d, c);
        final int at = cache.lowerBound(t);
        if (at < cache.size && cache.keys[at] == t)
        {
            return cache.values[at];
        }
        if (cache.windowed && (at != cache.size || cache.size > 0 && t != cache.keys[cache.size - 1] + 1))
        {
            throw new IllegalStateException("a finder for increasing calls was asked for t = " + t + " after t = "
                + (cache.size == 0 ? "none" : String.valueOf(cache.keys[cache.size - 1])));
        }

        long x0 = -1;
        long y0 = 0;
        long x1 = 0;
        long y1 = cache.initialY1;
        if (at > 0)
        {
            x1 = cache.keys[at - 1];
            y1 = cache.values[at - 1];
            if (at > 1)
            {
                x0 = cache.keys[at - 2];
                y0 = cache.values[at - 2];
            }
        }

        final double minSlope = (p - d) / (1 - p + d);
        // A product where a ratio was meant [LG quirk]; it only widens the search range.
        final double maxSlope = (double)((y1 - y0) * (x1 - x0));
        final long minH = (long)((double)(t - x1) * minSlope + (double)y1);
        final long maxH = (long)((double)(t - x1) * maxSlope + (double)y1 + 1.0);
        final long h = findMinPassing(minH, maxH, t, c, cache);
        cache.insert(at, t, h);
        return h;
    }

    /**
     * @param p percentile.
     * @param d tolerance.
     * @param c confidence.
     * @return odds comparisons so far that ran LoadGen's full computation, for this key.
     */
    long exactEvaluations(final double p, final double d, final double c)
    {
        final Cache cache = cacheFor(p, d, c);
        return cache.oracle == null ? 0 : cache.oracle.exactEvaluations();
    }

    /**
     * @param p percentile.
     * @param d tolerance.
     * @param c confidence.
     * @return odds comparisons so far decided from LoadGen's exact exponent (the oracle's refined stage).
     */
    long refinedDecisions(final double p, final double d, final double c)
    {
        final Cache cache = cacheFor(p, d, c);
        return cache.oracle == null ? 0 : cache.oracle.refinedDecisions();
    }

    private long findMinPassing(final long minHStart, final long maxH, final long t, final double c,
        final Cache cache)
    {
        long minH = minHStart;
        long count = maxH - minH;
        while (count > 0)
        {
            final long step = count / 2;
            final long h = minH + step;
            final boolean passes = cache.oracle != null
                ? cache.oracle.passes(h, t)
                : EarlyStopping.odds(h, t, cache.p, cache.d) < 1 - c;
            if (passes)
            {
                count = step;
            }
            else
            {
                minH = h + 1;
                count -= step + 1;
            }
        }
        return minH;
    }

    private Cache cacheFor(final double p, final double d, final double c)
    {
        // Indexed: an iterator would be allocated on every call where the JIT does not elide it.
        for (int i = 0; i < caches.size(); i++)
        {
            final Cache cache = caches.get(i);
            // std::tuple<double,double,double> compares with ==.
            if (cache.p == p && cache.d == d && cache.c == c)
            {
                return cache;
            }
        }
        final Cache cache = new Cache(p, d, c, exactOnly ? null : new OddsOracle(p, d, c), windowed);
        caches.add(cache);
        return cache;
    }

    /**
     * LoadGen's {@code std::map<int64_t, int64_t>} as two sorted arrays: the calls come in increasing t, so an
     * insert is almost always an append, with no boxing.
     */
    private static final class Cache
    {
        private final double p;
        private final double d;
        private final double c;
        private final OddsOracle oracle;
        /** {@code ceil(log(1 - c) / log(p - d))}: LoadGen recomputes it on every call; it is a constant. */
        private final long initialY1;
        private final boolean windowed;
        private long[] keys = new long[WINDOW_ENTRIES];
        private long[] values = new long[WINDOW_ENTRIES];
        private int size;

        private Cache(final double p, final double d, final double c, final OddsOracle oracle,
            final boolean windowed)
        {
            this.p = p;
            this.d = d;
            this.c = c;
            this.oracle = oracle;
            this.windowed = windowed;
            this.initialY1 = (long)Math.ceil(GlibcMath.log(1 - c) / GlibcMath.log(p - d));
        }

        /** Index of the first key >= t (std::map::lower_bound). */
        private int lowerBound(final long t)
        {
            if (size == 0 || keys[size - 1] < t)
            {
                return size;
            }
            final int found = Arrays.binarySearch(keys, 0, size, t);
            return found >= 0 ? found : -found - 1;
        }

        private void insert(final int atKey, final long key, final long value)
        {
            int at = atKey;
            if (windowed && size == keys.length)
            {
                // Only appends come here (find checks): the next bounds need the last two results.
                keys[0] = keys[size - 2];
                values[0] = values[size - 2];
                keys[1] = keys[size - 1];
                values[1] = values[size - 1];
                size = 2;
                at = 2;
            }
            if (size == keys.length)
            {
                keys = Arrays.copyOf(keys, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            System.arraycopy(keys, at, keys, at + 1, size - at);
            System.arraycopy(values, at, values, at + 1, size - at);
            keys[at] = key;
            values[at] = value;
            size++;
        }
    }
}
