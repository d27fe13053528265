package org.jloadgen.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

/**
 * Proves {@link GlibcLog} bit-exact against the C library's {@code log} (glibc 2.36, both x86-64 builds) on the
 * fixtures {@code tools/glibc-log/regenerate.sh} wrote from the real libm: digests over 14.5 million inputs
 * (10 million of them the exact inputs of {@code std::exponential_distribution}), edge inputs, and the inputs
 * where glibc's two builds disagree.
 */
class GlibcLogTest
{
    private static final long NEAR_ONE_LO = 0x3fee000000000000L;
    private static final long NEAR_ONE_HI = 0x3ff1090000000000L;
    private static final long CANONICAL_NAN = 0x7ff8000000000000L;

    @Test
    void shouldMatchGlibcDigestsOfBothBuildsOverMillionsOfInputs()
    {
        final List<String[]> digests = fixture("log-digests.txt");
        assertEquals(8, digests.size(), "fixture rows");
        long inputs = 0;
        for (final String[] row : digests)
        {
            final String variant = row[0];
            final String inputClass = row[1];
            final long count = Long.parseLong(row[2]);
            final long seed = Long.parseUnsignedLong(row[3]);
            final long expected = Long.parseUnsignedLong(row[4], 16);
            final DoubleUnaryOperator log = switch (variant)
            {
                case "fma" -> GlibcLog::log;
                case "sse2" -> GlibcLog::logSse2;
                default -> throw new IllegalArgumentException("unknown variant " + variant);
            };
            final long actual = digest(inputs(inputClass, seed), count, log);
            assertEquals(Long.toHexString(expected), Long.toHexString(actual), variant + " " + inputClass);
            inputs += "fma".equals(variant) ? count : 0;
        }
        assertTrue(inputs >= 10_000_000, "inputs per build: " + inputs);
    }

    @Test
    void shouldMatchGlibcOnEdgeInputs()
    {
        final List<String[]> rows = fixture("log-specials.txt");
        assertTrue(rows.size() >= 20, "edge inputs: " + rows.size());
        for (final String[] row : rows)
        {
            final double x = Double.longBitsToDouble(Long.parseUnsignedLong(row[0], 16));
            assertEquals(row[1], hex(GlibcLog.log(x)), "fma build, x = " + Double.toHexString(x));
            assertEquals(row[2], hex(GlibcLog.logSse2(x)), "sse2 build, x = " + Double.toHexString(x));
        }
    }

    @Test
    void shouldDifferBetweenBuildsExactlyWhereGlibcDoes()
    {
        final List<String[]> rows = fixture("log-variant-differences.txt");
        // About 1 in 9,000 of the 2,000,000 inputs the fixture scanned.
        assertTrue(rows.size() > 100, "differences: " + rows.size());
        for (final String[] row : rows)
        {
            final double x = Double.longBitsToDouble(Long.parseUnsignedLong(row[0], 16));
            assertNotEquals(row[1], row[2]);
            assertEquals(row[1], hex(GlibcLog.log(x)), "fma build, x = " + Double.toHexString(x));
            assertEquals(row[2], hex(GlibcLog.logSse2(x)), "sse2 build, x = " + Double.toHexString(x));
        }
    }

    @Test
    void shouldHandleSpecialValuesLikeC()
    {
        for (final DoubleUnaryOperator log : List.<DoubleUnaryOperator>of(GlibcLog::log, GlibcLog::logSse2))
        {
            assertEquals(Double.NEGATIVE_INFINITY, log.applyAsDouble(0.0));
            assertEquals(Double.NEGATIVE_INFINITY, log.applyAsDouble(-0.0));
            assertEquals(Double.POSITIVE_INFINITY, log.applyAsDouble(Double.POSITIVE_INFINITY));
            assertTrue(Double.isNaN(log.applyAsDouble(Double.NEGATIVE_INFINITY)));
            assertTrue(Double.isNaN(log.applyAsDouble(-1.0)));
            assertTrue(Double.isNaN(log.applyAsDouble(-Double.MIN_VALUE)));
            assertTrue(Double.isNaN(log.applyAsDouble(Double.NaN)));
            assertEquals(0L, Double.doubleToRawLongBits(log.applyAsDouble(1.0)), "log(1) is +0");
            assertEquals(Math.log(2.0), log.applyAsDouble(2.0));
        }
    }

    @Test
    void shouldReproduceSplitMix64ReferenceOutput()
    {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        final LongSupplier r = splitMix64(0);
        assertEquals(0xe220a8397b1dcdafL, r.getAsLong());
        assertEquals(0x6e789e6aa1b965f4L, r.getAsLong());
        assertEquals(0x06c45d188009454fL, r.getAsLong());
    }

    private static long digest(final LongSupplier inputs, final long count, final DoubleUnaryOperator log)
    {
        long hash = 0xcbf29ce484222325L;
        for (long i = 0; i < count; i++)
        {
            final double y = log.applyAsDouble(Double.longBitsToDouble(inputs.getAsLong()));
            long bits = Double.isNaN(y) ? CANONICAL_NAN : Double.doubleToRawLongBits(y);
            for (int b = 0; b < 8; b++, bits >>>= 8)
            {
                hash = (hash ^ (bits & 0xff)) * 0x100000001b3L;
            }
        }
        return hash;
    }

    /**
     * The input classes of {@code tools/glibc-log/log_fixture.cc}, as bit patterns.
     */
    private static LongSupplier inputs(final String inputClass, final long seed)
    {
        return switch (inputClass)
        {
            case "exponential" ->
            {
                final Mt19937 g = new Mt19937(seed);
                yield () -> Double.doubleToRawLongBits(1.0 - StdRandom.generateCanonical(g));
            }
            case "near-one" ->
            {
                final LongSupplier r = splitMix64(seed);
                yield () -> NEAR_ONE_LO + Long.remainderUnsigned(r.getAsLong(), NEAR_ONE_HI - NEAR_ONE_LO);
            }
            case "bits" -> splitMix64(seed);
            case "subnormal" ->
            {
                final LongSupplier r = splitMix64(seed);
                yield () -> Long.remainderUnsigned(r.getAsLong(), 0x0010000000000000L);
            }
            default -> throw new IllegalArgumentException("unknown input class " + inputClass);
        };
    }

    private static LongSupplier splitMix64(final long seed)
    {
        final long[] state = {seed};
        return () ->
        {
            long z = state[0] += 0x9e3779b97f4a7c15L;
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        };
    }

    private static String hex(final double y)
    {
        final long bits = Double.isNaN(y) ? CANONICAL_NAN : Double.doubleToRawLongBits(y);
        return String.format("%016x", bits);
    }

    private static List<String[]> fixture(final String name)
    {
        try (InputStream in = GlibcLogTest.class.getResourceAsStream("/glibc-log/" + name))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing test resource glibc-log/" + name);
            }
            final List<String[]> rows = new ArrayList<>();
            for (final String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n"))
            {
                if (!line.isBlank() && !line.startsWith("#"))
                {
                    rows.add(line.trim().split(" +"));
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
