package org.jloadgen.results;

/**
 * Answers LoadGen's early-stopping question {@code odds(h, t, p, d) < 1 - c} (spec §7.3; loadgen/early_stopping.cc,
 * odds) with the answer LoadGen's own floating-point computation gives, without paying for its series on every call.
 * <p>
 * LoadGen sums a hypergeometric series of about {@code sqrt(40 t)} terms per evaluation and evaluates once or twice
 * per {@code t}; a SingleStream run of 71M queries costs it 8e6 evaluations and 1e11 terms (minutes of CPU:
 * benchmarks/README.md, "Measurements behind the code"). Here the
 * odds, which is the regularized incomplete beta {@code I_x(h, t + 1)}, is carried from one evaluation to the next
 * by its exact recurrences in {@code h} and {@code t} (one multiply and one add per unit step), restarted from an
 * accurate direct evaluation when the walk gets long, with a running bound on its rounding error. A comparison is
 * decided in up to three stages:
 * <ol>
 * <li><b>Coarse</b>: from the walked value, when it is clear of the threshold by more than the error bound of
 * both this value and LoadGen's computation (series truncation at 2^-33, lgamma rounding, summation). LoadGen's
 * exponent sums terms of size {@code n ln n} and is only good to about 1e-6 relative for n in the tens of
 * millions, so near the threshold this leaves a band in which a few percent of a large run's comparisons fall.</li>
 * <li><b>Refined</b>: LoadGen's value is {@code fl(P * S)}, with {@code P = exp(exponent) / a} its prefactor and
 * {@code S} its float series. The exponent costs three lgammas, so it is computed here operation for operation as
 * LoadGen does ({@link EarlyStopping#exponent}), rounding error and all, and {@code P} from it to a few ulps; the
 * true series is {@code I a (1 - x) / K} from the walk's {@code I} and {@code K = x^a (1-x)^b / B(a, b)}. What
 * remains uncertain is the walk's own error (at most 1e-9, usually 1e-11) and LoadGen's series' rounding and
 * truncation (at most {@code 5 u} per term, about {@code sqrt(48 t)} terms, and {@code 2^-33 r0 / ((1 - r0) S)}
 * relative): about 1e-10 in all, where the coarse band is 1e-5 for 71M queries.</li>
 * <li><b>Exact</b>: otherwise LoadGen's computation is run operation for operation ({@link EarlyStopping#odds}).
 * </li>
 * </ol>
 * The fast stages are limited to the regime where those bounds hold (0.5 &lt;= p - d &lt; 1, t &gt;= 32,
 * convergent series); everything else is computed exactly. A SingleStream evaluation of 71M queries (8e6
 * comparisons) leaves about 800k to the refined stage and 500 to the exact one.
 * <p>
 * Not thread-safe; one instance per (p, d, c), as LoadGen keeps one cache per key.
 */
final class OddsOracle
{
    private static final double UNIT_ROUNDOFF = 0x1p-53;
    /** LoadGen's {@code kTolerance} in {@code hypergeometric_2F1_A1}. */
    private static final double SERIES_TOLERANCE = 0x1p-33;
    /** Fast path only from this t: below it the exact series is short anyway. */
    private static final long MIN_FAST_T = 32;
    /** Longest walk (unit steps) before restarting from a direct evaluation. */
    private static final long MAX_WALK_STEPS = 512;
    /**
     * Unit steps walked from one anchor before the next: each adds at most about 5 u to the bounds of K and I
     * (2^19 steps: 3e-10, against 1e-9 allowed), and an anchor at t = 7M costs as much as 20k steps.
     */
    private static final long MAX_STEPS_PER_ANCHOR = 1L << 19;
    /** Relative error bound of the walked value above which it is recomputed. */
    private static final double MAX_WALK_RELATIVE_ERROR = 1e-9;
    /** Extra factor on every error bound before a comparison is trusted. */
    private static final double DECISION_SAFETY = 4.0;
    /** Largest h + t for which every integer involved converts to double exactly. */
    private static final long MAX_EXACT = 1L << 52;
    private static final double HALF_LN_TWO_PI = 0.9189385332046728;
    private static final int PASS = 1;
    private static final int FAIL = 0;
    private static final int UNDECIDED = -1;

