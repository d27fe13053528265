package org.jloadgen.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@link GlibcMath} against values printed by glibc 2.36 (x86-64, printf with %a) for the arguments LoadGen's
 * early stopping uses: lgamma of integers (including both sides of the Stirling switch at 8 and the large-argument
 * form at 2^58), log of the percentiles and their complements, exp of typical and extreme exponents; and lgamma
 * against {@code tools/glibc-lgamma/regenerate.sh}'s fixture: digests over 8 million consecutive integers and the
 * integers where a correctly rounded log used to move lgamma off glibc's result.
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

    @Test
    void shouldMatchGlibcLgammaOnMillionsOfConsecutiveIntegers()
    {
        int digests = 0;
        int values = 0;
        for (final String[] row : lgammaFixture())
        {
            if ("digest".equals(row[0]))
            {
                final long first = Long.parseLong(row[1]);
                final long last = Long.parseLong(row[2]);
                long hash = 0xcbf29ce484222325L;
                for (long k = first; k <= last; k++)
                {
                    final long bits = Double.doubleToRawLongBits(GlibcMath.lgamma(k));
                    for (int i = 0; i < 8; i++)
                    {
                        hash = (hash ^ ((bits >>> (8 * i)) & 0xff)) * 0x100000001b3L;
                    }
                }
                assertEquals(row[3], String.format("%016x", hash), "lgamma digest over " + first + ".." + last);
                digests++;
            }
            else
            {
                final long k = Long.parseLong(row[1]);
                assertEquals(Long.parseUnsignedLong(row[2], 16), Double.doubleToRawLongBits(GlibcMath.lgamma(k)),
                    "lgamma(" + k + ")");
                values++;
            }
        }
        assertEquals(2, digests, "digest rows");
        assertTrue(values >= 10, "value rows: " + values);
    }

    @Test
    void shouldTakeGlibcsLogWhereACorrectlyRoundedOneDiffers()
    {
        // glibc 2.36 (FMA build, printf %a): one ulp above the correctly rounded ln 9170, and lgamma(9170) with it.
        // ln 9170 = 9.12369256525051053327..., whose nearest double is 0x1.23f54a1c504c1p3.
        assertEquals(0x1.23f54a1c504c2p3, GlibcMath.log(9170.0));
        assertEquals(0x1.22fa9e304feb1p16, GlibcMath.lgamma(9170));
    }

    private static List<String[]> lgammaFixture()
    {
        final String name = "/glibc-lgamma/lgamma-fixture.txt";
        try (InputStream in = GlibcMathTest.class.getResourceAsStream(name))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing test resource " + name);
            }
            final List<String[]> rows = new ArrayList<>();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n"))
            {
                if (!line.isBlank() && !line.startsWith("#"))
                {
                    rows.add(line.trim().split(" "));
                }
            }
            return rows;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
