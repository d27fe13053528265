package org.jloadgen.sut.synthetic;

import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * A distribution of simulated service times: {@code fixed:T}, {@code uniform:MIN:MAX} or
 * {@code exponential:MEAN}, with times written as a number and a unit ({@code ns}, {@code us}, {@code ms},
 * {@code s}; bare numbers are ns), e.g. {@code exponential:250us}.
 *
 * @param kind  the distribution.
 * @param aNs   fixed value, minimum or mean.
 * @param bNs   maximum (uniform only).
 */
public record ServiceTime(Kind kind, long aNs, long bNs)
{
    /** Distribution kinds. */
    public enum Kind
    {
        /** Always the same time. */
        FIXED,
        /** Uniform between two times. */
        UNIFORM,
        /** Exponential with a mean. */
        EXPONENTIAL
    }

    /** No service time at all. */
    public static final ServiceTime ZERO = new ServiceTime(Kind.FIXED, 0, 0);

    /**
     * @param text e.g. {@code fixed:100us}.
     * @return the distribution.
     * @throws IllegalArgumentException naming the text and the accepted forms.
     */
    public static ServiceTime parse(final String text)
    {
        final String[] parts = text.trim().split(":");
        try
        {
            switch (parts[0])
            {
                case "fixed":
                    if (parts.length == 2)
                    {
                        return new ServiceTime(Kind.FIXED, parseNs(parts[1]), 0);
                    }
                    break;
                case "uniform":
                    if (parts.length == 3)
                    {
                        final long lo = parseNs(parts[1]);
                        final long hi = parseNs(parts[2]);
                        if (hi < lo)
                        {
                            throw new IllegalArgumentException("maximum below minimum");
                        }
                        return new ServiceTime(Kind.UNIFORM, lo, hi);
                    }
                    break;
                case "exponential":
                    if (parts.length == 2)
                    {
                        return new ServiceTime(Kind.EXPONENTIAL, parseNs(parts[1]), 0);
                    }
                    break;
                default:
                    break;
            }
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("bad service time '" + text + "': " + ex.getMessage()
                + " (expected fixed:T, uniform:MIN:MAX or exponential:MEAN, T like 250us)", ex);
        }
        throw new IllegalArgumentException("bad service time '" + text
            + "' (expected fixed:T, uniform:MIN:MAX or exponential:MEAN, T like 250us)");
    }

    /**
     * @param text a number with an optional unit ns, us, ms or s.
     * @return nanoseconds.
     */
    public static long parseNs(final String text)
    {
        final String t = text.trim();
        final long multiplier;
        final String number;
        if (t.endsWith("ns"))
        {
            multiplier = 1;
            number = t.substring(0, t.length() - 2);
        }
        else if (t.endsWith("us"))
        {
            multiplier = 1_000;
            number = t.substring(0, t.length() - 2);
        }
        else if (t.endsWith("ms"))
        {
            multiplier = 1_000_000;
            number = t.substring(0, t.length() - 2);
        }
        else if (t.endsWith("s"))
        {
            multiplier = 1_000_000_000;
            number = t.substring(0, t.length() - 1);
        }
        else
        {
            multiplier = 1;
            number = t;
        }
        final double value = Double.parseDouble(number);
        if (!(value >= 0) || Double.isInfinite(value))
        {
            throw new IllegalArgumentException("time must be a non-negative number: " + text);
        }
        return Math.round(value * multiplier);
    }

    /**
     * @param rng the worker's generator.
     * @return one service time in ns.
     */
    public long drawNs(final Mt19937 rng)
    {
        return switch (kind)
        {
            case FIXED -> aNs;
            case UNIFORM -> aNs + (long)(StdRandom.uniformReal01(rng) * (bNs - aNs));
            case EXPONENTIAL -> (long)(StdRandom.exponential(rng, 1.0) * aNs);
        };
    }

    /**
     * @return the mean service time in ns.
     */
    public double meanNs()
    {
        return switch (kind)
        {
            case FIXED, EXPONENTIAL -> aNs;
            case UNIFORM -> (aNs + bNs) / 2.0;
        };
    }
}