    private final double p;
    private final double d;
    private final double threshold;
    private final double x;
    private final double oneMinusX;
    private final double ratioX;
    private final double logX;
    private final double logOneMinusX;
    private final double absLogX;
    private final double absLogOneMinusX;
    private final boolean fastPathEligible;

    private boolean walkValid;
    private long a;
    private long b;
    private double k;
    private double kRelativeError;
    private double odds;
    private double oddsAbsoluteError;
    private long stepsSinceAnchor;

    private long exactEvaluations;
    private long fastDecisions;
    private long refinedDecisions;
    private long anchors;

    /**
     * @param p percentile.
     * @param d tolerance.
     * @param c confidence.
     */
    OddsOracle(final double p, final double d, final double c)
    {
        this.p = p;
        this.d = d;
        this.threshold = 1 - c;
        this.x = p - d;
        this.oneMinusX = 1 - x;
        this.ratioX = x / oneMinusX;
        // The same values LoadGen's betaRegularized takes the logarithm of: x and 1 - x.
        this.logX = GlibcMath.log(x);
        this.logOneMinusX = GlibcMath.log(1 - x);
        this.absLogX = Math.abs(logX);
        this.absLogOneMinusX = Math.abs(logOneMinusX);
        this.fastPathEligible = x >= 0.5 && x < 1.0 && threshold > 0.0 && threshold < 1.0
            && Double.isFinite(ratioX);
    }

    /**
     * @param h queries under the latency bound.
     * @param t queries over it.
     * @return whether LoadGen's {@code odds(h, t, p, d) < 1 - c}.
     */
    boolean passes(final long h, final long t)
    {
        if (fastPathEligible && inFastRegime(h, t) && moveTo(h, t + 1) && odds > 0.0)
        {
            final double walkError = oddsAbsoluteError / odds;
            final int coarse = decide(odds, DECISION_SAFETY * (walkError + loadGenRelativeError(h, t)));
            if (coarse != UNDECIDED)
            {
                fastDecisions++;
                return coarse == PASS;
            }
            final double value = refinedValue(h, t);
            if (!Double.isNaN(value))
            {
                final int refined = decide(value, DECISION_SAFETY * refinedRelativeError(h, t, walkError));
                if (refined != UNDECIDED)
                {
                    refinedDecisions++;
                    return refined == PASS;
                }
            }
        }
        exactEvaluations++;
        return EarlyStopping.odds(h, t, p, d) < threshold;
    }

    /**
     * The values both fast stages decide from, for tests that hold them against LoadGen's computation.
     *
     * @param walked        the walked {@code I_x(h, t + 1)}.
     * @param coarseError   bound on |LoadGen's odds / walked - 1| (before the safety factor).
     * @param refined       the refined stage's estimate of LoadGen's odds (NaN where it does not apply).
     * @param refinedError  bound on |LoadGen's odds / refined - 1| (before the safety factor).
     */
    record Estimate(double walked, double coarseError, double refined, double refinedError)
    {
    }

    /**
     * @param h queries under the latency bound.
     * @param t queries over it.
     * @return the fast stages' values for (h, t), or null outside the fast regime.
     */
    Estimate estimate(final long h, final long t)
    {
        if (!fastPathEligible || !inFastRegime(h, t) || !moveTo(h, t + 1) || !(odds > 0.0))
        {
            return null;
        }
        final double walkError = oddsAbsoluteError / odds;
        final double value = refinedValue(h, t);
        return new Estimate(odds, walkError + loadGenRelativeError(h, t), value,
            Double.isNaN(value) ? Double.NaN : refinedRelativeError(h, t, walkError));
    }

    /**
     * @return comparisons answered by running LoadGen's computation.
     */
    long exactEvaluations()
    {
        return exactEvaluations;
    }

    /**
     * @return comparisons answered from the walked value.
     */
    long fastDecisions()
    {
        return fastDecisions;
    }

