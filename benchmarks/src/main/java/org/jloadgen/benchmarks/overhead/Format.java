package org.jloadgen.benchmarks.overhead;

import java.util.Locale;

/**
 * How a figure is printed in the table: three significant digits and the unit people read it in.
 */
public enum Format
{
    /** A rate: {@code 573k/s}, {@code 5.89M/s}. */
    RATE
    {
        @Override
        public String format(final double value)
        {
            return si(value) + "/s";
        }
    },
    /** A target rate (QPS), no unit: {@code 1.5M}. */
    COUNT
    {
        @Override
        public String format(final double value)
        {
            return si(value);
        }
    },
    /** A latency given in ns: {@code 56 ns}, {@code 9.66 µs}, {@code 1.99 ms}. */
    NANOS
    {
        @Override
        public String format(final double value)
        {
            final double abs = Math.abs(value);
            if (abs < 1e3)
            {
                return String.format(Locale.ROOT, "%.0f ns", value);
            }
            if (abs < 1e6)
            {
                return digits3(value / 1e3) + " µs";
            }
            if (abs < 1e9)
            {
                return digits3(value / 1e6) + " ms";
            }
            return digits3(value / 1e9) + " s";
        }
    },
    /** Bytes: {@code 26.2 B}. */
    BYTES
    {
        @Override
        public String format(final double value)
        {
            return digits3(value) + " B";
        }
    },
    /** A plain ratio: {@code 1.07}. */
    RATIO
    {
        @Override
        public String format(final double value)
        {
            return String.format(Locale.ROOT, "%.2f", value);
        }
    };

    /**
     * @param value the figure.
     * @return its text.
     */
    public abstract String format(double value);

    /**
     * @param value a number.
     * @return three significant digits with k/M/G: {@code 573k}, {@code 5.89M}, {@code 10.0k}, {@code 512}.
     */
    static String si(final double value)
    {
        final double abs = Math.abs(value);
        if (abs >= 1e9)
        {
            return digits3(value / 1e9) + "G";
        }
        if (abs >= 1e6)
        {
            return digits3(value / 1e6) + "M";
        }
        if (abs >= 1e3)
        {
            return digits3(value / 1e3) + "k";
        }
        return digits3(value);
    }

    /**
     * @param value a number.
     * @return it with three significant digits (no exponent, at least the integer part).
     */
    static String digits3(final double value)
    {
        final double abs = Math.abs(value);
        if (abs >= 100 || abs == 0)
        {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (abs >= 10)
        {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (abs >= 1)
        {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }
}
