package org.jloadgen.analysis.chart;

import java.util.Locale;

/**
 * Nanosecond values in the unit that reads best ({@code 850 ns}, {@code 12.5 µs}, {@code 3 ms}, {@code 1.2 s}), for
 * tick labels and tables.
 */
public final class Durations
{
    private Durations()
    {
    }

    /**
     * @param ns a duration in nanoseconds.
     * @return it in ns, µs, ms or s with at most three significant digits.
     */
    public static String format(final double ns)
    {
        final double abs = Math.abs(ns);
        if (abs < 1_000)
        {
            return number(ns) + " ns";
        }
        if (abs < 1_000_000)
        {
            return number(ns / 1e3) + " µs";
        }
        if (abs < 1_000_000_000)
        {
            return number(ns / 1e6) + " ms";
        }
        return number(ns / 1e9) + " s";
    }

    private static String number(final double v)
    {
        final String s = String.format(Locale.ROOT, "%.3g", v);
        // %.3g keeps trailing zeros ("10.0", "1.50"): drop them and a dangling point.
        if (s.contains(".") && !s.contains("e"))
        {
            return s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}
