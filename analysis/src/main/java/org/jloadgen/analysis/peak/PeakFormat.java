package org.jloadgen.analysis.peak;

import java.util.Locale;

/**
 * How the peak search prints numbers: QPS with two decimals (and no exponent, so folder names sort by run
 * number and read plainly), latencies in the unit that suits them.
 */
final class PeakFormat
{
    private PeakFormat()
    {
    }

    /**
     * @param qps a rate.
     * @return e.g. {@code 1234.56}.
     */
    static String qps(final double qps)
    {
        return String.format(Locale.ROOT, "%.2f", qps);
    }

    /**
     * @param value a number.
     * @return it with at most two decimals and no trailing zeros, e.g. {@code 99}, {@code 99.9}, {@code 0.25}.
     */
    static String number(final double value)
    {
        final String s = String.format(Locale.ROOT, "%.2f", value);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /**
     * @param ns a latency.
     * @return e.g. {@code 830 ns}, {@code 12.4 us}, {@code 8.17 ms}, {@code 1.20 s}.
     */
    static String latency(final long ns)
    {
        if (ns < 1_000)
        {
            return ns + " ns";
        }
        if (ns < 1_000_000)
        {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        if (ns < 1_000_000_000)
        {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }

    /**
     * @param ms a duration.
     * @return e.g. {@code 850 ms}, {@code 12.3 s}, {@code 4 min 05 s}.
     */
    static String duration(final long ms)
    {
        if (ms < 1_000)
        {
            return ms + " ms";
        }
        if (ms < 60_000)
        {
            return String.format(Locale.ROOT, "%.1f s", ms / 1e3);
        }
        return String.format(Locale.ROOT, "%d min %02d s", ms / 60_000, ms / 1_000 % 60);
    }
}
