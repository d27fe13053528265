package org.jloadgen.results;

import org.jloadgen.api.TestScenario;
import org.jloadgen.clib.CFormat;
import org.jloadgen.record.SortedLatencies;

/**
 * LoadGen's early stopping (spec §7.3; loadgen/results.cc, PerformanceSummary::EarlyStopping): the statistics
 * (operation for operation, so that results round as LoadGen's do), and the per-scenario procedure with LoadGen's exact
 * recommendation strings.
 * <p>
 * The statistic: with {@code t} queries over the latency bound out of {@code h + t}, the run passes at percentile
 * {@code p} when {@code odds(h, t) = I_p(h, t + 1) < 1 - c}, i.e. when fewer than 1% of runs with a true percentile
 * at the bound would look this good. Confidence {@code c = 0.99}, tolerance {@code d = 0}.
 */
public final class EarlyStopping
{
    /** LoadGen's confidence. */
    public static final double CONFIDENCE = 0.99;
    /** LoadGen's tolerance. */
    public static final double TOLERANCE = 0.0;
    /** Percentile of SingleStream's second estimate, hard-coded by LoadGen (used to infer MultiStream). */
    public static final double SINGLE_STREAM_SECOND_PERCENTILE = 0.99;

    private static final double SERIES_TOLERANCE = 1.0 / (1L << 33);

    private EarlyStopping()
    {
    }

    /**
     * @param x first argument.
     * @param y second argument.
     * @return {@code lgamma(x) + lgamma(y) - lgamma(x + y)}, as LoadGen's {@code lbeta}.
     */
    public static double lbeta(final long x, final long y)
    {
        return GlibcMath.lgamma(x) + GlibcMath.lgamma(y) - GlibcMath.lgamma(x + y);
    }

    /**
     * LoadGen's {@code hypergeometric_2F1_A1}: the series of 2F1(1, b; c; x), summed until a term is at most
     * 2^-33, with LoadGen's operation order {@code term *= ((b + i) * x) / (c + i)}.
     *
     * @param b second parameter (LoadGen passes {@code 1 - b} of the beta function, i.e. {@code -t}).
     * @param c third parameter.
     * @param x argument.
     * @return the truncated sum.
     */
    public static double hypergeometric2F1A1(final long b, final long c, final double x)
    {
        double term = 1.0;
        double result = 1.0;
        for (long i = 0; Math.abs(term) > SERIES_TOLERANCE; i++)
        {
            term *= (double)(b + i) * x / (double)(c + i);
            result += term;
        }
        return result;
    }

    /**
     * LoadGen's {@code beta_regularized(x, a, b)} = I_x(a, b).
     *
     * @param x point.
     * @param a first shape.
     * @param b second shape.
     * @return {@code exp(a ln x + (b-1) ln(1-x) - lbeta(a, b)) / a * 2F1(1, 1-b; 1+a; x/(x-1))}.
     */
    public static double betaRegularized(final double x, final long a, final long b)
    {
        final double exponent = exponent(GlibcMath.log(x), GlibcMath.log(1 - x), a, b);
        return GlibcMath.exp(exponent) / (double)a * hypergeometric2F1A1(1 - b, 1 + a, x / (x - 1));
    }

    /**
     * The exponent of {@link #betaRegularized}'s prefactor, operation for operation as LoadGen computes it. It sums
     * terms of size {@code n ln n}, so its rounding error is what limits LoadGen's accuracy for large runs; with it
     * exact, {@link OddsOracle} knows LoadGen's prefactor to a few ulps without summing the series.
     *
     * @param logX         {@code GlibcMath.log(x)}.
     * @param logOneMinusX {@code GlibcMath.log(1 - x)}.
     * @param a            first shape.
     * @param b            second shape.
     * @return {@code a ln x + (b-1) ln(1-x) - lbeta(a, b)}.
     */
    static double exponent(final double logX, final double logOneMinusX, final long a, final long b)
    {
        return (double)a * logX + (double)(b - 1) * logOneMinusX - lbeta(a, b);
    }