    /**
     * @return comparisons answered from LoadGen's exact exponent and the walked series value.
     */
    long refinedDecisions()
    {
        return refinedDecisions;
    }

    /**
     * @return direct evaluations the walk restarted from.
     */
    long anchors()
    {
        return anchors;
    }

    private boolean inFastRegime(final long h, final long t)
    {
        if (t < MIN_FAST_T || h < 20 || h > MAX_EXACT - t - 2)
        {
            return false;
        }
        // LoadGen's series converges monotonically only when its first ratio is below 1.
        return t * ratioX / (h + 1.0) < 1.0 - 1e-9;
    }

    /**
     * Bound on |LoadGen's odds - true odds| / true odds: lgamma/log rounding in the exponent, the truncated tail
     * of the series (terms decrease by at most the first ratio r0), and rounding in the series.
     */
    private double loadGenRelativeError(final long h, final long t)
    {
        final double n = (double)h + (double)t + 1.0;
        // |lgamma(h)| + |lgamma(t + 1)| + |lgamma(h + t + 1)| <= 2 n ln n for n >= 3.
        final double exponentMagnitude = 2.0 * n * Math.log(n) + h * absLogX + t * absLogOneMinusX;
        final double exponentError = 16.0 * UNIT_ROUNDOFF * (exponentMagnitude + 1.0);
        final double r0 = t * ratioX / (h + 1.0);
        final double tail = SERIES_TOLERANCE * r0 / (1.0 - r0);
        final double seriesRounding = 4.0 * UNIT_ROUNDOFF * (t + 2.0);
        return exponentError + tail + seriesRounding + 8.0 * UNIT_ROUNDOFF;
    }

    /**
     * LoadGen's value is {@code fl(P * S_LG)}. {@code P = exp(e) / a}: its exponent {@code e}, where LoadGen's
     * rounding error lives, is computed here exactly as LoadGen computes it ({@link EarlyStopping#exponent}, the
     * code LoadGen's odds runs as well), its exponential with {@link Math#exp} (within 1 ulp by contract, 20 times
     * cheaper than {@link GlibcMath#exp}), so {@code P} is within 4 u of LoadGen's. The float series {@code S_LG}
     * is the true series {@code S = I a (1-x) / K} (walked {@code I} and {@code K}) times {@code 1 + e},
     * {@code -(tail + rounding) <= e <= rounding}. Rounding: each term carries at most four roundings per index
     * (LoadGen's argument {@code x / (x - 1)}, its product, quotient and running product) and the running sum one
     * per term, over at most {@link #maxSeriesTerms} positive terms. Tail: the terms left out after the first one at
     * most 2^-33 shrink by ratios below {@code r0}, so they sum to at most {@code 2^-33 r0 / (1 - r0)}.
     */
    private double refinedValue(final long h, final long t)
    {
        final double prefactor = Math.exp(EarlyStopping.exponent(logX, logOneMinusX, h, t + 1)) / (double)h;
        final double series = trueSeries(h);
        final double value = prefactor * series;
        return prefactor >= Double.MIN_NORMAL && series >= 1.0 && Double.isFinite(value) ? value : Double.NaN;
    }

    private double refinedRelativeError(final long h, final long t, final double walkError)
    {
        final double r0 = t * ratioX / (h + 1.0);
        final double tail = SERIES_TOLERANCE * r0 / ((1.0 - r0) * trueSeries(h));
        final double seriesRounding = 5.0 * UNIT_ROUNDOFF * (maxSeriesTerms(t, r0) + 1.0);
        // P against LoadGen's (two exps and two quotients, within 4 u), the estimate's own roundings (series,
        // value) and LoadGen's final product: 24 u in all.
        return walkError + kRelativeError + tail + seriesRounding + 24.0 * UNIT_ROUNDOFF;
    }

    /** {@code 2F1(1, -t; h + 1; x / (x - 1)) = I a (1 - x) / K} at the walk's position. */
    private double trueSeries(final long h)
    {
        return odds * ((double)h * oneMinusX) / k;
    }

