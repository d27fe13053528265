package org.jloadgen.random;

import static org.jloadgen.random.GlibcLogData.CHI;
import static org.jloadgen.random.GlibcLogData.CLO;
import static org.jloadgen.random.GlibcLogData.INVC;
import static org.jloadgen.random.GlibcLogData.LN2_HI;
import static org.jloadgen.random.GlibcLogData.LN2_LO;
import static org.jloadgen.random.GlibcLogData.LOGC;
import static org.jloadgen.random.GlibcLogData.POLY;
import static org.jloadgen.random.GlibcLogData.POLY1;

/**
 * glibc's double-precision {@code log} (2.28 and later; glibc 2.36 on Debian 12), bit for bit, so exponential
 * draws and therefore Server schedules equal LoadGen's. {@link Math#log} differs from glibc in the last bit for
 * about 1 input in 1,200 and {@link StrictMath#log} for 1 in 13, which moves a truncated nanosecond interval
 * now and then at low target QPS.
 * <p>
 * Two results exist, because x86-64 glibc picks its {@code log} at run time: on CPUs with FMA and AVX2 (every
 * x86-64 server CPU since 2013) a build of the same C compiled with {@code -mfma}, in which GCC fused several
 * multiply-adds; otherwise an SSE2 build. They differ in the last bit for about 1 input in 9,000.
 * {@link #log(double)} is the FMA build, the one LoadGen runs on current hardware; {@link #logSse2(double)} is
 * the other. The fused operations below follow the instructions of the FMA build in the installed libm.
 * <p>
 * Algorithm (glibc {@code sysdeps/ieee754/dbl-64/e_log.c}): near 1 a degree-11 polynomial with an
 * extra-precise leading term; elsewhere {@code x = 2^k z}, {@code log(x) = k ln2 + log(c) + log1p(z/c - 1)}
 * with {@code c} the centre of one of 128 subintervals (tables in {@link GlibcLogData}). Hand-written because
 * no library reproduces glibc's rounding.
 */
public final class GlibcLog
{
    private static final int TABLE_BITS = 7;
    private static final int TABLE_MASK = (1 << TABLE_BITS) - 1;
    private static final long OFF = 0x3fe6000000000000L;
    private static final long NEAR_ONE_LO = Double.doubleToRawLongBits(1.0 - 0x1p-4);
    private static final long NEAR_ONE_HI = Double.doubleToRawLongBits(1.0 + 0x1.09p-4);
    private static final long ONE = Double.doubleToRawLongBits(1.0);
    private static final long POSITIVE_INFINITY = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
    private static final double SPLIT = 0x1p27;

    private static final double A0 = POLY[0];
    private static final double A1 = POLY[1];
    private static final double A2 = POLY[2];
    private static final double A3 = POLY[3];
    private static final double A4 = POLY[4];
    private static final double B0 = POLY1[0];
    private static final double B1 = POLY1[1];
    private static final double B2 = POLY1[2];
    private static final double B3 = POLY1[3];
    private static final double B4 = POLY1[4];
    private static final double B5 = POLY1[5];
    private static final double B6 = POLY1[6];
    private static final double B7 = POLY1[7];
    private static final double B8 = POLY1[8];
    private static final double B9 = POLY1[9];
    private static final double B10 = POLY1[10];

    private GlibcLog()
    {
    }

    /**
     * Natural logarithm as glibc's FMA build computes it (x86-64 CPUs with FMA and AVX2).
     *
     * @param x the argument.
     * @return {@code log(x)}; {@code -Infinity} for zeros, NaN for negatives and NaN.
     */
    public static double log(final double x)
    {
        long ix = Double.doubleToRawLongBits(x);
        if (Long.compareUnsigned(ix - NEAR_ONE_LO, NEAR_ONE_HI - NEAR_ONE_LO) < 0)
        {
            return nearOneFma(x, ix);
        }
        final int top = (int)(ix >>> 48);
        if (Integer.compareUnsigned(top - 0x0010, 0x7ff0 - 0x0010) >= 0)
        {
            if (isSpecial(ix, top))
            {
                return special(x, ix);
            }
            ix = normalizeSubnormal(x);
        }
        final long tmp = ix - OFF;
        final int i = (int)(tmp >>> (52 - TABLE_BITS)) & TABLE_MASK;
        final double kd = (int)(tmp >> 52);
        final double z = Double.longBitsToDouble(ix - (tmp & (0xfffL << 52)));

        final double w = Math.fma(kd, LN2_HI, LOGC[i]);
        final double r = Math.fma(z, INVC[i], -1.0);
        final double hi = w + r;
        final double lo = Math.fma(kd, LN2_LO, w - hi + r);
        final double r2 = r * r;
        final double p = Math.fma(Math.fma(r, A4, A3), r2, Math.fma(r, A2, A1));
        return Math.fma(r * r2, p, Math.fma(r2, A0, lo)) + hi;
    }

