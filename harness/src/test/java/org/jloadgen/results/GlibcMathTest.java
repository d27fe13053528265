package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link GlibcMath} against values printed by glibc 2.36 (x86-64, printf with %a) for the arguments LoadGen's
 * early stopping uses: lgamma of integers (including both sides of the Stirling switch at 8 and the large-argument
 * form at 2^58), log of the percentiles and their complements, exp of typical and extreme exponents.
 */
class GlibcMathTest
{
    private static final long[] LGAMMA_ARGUMENTS = {
        1L, 2L, 3L, 4L,
        5L, 6L, 7L, 8L,
        9L, 10L, 20L, 50L,
        100L, 459L, 661L, 1000L,
        6635L, 12471L, 100000L, 571402L,
        5159332L, 10000000L, 123456789L, 1099511627776L,
        288230376151711744L, 288230376151711745L, 9007199254740993L,
    };
    private static final double[] GLIBC_LGAMMA = {
        0x0p0, 0x0p0, 0x1.62e42fefa39efp-1,
        0x1.cab0bfa2a2002p0, 0x1.96ca77c922cf9p1, 0x1.326643c4479c9p2,
        0x1.a51273acf01cap2, 0x1.10ce1f32dcc2fp3, 0x1.5358e82fcb70dp3,
        0x1.99a8921a7f7dp3, 0x1.3ab8153363985p5, 0x1.2121a930c6ec2p7,
        0x1.67225b4879463p8, 0x1.2602d6267d47bp11, 0x1.c5a164276ace8p11,
        0x1.711386da7cab6p12, 0x1.944c8cc3bea8p15, 0x1.9ab5370cbafdfp16,
        0x1.00a97b57f4c2ep20, 0x1.ab6e0a03ac84cp22, 0x1.1c84d9e39f926p26,
        0x1.205ad2abd2bbp27, 0x1.037c1b9e72507p31, 0x1.ab9d3beb8bb79p44,
        0x1.399ecb712c481p63, 0x1.399ecb712c481p63, 0x1.1de4f7b2737fap58,
    };
    private static final double[] LOG_ARGUMENTS = {
        0x1.ccccccccccccdp-1, 0x1.9999999999998p-4, 0x1.fae147ae147aep-1,
        0x1.47ae147ae148p-7, 0x1.ff7ced916872bp-1, 0x1.0624dd2f1aap-10,
        0x1p-1, 0x1p1, 0x1.4p3,
        0x1.56e1fc2f8f359p-997, 0x1.7e43c8800759cp996, 0x1.e240c9fbe76c9p16,
    };
    private static final double[] GLIBC_LOG = {
        -0x1.af8e8210a415cp-4, -0x1.26bb1bbb55516p1, -0x1.495453e6fd4bcp-7,
        -0x1.26bb1bbb55515p2, -0x1.064670d979b73p-10, -0x1.ba18a998fff9fp2,
        -0x1.62e42fefa39efp-1, 0x1.62e42fefa39efp-1, 0x1.26bb1bbb55516p1,
        -0x1.5963447f87fb5p9, 0x1.5963447f87fb5p9, 0x1.77281cad8a844p3,
    };
    private static final double[] EXP_ARGUMENTS = {
        0x0p0, 0x1p0, -0x1p0,
        0x1p-1, -0x1.26bb1bbb55515p2, -0x1.5ep9,
        0x1.5ep9, -0x1.af8e8210a415cp-4, 0x1.d99999999999ap1,
        -0x1.edd2f1a9fbe77p6, 0x1.62d999999999ap9,
    };
    private static final double[] GLIBC_EXP = {
        0x1p0, 0x1.5bf0a8b145769p1, 0x1.78b56362cef38p-2,
        0x1.a61298e1e069cp0, 0x1.47ae147ae147dp-7, 0x1.14f2b0fb9307fp-1010,
        0x1.d945df4f8ec8ep1009, 0x1.ccccccccccccdp-1, 0x1.4394144eeec81p5,
        0x1.da9fb9e4ee72p-179, 0x1.d75ae7a50ee14p1023,
    };

    @Test
    void shouldMatchGlibcLgammaBitForBit()
    {
        for (int i = 0; i < LGAMMA_ARGUMENTS.length; i++)
        {
            assertEquals(GLIBC_LGAMMA[i], GlibcMath.lgamma(LGAMMA_ARGUMENTS[i]), "lgamma(" + LGAMMA_ARGUMENTS[i] + ")");
        }
    }

    @Test
    void shouldMatchGlibcLogBitForBit()
    {
        for (int i = 0; i < LOG_ARGUMENTS.length; i++)
        {
            assertEquals(GLIBC_LOG[i], GlibcMath.log(LOG_ARGUMENTS[i]), "log(" + LOG_ARGUMENTS[i] + ")");
        }
    }

    @Test
    void shouldMatchGlibcExpBitForBit()
    {
        for (int i = 0; i < EXP_ARGUMENTS.length; i++)
        {
            assertEquals(GLIBC_EXP[i], GlibcMath.exp(EXP_ARGUMENTS[i]), "exp(" + EXP_ARGUMENTS[i] + ")");
        }
    }

    @Test
    void shouldReturnPolesAndSpecialValuesLikeLibm()
    {
        assertEquals(Double.POSITIVE_INFINITY, GlibcMath.lgamma(0));
        assertEquals(Double.POSITIVE_INFINITY, GlibcMath.lgamma(-5));
        assertEquals(Double.NEGATIVE_INFINITY, GlibcMath.log(0.0));
        assertTrue(Double.isNaN(GlibcMath.log(-1.0)));
        assertTrue(Double.isNaN(GlibcMath.log(Double.NaN)));
        assertEquals(Double.POSITIVE_INFINITY, GlibcMath.log(Double.POSITIVE_INFINITY));
        assertEquals(0.0, GlibcMath.log(1.0));
        assertEquals(StrictMath.log(Double.MIN_VALUE), GlibcMath.log(Double.MIN_VALUE));
        assertEquals(Double.POSITIVE_INFINITY, GlibcMath.exp(710.0));
        assertEquals(0.0, GlibcMath.exp(-746.0));
        assertTrue(Double.isNaN(GlibcMath.exp(Double.NaN)));
    }

    @Test
    void shouldStayWithinAnUlpOfTheExactLogFactorial()
    {
        // ln(99!) = 359.13420536957539877604...; lgamma(100) must be one of its two neighbouring doubles.
        final double exact = 359.1342053695753987760440;
        final double value = GlibcMath.lgamma(100);
        assertTrue(Math.abs(value - exact) <= Math.ulp(exact), "lgamma(100) = " + value);
    }
}