    /**
     * An upper bound on the number of terms LoadGen's series adds: term i is at most {@code r0^i prod (1 - j/t)}
     * since ratio j is {@code r0 (1 - j/t) (h+1) / (h+1+j)}, so
     * {@code ln term_i <= -i ln(1/r0) - i (i-1) / (2t)}, which is below {@code ln 2^-33 - 1} (room for the terms'
     * rounding) from {@code i = 1 + sqrt(2 t M)} and from {@code i = 1 + M / ln(1/r0)}, {@code M = 33 ln 2 + 1};
     * the series also ends at {@code i = t + 1}.
     */
    private static double maxSeriesTerms(final long t, final double r0)
    {
        final double m = 33.0 * 0.6931471805599453 + 1.0;
        final double byCurvature = 2.0 + Math.sqrt(2.0 * t * m);
        // r0 carries a few roundings, which matter relatively when it is close to 1: take 1% off.
        final double lnInverseR0 = -Math.log(r0) * 0.99;
        final double byRatio = lnInverseR0 > 0.0 ? 2.0 + m / lnInverseR0 : Double.POSITIVE_INFINITY;
        return Math.min(t + 1.0, Math.min(byCurvature, byRatio));
    }

    private int decide(final double value, final double relativeError)
    {
        if (relativeError < 0.5)
        {
            if (value * (1.0 + relativeError) < threshold)
            {
                return PASS;
            }
            if (value * (1.0 - relativeError) > threshold)
            {
                return FAIL;
            }
        }
        return UNDECIDED;
    }

    private boolean moveTo(final long targetA, final long targetB)
    {
        final long distance = Math.abs(targetA - a) + Math.abs(targetB - b);
        if (!walkValid || distance > MAX_WALK_STEPS || stepsSinceAnchor + distance > MAX_STEPS_PER_ANCHOR)
        {
            return anchor(targetA, targetB);
        }
        while (b < targetB)
        {
            stepUpB();
        }
        while (b > targetB)
        {
            stepDownB();
        }
        if (a < targetA)
        {
            walkUpA(targetA);
        }
        while (a > targetA)
        {
            stepDownA();
        }
        stepsSinceAnchor += distance;
        if (!(odds > 0.0) || !(k >= 0.0) || oddsAbsoluteError > MAX_WALK_RELATIVE_ERROR * odds)
        {
            return anchor(targetA, targetB);
        }
        return true;
    }

    // I(a+1, b) = I(a, b) - K/a;  K(a+1, b) = K x (a+b)/a. One division: the reciprocal is shared (one more
    // rounding, counted in the error bounds). The common move (SingleStream: p / (1 - p) steps per finder call),
    // so the walk runs on locals: stores to fields inside the loop would sit on its dependency chain.
    private void walkUpA(final long targetA)
    {
        final double x = this.x;
        final long b = this.b;
        long a = this.a;
        double k = this.k;
        double kRelativeError = this.kRelativeError;
        double odds = this.odds;
        double oddsAbsoluteError = this.oddsAbsoluteError;
        while (a < targetA)
        {
            final double inverseA = 1.0 / a;
            final double term = k * inverseA;
            odds -= term;
            oddsAbsoluteError += term * (kRelativeError + 3 * UNIT_ROUNDOFF) + 2 * UNIT_ROUNDOFF * Math.abs(odds);
            k *= x * (double)(a + b) * inverseA;
            kRelativeError += 5 * UNIT_ROUNDOFF;
            a++;
        }
        this.a = a;
        this.k = k;
        this.kRelativeError = kRelativeError;
        this.odds = odds;
        this.oddsAbsoluteError = oddsAbsoluteError;
    }

    // K(a-1, b) = K (a-1) / (x (a-1+b));  I(a-1, b) = I(a, b) + K(a-1, b)/(a-1).
    private void stepDownA()
    {
        k *= (double)(a - 1) / (x * (double)(a - 1 + b));
        kRelativeError += 4 * UNIT_ROUNDOFF;
        a--;
        final double term = k / a;
        odds += term;
        oddsAbsoluteError += term * (kRelativeError + 2 * UNIT_ROUNDOFF) + 2 * UNIT_ROUNDOFF * Math.abs(odds);
    }