    /**
     * LoadGen's {@code odds}: the probability of at most {@code t} over-latency queries in {@code h + t}.
     *
     * @param h under-latency queries.
     * @param t over-latency queries.
     * @param p percentile.
     * @param d tolerance.
     * @return {@code betaRegularized(p - d, h, 1 + t)}.
     */
    public static double odds(final long h, final long t, final double p, final double d)
    {
        return betaRegularized(p - d, h, 1 + t);
    }

    /**
     * LoadGen's {@code find_min_passing}: lower-bound binary search for the first h in [minH, maxH) with
     * {@code odds(h) < 1 - c}, running LoadGen's computation for every probe.
     *
     * @param minH lowest candidate.
     * @param maxH one past the highest candidate (returned if none passes).
     * @param t    over-latency queries.
     * @param p    percentile.
     * @param d    tolerance.
     * @param c    confidence.
     * @return the first passing h, clamped to [minH, maxH].
     */
    public static long findMinPassing(final long minH, final long maxH, final long t, final double p,
        final double d, final double c)
    {
        long low = minH;
        long count = maxH - low;
        while (count > 0)
        {
            final long step = count / 2;
            final long h = low + step;
            if (odds(h, t, p, d) < 1 - c)
            {
                count = step;
            }
            else
            {
                low = h + 1;
                count -= step + 1;
            }
        }
        return low;
    }

    /**
     * The outcome of one early-stopping evaluation.
     *
     * @param met            {@code early_stopping_met}.
     * @param recommendation LoadGen's recommendation text (with newlines; the detail log replaces them).
     * @param latencySsNs    {@code early_stopping_latency_ss} after this evaluation.
     * @param latencyMsNs    {@code early_stopping_latency_ms} after this evaluation.
     */
    public record Result(boolean met, String recommendation, long latencySsNs, long latencyMsNs)
    {
    }

    /**
     * What SingleStream's and MultiStream's early stopping spend their time on: LoadGen's search for the number of
     * latencies to discard, a loop of one {@link MinPassingQueriesFinder} call per discarded query (8M calls, about
     * 0.9 s, after a VALID 10 s null-SUT SingleStream run). It depends on the percentile and the queries issued
     * only, not on the latencies, so the engine runs it on another thread while the latencies are collected and
     * sorted. Each percentile's finder sees the calls LoadGen's does, in LoadGen's order (the finder's caches are
     * per percentile), so the counts are LoadGen's.
     *
     * @param percentile        the target percentile.
     * @param queriesIssued     queries issued.
     * @param minQueries        {@code h_min}: the finder's answer for t = 1 at the percentile.
     * @param discardedPlusOne  LoadGen's {@code t} at the percentile (0 where it is not searched).
     * @param minQueries99      SingleStream: {@code h_min} at the 99th percentile, else 0.
     * @param discardedPlusOne99 SingleStream: {@code t} at the 99th percentile (0 where it is not searched).
     */
    public record Discards(double percentile, long queriesIssued, long minQueries, long discardedPlusOne,
        long minQueries99, long discardedPlusOne99)
    {
        boolean appliesTo(final double p, final long q)
        {
            return percentile == p && queriesIssued == q;
        }
    }

    /**
     * Computes the discard counts of {@link #evaluate} ahead of it.
     *
     * @param scenario      SingleStream or MultiStream (anything else: {@code null}, nothing to search).
     * @param percentile    the target percentile.
     * @param queriesIssued queries issued.
     * @return the counts, or {@code null}.
     */
    public static Discards discards(final TestScenario scenario, final double percentile, final long queriesIssued)
    {
        if (scenario != TestScenario.SINGLE_STREAM && scenario != TestScenario.MULTI_STREAM)
        {
            return null;
        }
        return new DiscardSearch(scenario, percentile).discards(queriesIssued);
    }

