package org.jloadgen.results;

/**
 * Answers LoadGen's early-stopping question {@code odds(h, t, p, d) < 1 - c} (spec §7.3) with the answer
 * LoadGen's own floating-point computation gives, without paying for its series on every call.
 * <p>
 * LoadGen sums a hypergeometric series of about {@code sqrt(40 t)} terms per evaluation and evaluates once or twice
 * per {@code t}; a SingleStream run of 5.7M queries costs it 6e5 evaluations and 1.3e9 terms (3 s). Here the
 * odds, which is the regularized incomplete beta {@code I_x(h, t + 1)}, is carried from one evaluation to the next
 * by its exact recurrences in {@code h} and {@code t} (one multiply and one add per unit step), restarted from an
 * accurate direct evaluation when the walk gets long, with a running bound on its rounding error. A comparison is
 * decided from that value only when it is clear by more than the error bound of both this value and LoadGen's
 * computation (series truncation at 2^-33, lgamma rounding, summation); otherwise LoadGen's computation is run
 * operation for operation ({@link EarlyStopping#odds}). The fast path is limited to the regime where those
 * bounds hold (0.5 &lt;= p - d &lt; 1, t &gt;= 32, convergent series); everything else is computed exactly.
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
    /** Relative error bound of the walked value above which it is recomputed. */
    private static final double MAX_WALK_RELATIVE_ERROR = 1e-9;
    /** Extra factor on every error bound before a comparison is trusted. */
    private static final double DECISION_SAFETY = 4.0;
    /** Largest h + t for which every integer involved converts to double exactly. */
    private static final long MAX_EXACT = 1L << 52;
    private static final double HALF_LN_TWO_PI = 0.9189385332046728;

    private final double p;
    private final double d;
    private final double threshold;
    private final double x;
    private final double oneMinusX;
    private final double ratioX;
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
        this.absLogX = Math.abs(GlibcMath.log(x));
        this.absLogOneMinusX = Math.abs(GlibcMath.log(oneMinusX));
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
            final double beta = DECISION_SAFETY * (oddsAbsoluteError / odds + loadGenRelativeError(h, t));
            if (beta < 0.5)
            {
                if (odds * (1.0 + beta) < threshold)
                {
                    fastDecisions++;
                    return true;
                }
                if (odds * (1.0 - beta) > threshold)
                {
                    fastDecisions++;
                    return false;
                }
            }
        }
        exactEvaluations++;
        return EarlyStopping.odds(h, t, p, d) < threshold;
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

    private boolean moveTo(final long targetA, final long targetB)
    {
        final long distance = Math.abs(targetA - a) + Math.abs(targetB - b);
        if (!walkValid || distance > MAX_WALK_STEPS || stepsSinceAnchor + distance > 64 * MAX_WALK_STEPS)
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
        while (a < targetA)
        {
            stepUpA();
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
    // rounding, counted in the error bounds).
    private void stepUpA()
    {
        final double inverseA = 1.0 / a;
        final double term = k * inverseA;
        odds -= term;
        oddsAbsoluteError += term * (kRelativeError + 3 * UNIT_ROUNDOFF) + 2 * UNIT_ROUNDOFF * Math.abs(odds);
        k *= x * (double)(a + b) * inverseA;
        kRelativeError += 5 * UNIT_ROUNDOFF;
        a++;
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