    // I(a, b+1) = I(a, b) + K/b;  K(a, b+1) = K (1-x) (a+b)/b.
    private void stepUpB()
    {
        final double inverseB = 1.0 / b;
        final double term = k * inverseB;
        odds += term;
        oddsAbsoluteError += term * (kRelativeError + 3 * UNIT_ROUNDOFF) + 2 * UNIT_ROUNDOFF * Math.abs(odds);
        k *= oneMinusX * (double)(a + b) * inverseB;
        kRelativeError += 5 * UNIT_ROUNDOFF;
        b++;
    }

    // K(a, b-1) = K (b-1) / ((1-x) (a+b-1));  I(a, b-1) = I(a, b) - K(a, b-1)/(b-1).
    private void stepDownB()
    {
        k *= (double)(b - 1) / (oneMinusX * (double)(a + b - 1));
        kRelativeError += 4 * UNIT_ROUNDOFF;
        b--;
        final double term = k / b;
        odds -= term;
        oddsAbsoluteError += term * (kRelativeError + 2 * UNIT_ROUNDOFF) + 2 * UNIT_ROUNDOFF * Math.abs(odds);
    }

    /**
     * Direct evaluation of I_x(a, b) = K / ((1-x) a) * 2F1(1, 1-b; 1+a; x/(x-1)) with
     * K = x^a (1-x)^b / B(a, b) from the Stirling form of ln B, written so that the large terms cancel
     * analytically (a ln(xn/a) + b ln((1-x)n/b) via log1p of the small offset D = xn - a), and the series summed
     * to 2^-60 instead of LoadGen's 2^-33.
     */
    private boolean anchor(final long newA, final long newB)
    {
        anchors++;
        walkValid = false;
        final double da = newA;
        final double db = newB;
        final double n = da + db;
        final double offset = Math.fma(x, n, -da);
        final double termA = da * Math.log1p(offset / da);
        final double termB = db * Math.log1p(-offset / db);
        final double termHalf = 0.5 * Math.log(da * db / n) - HALF_LN_TWO_PI;
        final double logK = termA + termB + termHalf - stirlingTail(da) - stirlingTail(db) + stirlingTail(n);
        final double logKError = 16 * UNIT_ROUNDOFF * (Math.abs(termA) + Math.abs(termB) + Math.abs(termHalf) + 1.0)
            + 1e-15;

        double term = 1.0;
        double sum = 1.0;
        long terms = 0;
        for (long i = 0; i < newB - 1; i++)
        {
            term *= (double)(newB - 1 - i) * ratioX / (da + 1.0 + i);
            sum += term;
            terms++;
            if (term <= sum * 0x1p-60)
            {
                break;
            }
        }
        final double r0 = (newB - 1) * ratioX / (da + 1.0);
        final double seriesError = (3.0 * terms + 4.0) * UNIT_ROUNDOFF + 0x1p-60 * r0 / (1.0 - r0);

        final double kValue = Math.exp(logK);
        final double value = kValue / (oneMinusX * da) * sum;
        if (!(value > 0.0) || !Double.isFinite(value) || !Double.isFinite(kValue))
        {
            return false;
        }
        a = newA;
        b = newB;
        k = kValue;
        kRelativeError = logKError + 2 * UNIT_ROUNDOFF;
        odds = value;
        oddsAbsoluteError = value * (logKError + seriesError + 4 * UNIT_ROUNDOFF);
        stepsSinceAnchor = 0;
        walkValid = true;
        return true;
    }

    /** omega(z) = lgamma(z) - ((z - 0.5) ln z - z + 0.5 ln 2 pi) for z >= 20, to about 1e-17. */
    private static double stirlingTail(final double z)
    {
        final double r = 1.0 / z;
        final double r2 = r * r;
        return r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680 - r2 / 1188))));
    }
}