    /**
     * LoadGen's {@code PerformanceSummary::EarlyStopping} for one latency array. The two estimates are inputs as
     * well as outputs because LoadGen keeps them as fields that a second evaluation (token mode: TPOT, then TTFT)
     * only overwrites when it computes them.
     *
     * @param scenario          scenario.
     * @param percentile        target latency percentile (e.g. 0.9).
     * @param queriesIssued     queries issued.
     * @param latencies         sorted latencies: samples (or TPOT / TTFT in token mode).
     * @param queryLatencies    sorted per-query latencies (MultiStream), else empty.
     * @param targetLatencyNs   latency bound (Server).
     * @param previousLatencySs {@code early_stopping_latency_ss} before this call.
     * @param previousLatencyMs {@code early_stopping_latency_ms} before this call.
     * @return the outcome.
     */
    public static Result evaluate(
        final TestScenario scenario,
        final double percentile,
        final long queriesIssued,
        final SortedLatencies latencies,
        final SortedLatencies queryLatencies,
        final long targetLatencyNs,
        final long previousLatencySs,
        final long previousLatencyMs)
    {
        return evaluate(scenario, percentile, queriesIssued, latencies, queryLatencies, targetLatencyNs,
            previousLatencySs, previousLatencyMs, null);
    }

    /**
     * {@link #evaluate(TestScenario, double, long, SortedLatencies, SortedLatencies, long, long, long)} with the
     * discard counts computed ahead ({@link #discards}); counts for another percentile or query count are ignored.
     *
     * @param scenario          scenario.
     * @param percentile        target latency percentile.
     * @param queriesIssued     queries issued.
     * @param latencies         sorted latencies.
     * @param queryLatencies    sorted per-query latencies (MultiStream), else empty.
     * @param targetLatencyNs   latency bound (Server).
     * @param previousLatencySs {@code early_stopping_latency_ss} before this call.
     * @param previousLatencyMs {@code early_stopping_latency_ms} before this call.
     * @param discards          the counts, or {@code null}.
     * @return the outcome.
     */
    public static Result evaluate(
        final TestScenario scenario,
        final double percentile,
        final long queriesIssued,
        final SortedLatencies latencies,
        final SortedLatencies queryLatencies,
        final long targetLatencyNs,
        final long previousLatencySs,
        final long previousLatencyMs,
        final Discards discards)
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.create();
        final Discards known = discards != null && discards.appliesTo(percentile, queriesIssued) ? discards : null;
        return switch (scenario)
        {
            case SINGLE_STREAM -> singleStream(
                finder, percentile, queriesIssued, latencies, previousLatencySs, previousLatencyMs, known);
            case MULTI_STREAM -> multiStream(finder, percentile, queriesIssued, queryLatencies, previousLatencySs,
                previousLatencyMs, known);
            case SERVER -> server(finder, percentile, queriesIssued, latencies, targetLatencyNs,
                previousLatencySs, previousLatencyMs);
            case OFFLINE -> new Result(true, "", previousLatencySs, previousLatencyMs);
        };
    }

    private static Result singleStream(
        final MinPassingQueriesFinder finder,
        final double percentile,
        final long queriesIssued,
        final SortedLatencies latencies,
        final long previousLatencySs,
        final long previousLatencyMs,
        final Discards known)
    {
        final long hMin = known != null ? known.minQueries() : finder.find(1, percentile, TOLERANCE, CONFIDENCE);
        if (queriesIssued < hMin + 1)
        {
            return new Result(false, notEnoughQueries(queriesIssued, hMin), previousLatencySs, previousLatencyMs);
        }
        final long t = known != null ? known.discardedPlusOne()
            : DiscardSearch.discardedPlusOne(finder, percentile, 2, queriesIssued);
        final long estimate = at(latencies, queriesIssued - t);
        final StringBuilder reco = new StringBuilder(256)
            .append(" * Processed at least ").append(hMin + 1).append(" queries (").append(queriesIssued).append(").\n")
            .append(" * Would discard ").append(t - 1).append(" highest latency queries.\n")
            .append(" * Early stopping ").append(CFormat.fixed(percentile * 100, 1))
            .append("th percentile estimate: ").append(estimate);

        long latencyMs = previousLatencyMs;
        final long hMin99 = known != null ? known.minQueries99()
            : finder.find(1, SINGLE_STREAM_SECOND_PERCENTILE, TOLERANCE, CONFIDENCE);
        if (queriesIssued < hMin99 + 1)
        {
            reco.append("\n * Not enough queries processed for ")
                .append(CFormat.fixed(SINGLE_STREAM_SECOND_PERCENTILE * 100, 1)).append("th percentile\n")
                .append(" early stopping estimate (would need to process at\n least ")
                .append(hMin99 + 1).append(" total queries).");
        }
        else
        {
            final long t99 = known != null ? known.discardedPlusOne99()
                : DiscardSearch.discardedPlusOne(finder, SINGLE_STREAM_SECOND_PERCENTILE, 2, queriesIssued);
            latencyMs = at(latencies, queriesIssued - t99);
            reco.append("\n * Early stopping ").append(CFormat.fixed(SINGLE_STREAM_SECOND_PERCENTILE * 100, 1))
                .append("th percentile estimate: ").append(latencyMs);
        }
        return new Result(true, reco.toString(), estimate, latencyMs);
    }

    private static Result multiStream(
        final MinPassingQueriesFinder finder,
        final double percentile,
        final long queriesIssued,
        final SortedLatencies queryLatencies,
        final long previousLatencySs,
        final long previousLatencyMs,
        final Discards known)
    {
        final long hMin = known != null ? known.minQueries() : finder.find(1, percentile, TOLERANCE, CONFIDENCE);
        if (queriesIssued < hMin + 1)
        {
            return new Result(false, notEnoughQueries(queriesIssued, hMin), previousLatencySs, previousLatencyMs);
        }
        final long t = known != null ? known.discardedPlusOne()
            : DiscardSearch.discardedPlusOne(finder, percentile, 2, queriesIssued);
        final long estimate = at(queryLatencies, queriesIssued - t);
        final String reco = " * Processed at least " + (hMin + 1) + " queries (" + queriesIssued + ").\n"
            + " * Would discard " + (t - 1) + " highest latency queries.\n"
            + " * Early stopping " + CFormat.fixed(percentile * 100, 1) + "th percentile estimate: " + estimate;
        return new Result(true, reco, previousLatencySs, estimate);
    }

    private static Result server(
        final MinPassingQueriesFinder finder,
        final double percentile,
        final long queriesIssued,
        final SortedLatencies latencies,
        final long targetLatencyNs,
        final long previousLatencySs,
        final long previousLatencyMs)
    {
        final long t = countAbove(latencies, targetLatencyNs);
        final long h = finder.find(t, percentile, TOLERANCE, CONFIDENCE);
        if (queriesIssued >= h + t)
        {
            return new Result(true, " * Run successful.", previousLatencySs, previousLatencyMs);
        }
        final String reco = " * Run unsuccessful.\n * Processed " + queriesIssued + " queries.\n"
            + " * Would need to run at least " + (h + t - queriesIssued) + " more queries,\n"
            + " with the run being successful if every additional\n query were under latency.";
        return new Result(false, reco, previousLatencySs, previousLatencyMs);
    }

    private static String notEnoughQueries(final long queriesIssued, final long hMin)
    {
        return " * Only processed " + queriesIssued + " queries.\n * Need to process at least " + (hMin + 1)
            + " queries for early stopping.";
    }

    /** Number of latencies strictly above the bound (LoadGen's count_if latency > target). */
    static long countAbove(final SortedLatencies latencies, final long boundNs)
    {
        long low = 0;
        long high = latencies.count();
        while (low < high)
        {
            final long mid = (low + high) >>> 1;
            if (latencies.get(mid) > boundNs)
            {
                high = mid;
            }
            else
            {
                low = mid + 1;
            }
        }
        return latencies.count() - low;
    }

    /**
     * LoadGen indexes {@code (*latencies)[queries_issued - t]} without a bounds check; an index past the array
     * (more queries issued than latencies recorded) reads out of bounds there and is clamped here.
     */
    private static long at(final SortedLatencies latencies, final long index)
    {
        final long count = latencies.count();
        if (count == 0)
        {
            return 0;
        }
        return latencies.get(Math.max(0, Math.min(index, count - 1)));
    }
}
