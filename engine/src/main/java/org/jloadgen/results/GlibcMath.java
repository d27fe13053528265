package org.jloadgen.results;

import java.math.BigDecimal;
import java.math.MathContext;

import org.jloadgen.random.GlibcLog;

/**
 * The libm functions LoadGen's early stopping (spec §7.3; loadgen/early_stopping.cc, lbeta and odds) is computed with,
 * as glibc returns them: {@code std::log} and {@code std::exp} of doubles and {@code std::lgamma} of positive integers.
 * Java has no {@code lgamma}, and {@link StrictMath}'s {@code log}/{@code exp} (fdlibm) differ from glibc's in the last
 * bit for 0.6% / 10% of arguments, which would move LoadGen's odds values.
 * <p>
 * Choice: {@link #log} is glibc's own algorithm ({@link GlibcLog}, bit-exact against the installed libm), and
 * {@link #lgamma(long)} follows glibc's {@code lgamma} (the fdlibm {@code e_lgamma_r} code glibc ships: exact
 * factorial products below 8, the Stirling form {@code (x-0.5)(ln x-1)+w(1/x)} with fdlibm's minimax coefficients
 * from 8 to 2^58) on top of that {@code log}, so it rounds where glibc rounds: measured against glibc 2.36 on
 * x86-64 with FMA, equal on every integer of 1..2e7 and 5e7..7e7. (A correctly rounded {@code log} differed on 487
 * of 1..2e7 and moved {@code lgamma} on 432; one ulp of {@code lgamma(1e8)} is 2.4e-7, which moves an odds value
 * by as much relatively, enough to flip a comparison near a large run's threshold.) {@link #exp} is correctly
 * rounded (double-double arithmetic, about 100 bits, then one rounding); glibc's {@code exp} is not quite
 * (0.52 ulp), so they differ by one ulp on about 0.06% of arguments, which moves an odds value by 2^-53 relative.
 * Deterministic on every JVM: plain IEEE arithmetic and {@link Math#fma}, no intrinsics whose last bit varies by
 * platform.
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
        // 2^k from its bits (k is in [-1022, 1024] here): Math.scalb costs as much as the Taylor series.
        final double rounded = accHi + accLo;
        final int exponent = (int)k;
        return exponent > 1023 ? rounded * 0x1p1023 * powerOfTwo(exponent - 1023)
            : rounded * powerOfTwo(exponent);
    }

    /** 2^k for a normal exponent k in [-1022, 1023]. */
    private static double powerOfTwo(final int k)
    {
        return Double.longBitsToDouble((long)(k + 1023) << 52);
    }

    /**
     * {@code std::log} as glibc computes it on x86-64 CPUs with FMA and AVX2 (the build LoadGen runs on current
     * servers): {@link GlibcLog#log}. Its {@code lgamma} calls the same function, which is why {@link #lgamma}
     * rounds where glibc's does.
     *
     * @param x a double.
     * @return {@code ln x}; NaN for negative or NaN input, -Infinity for 0, +Infinity for +Infinity.
     */
    public static double log(final double x)
    {
        return GlibcLog.log(x);
    }
}