    /**
     * Natural logarithm as glibc's SSE2 build computes it (x86-64 CPUs without FMA or AVX2).
     *
     * @param x the argument.
     * @return {@code log(x)}; {@code -Infinity} for zeros, NaN for negatives and NaN.
     */
    public static double logSse2(final double x)
    {
        long ix = Double.doubleToRawLongBits(x);
        if (Long.compareUnsigned(ix - NEAR_ONE_LO, NEAR_ONE_HI - NEAR_ONE_LO) < 0)
        {
            return nearOneSse2(x, ix);
        }
        final int top = (int)(ix >>> 48);
        if (Integer.compareUnsigned(top - 0x0010, 0x7ff0 - 0x0010) >= 0)
        {
            if (isSpecial(ix, top))
            {
                return special(x, ix);
            }
            ix = normalizeSubnormal(x);
        }
        final long tmp = ix - OFF;
        final int i = (int)(tmp >>> (52 - TABLE_BITS)) & TABLE_MASK;
        final double kd = (int)(tmp >> 52);
        final double z = Double.longBitsToDouble(ix - (tmp & (0xfffL << 52)));

        final double r = (z - CHI[i] - CLO[i]) * INVC[i];
        final double w = kd * LN2_HI + LOGC[i];
        final double hi = w + r;
        final double lo = w - hi + r + kd * LN2_LO;
        final double r2 = r * r;
        return lo + r2 * A0 + r * r2 * (A1 + r * A2 + r2 * (A3 + r * A4)) + hi;
    }

    private static double nearOneFma(final double x, final long ix)
    {
        if (ix == ONE)
        {
            return 0.0;
        }
        final double r = x - 1.0;
        final double r2 = r * r;
        final double r3 = r * r2;
        final double a = Math.fma(r2, B3, Math.fma(r, B2, B1));
        final double b = Math.fma(r2, B6, Math.fma(r, B5, B4));
        final double c = Math.fma(r3, B10, Math.fma(r2, B9, Math.fma(r, B8, B7)));
        final double poly = Math.fma(Math.fma(c, r3, b), r3, a);
        // Split r into rhi (27 bits) + rlo so that rhi * rhi is exact.
        final double rhi = Math.fma(-SPLIT, r, Math.fma(r, SPLIT, r));
        final double rlo = r - rhi;
        final double rhi2 = rhi * rhi;
        final double hi = Math.fma(rhi2, B0, r);
        double lo = Math.fma(rhi2, B0, r - hi);
        lo = Math.fma(B0 * rlo, r + rhi, lo);
        return hi + Math.fma(poly, r3, lo);
    }

    private static double nearOneSse2(final double x, final long ix)
    {
        if (ix == ONE)
        {
            return 0.0;
        }
        final double r = x - 1.0;
        final double r2 = r * r;
        final double r3 = r * r2;
        double y = r3 * (B1 + r * B2 + r2 * B3
            + r3 * (B4 + r * B5 + r2 * B6 + r3 * (B7 + r * B8 + r2 * B9 + r3 * B10)));
        double w = r * SPLIT;
        final double rhi = r + w - w;
        final double rlo = r - rhi;
        w = rhi * rhi * B0;
        final double hi = r + w;
        double lo = r - hi + w;
        lo += B0 * rlo * (rhi + r);
        y += lo;
        y += hi;
        return y;
    }

    private static boolean isSpecial(final long ix, final int top)
    {
        // Zeros, infinities, NaNs and negatives; positive subnormals are not special.
        return ix << 1 == 0 || ix == POSITIVE_INFINITY || (top & 0x8000) != 0 || (top & 0x7ff0) == 0x7ff0;
    }

    private static double special(final double x, final long ix)
    {
        if (ix << 1 == 0)
        {
            return Double.NEGATIVE_INFINITY;
        }
        if (ix == POSITIVE_INFINITY)
        {
            return x;
        }
        return Double.NaN;
    }

    private static long normalizeSubnormal(final double x)
    {
        return Double.doubleToRawLongBits(x * 0x1p52) - (52L << 52);
    }
}
