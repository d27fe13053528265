package org.jloadgen.results;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The libm functions LoadGen's early stopping (spec §7.3) is computed with, as glibc returns them: {@code std::log}
 * and {@code std::exp} of doubles and {@code std::lgamma} of positive integers. Java has no {@code lgamma}, and
 * {@link StrictMath}'s {@code log}/{@code exp} (fdlibm) differ from glibc's in the last bit for 0.6% / 10% of
 * arguments, which would move LoadGen's odds values.
 * <p>
 * Choice: glibc's {@code log} and {@code exp} are correctly rounded except very near a rounding tie (their error
 * bound is about 0.52 ulp), so {@link #log} and {@link #exp} compute the correctly rounded result (double-double
 * arithmetic, about 100 bits, then one rounding). {@link #lgamma(long)} follows glibc's own algorithm (the fdlibm
 * {@code e_lgamma_r} code glibc ships: exact factorial products below 8, the Stirling form
 * {@code (x-0.5)(ln x-1)+w(1/x)} with fdlibm's minimax coefficients from 8 to 2^58) on top of that {@code log}, so
 * it rounds where glibc rounds. Measured against glibc 2.36: {@code log} differs on 487 and {@code lgamma} on 432
 * of the integers 1..2e7, {@code exp} on 0.08% of random arguments, each by one ulp (StrictMath: 0.6%, 0.5%
 * and 10%). An exact log-factorial would be closer to the true value but further from the tool whose comparisons we
 * must reproduce. A residual one-ulp difference moves an odds value by at most about 1e-8 relative, which can
 * only flip a comparison against 0.01 that is itself that close. Deterministic on every JVM: plain IEEE
 * arithmetic and {@link Math#fma}, no intrinsics whose last bit varies by platform.
 */
public final class GlibcMath
{
    /** ln 2 as a double-double. */
    private static final double LN2_HI = 0x1.62e42fefa39efp-1;
    private static final double LN2_LO = 0x1.abc9e3b39803fp-56;

    /** fdlibm's Stirling-series coefficients for lgamma on [8, 2^58). */
    private static final double W0 = 4.18938533204672725052e-01;
    private static final double W1 = 8.33333333333329678849e-02;
    private static final double W2 = -2.77777777728775536470e-03;
    private static final double W3 = 7.93650558643019558500e-04;
    private static final double W4 = -5.95187557450339963135e-04;
    private static final double W5 = 8.36339918996282139126e-04;
    private static final double W6 = -1.63092934096575273989e-03;

    private static final double INV_LN2 = 1.4426950408889634;
    /** Above this, e^y overflows. */
    private static final double MAX_EXP_ARGUMENT = 709.782712893384;
    /** Below this, e^y is subnormal. */
    private static final double MIN_NORMAL_EXP_ARGUMENT = -708.3964185322641;

    /** Taylor terms of exp on |r| <= 0.011: r^13 / 13! < 2^-110. */
    private static final int EXP_TERMS = 13;
    private static final double[] INV_FACTORIAL_HI = new double[EXP_TERMS];
    private static final double[] INV_FACTORIAL_LO = new double[EXP_TERMS];

    /** 2^58: above it glibc uses {@code x (ln x - 1)}. */
    private static final double TWO_POW_58 = 0x1p58;

    /** Terms of the atanh series: |s| <= 0.1716 so s^44 / 45 < 2^-110. */
    private static final int SERIES_TERMS = 23;
    private static final double[] INV_ODD_HI = new double[SERIES_TERMS];
    private static final double[] INV_ODD_LO = new double[SERIES_TERMS];

    static
    {
        final MathContext mc = new MathContext(60);
        BigDecimal factorial = BigDecimal.ONE;
        for (int j = 0; j < EXP_TERMS; j++)
        {
            if (j > 0)
            {
                factorial = factorial.multiply(BigDecimal.valueOf(j));
            }
            final BigDecimal exact = BigDecimal.ONE.divide(factorial, mc);
            final double hi = exact.doubleValue();
            INV_FACTORIAL_HI[j] = hi;
            INV_FACTORIAL_LO[j] = exact.subtract(new BigDecimal(hi), mc).doubleValue();
        }
        for (int j = 0; j < SERIES_TERMS; j++)
        {
            final BigDecimal exact = BigDecimal.ONE.divide(BigDecimal.valueOf(2L * j + 1), mc);
            final double hi = exact.doubleValue();
            INV_ODD_HI[j] = hi;
            INV_ODD_LO[j] = exact.subtract(new BigDecimal(hi), mc).doubleValue();
        }
    }

    private GlibcMath()
    {
    }

    /**
     * {@code std::lgamma(k)} for an integer argument, as glibc computes it.
     *
     * @param k any integer; LoadGen passes positive ones.
     * @return {@code ln |Gamma(k)|}; {@code +Infinity} at the poles {@code k <= 0}.
     */
    public static double lgamma(final long k)
    {
        if (k <= 0)
        {
            return Double.POSITIVE_INFINITY;
        }
        if (k <= 2)
        {
            return 0.0;
        }
        final double x = k;
        if (k < 8)
        {
            // fdlibm: y = x - (int)x = 0, so r = 0 + log(z) with z = (y+2)(y+3)...(y+k-1), an exact product.
            double z = 1.0;
            for (long i = k - 1; i >= 2; i--)
            {
                z *= i;
            }
            return log(z);
        }
        if (x < TWO_POW_58)
        {
            final double t = log(x);
            final double z = 1.0 / x;
            final double y = z * z;
            final double w = W0 + z * (W1 + y * (W2 + y * (W3 + y * (W4 + y * (W5 + y * W6)))));
            return (x - 0.5) * (t - 1.0) + w;
        }
        return x * (log(x) - 1.0);
    }

    /**
     * The exponential, correctly rounded to nearest in the normal range (computed to about 100 bits, then
     * rounded); results in the subnormal range come from {@link StrictMath#exp}.
     *
     * @param y a double.
     * @return {@code e^y}.
     */
    public static double exp(final double y)
    {
        if (!(y > MIN_NORMAL_EXP_ARGUMENT) || y > MAX_EXP_ARGUMENT)
        {
            return StrictMath.exp(y);
        }
        // y = k ln2 + r, |r| <= ln2 / 2, r as a double-double (k ln2_hi is split exactly with fma).
        final double k = Math.rint(y * INV_LN2);
        final double p = k * LN2_HI;
        final double pErr = Math.fma(k, LN2_HI, -p);
        final double r1 = y - p;
        final double carry = r1 - y;
        final double r1Err = (y - (r1 - carry)) + (-p - carry) - pErr - k * LN2_LO;
        final double rHi0 = r1 + r1Err;
        final double rLo0 = r1Err - (rHi0 - r1);
        // exp(r) = exp(r / 32)^32: Taylor to r^12 / 12! on |r / 32| <= 0.011, then five squarings.
        final double rHi = rHi0 * 0x1p-5;
        final double rLo = rLo0 * 0x1p-5;
        double accHi = INV_FACTORIAL_HI[EXP_TERMS - 1];
        double accLo = INV_FACTORIAL_LO[EXP_TERMS - 1];
        for (int j = EXP_TERMS - 2; j >= 0; j--)
        {
            final double m = accHi * rHi;
            final double mErr = Math.fma(accHi, rHi, -m) + (accHi * rLo + accLo * rHi);
            final double hi = m + mErr;
            final double lo = mErr - (hi - m);
            final double sum = hi + INV_FACTORIAL_HI[j];
            final double v = sum - hi;
            final double err = (hi - (sum - v)) + (INV_FACTORIAL_HI[j] - v) + lo + INV_FACTORIAL_LO[j];
            accHi = sum + err;
            accLo = err - (accHi - sum);
        }
        for (int i = 0; i < 5; i++)
        {
            final double m = accHi * accHi;
            final double mErr = Math.fma(accHi, accHi, -m) + 2.0 * accHi * accLo;
            accHi = m + mErr;
            accLo = mErr - (accHi - m);
        }
        // The rounded sum times 2^k: exact, the result is normal. 2^1024 is not a double: scale in two steps.
        final double rounded = accHi + accLo;
        final int exponent = (int)k;
        return exponent > 1023 ? rounded * 0x1p1023 * Math.scalb(1.0, exponent - 1023)
            : rounded * Math.scalb(1.0, exponent);
    }

    /**
     * The natural logarithm, correctly rounded to nearest (computed to about 100 bits, then rounded).
     * Hand-written because {@link StrictMath#log} is off by one ulp for about 0.6% of integers and
     * {@link Math#log} is an intrinsic whose last bit varies by platform (see the class comment).
     *
     * @param x a double.
     * @return {@code ln x}; NaN for negative or NaN input, -Infinity for 0, +Infinity for +Infinity.
     */
    public static double log(final double x)
    {
        if (!(x > 0.0) || x == Double.POSITIVE_INFINITY)
        {
            return StrictMath.log(x);
        }
        long bits = Double.doubleToRawLongBits(x);
        int exponent = (int)(bits >>> 52) - 1023;
        if (exponent == -1023)
        {
            // Subnormal: scale into the normal range first.
            bits = Double.doubleToRawLongBits(x * 0x1p54);
            exponent = (int)(bits >>> 52) - 1023 - 54;
        }
        double m = Double.longBitsToDouble((bits & 0x000f_ffff_ffff_ffffL) | 0x3ff0_0000_0000_0000L);
        if (m > 1.4142135623730951)
        {
            m *= 0.5;
            exponent++;
        }

        // ln m = 2 atanh(s), s = (m - 1) / (m + 1); m - 1 is exact (Sterbenz), m + 1 is split exactly.
        final double num = m - 1.0;
        final double denHi = m + 1.0;
        final double denCarry = denHi - m;
        final double denLo = (m - (denHi - denCarry)) + (1.0 - denCarry);
        final double q1 = num / denHi;
        final double rem = Math.fma(-q1, denHi, num) - q1 * denLo;
        final double q2 = rem / denHi;
        final double sHi = q1 + q2;
        final double sLo = q2 - (sHi - q1);

        // s^2 in double-double.
        double p = sHi * sHi;
        double e = Math.fma(sHi, sHi, -p) + 2.0 * sHi * sLo;
        final double s2Hi = p + e;
        final double s2Lo = e - (s2Hi - p);

        // Horner: P = sum_j s^(2j) / (2j + 1).
        double accHi = INV_ODD_HI[SERIES_TERMS - 1];
        double accLo = INV_ODD_LO[SERIES_TERMS - 1];
        for (int j = SERIES_TERMS - 2; j >= 0; j--)
        {
            // acc = acc * s2
            p = accHi * s2Hi;
            e = Math.fma(accHi, s2Hi, -p) + (accHi * s2Lo + accLo * s2Hi);
            double hi = p + e;
            double lo = e - (hi - p);
            // acc = acc + 1/(2j+1)
            final double sum = hi + INV_ODD_HI[j];
            final double v = sum - hi;
            final double err = (hi - (sum - v)) + (INV_ODD_HI[j] - v) + lo + INV_ODD_LO[j];
            accHi = sum + err;
            accLo = err - (accHi - sum);
        }

        // ln m = 2 s P
        p = sHi * accHi;
        e = Math.fma(sHi, accHi, -p) + (sHi * accLo + sLo * accHi);
        double lnHi = 2.0 * (p + e);
        double lnLo = 2.0 * (e - ((p + e) - p));

        // + exponent * ln 2, the product with LN2_HI split exactly by fma.
        final double kHi = exponent * LN2_HI;
        final double kLo = Math.fma(exponent, LN2_HI, -kHi) + exponent * LN2_LO;
        final double sum = kHi + lnHi;
        final double v = sum - kHi;
        final double err = (kHi - (sum - v)) + (lnHi - v) + kLo + lnLo;
        return sum + err;
    }
}
