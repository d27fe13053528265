package org.jloadgen.cli.api;

import picocli.CommandLine.Option;

/**
 * The size of the synthetic sample library, shared by {@code run} and {@code trace}: {@code --qsl-total} and
 * {@code --qsl-performance}, checked against each other.
 */
public final class QslOptions
{
    @Option(names = "--qsl-total", paramLabel = "N", defaultValue = "1024",
        description = "Total sample count of the synthetic sample library (default: ${DEFAULT-VALUE}).")
    long total;

    @Option(names = "--qsl-performance", paramLabel = "P",
        description = "Performance sample count of the synthetic sample library, at most the total (default: the "
            + "total).")
    Long performance;

    /**
     * @return {@code --qsl-total}.
     * @throws IllegalArgumentException when it is not positive.
     */
    public long total()
    {
        OptionChecks.atLeast("--qsl-total", total, 1);
        return total;
    }

    /**
     * @return {@code --qsl-performance}, the total when not given.
     * @throws IllegalArgumentException when it is not positive or exceeds {@code --qsl-total}.
     */
    public long performance()
    {
        final long t = total();
        if (performance == null)
        {
            return t;
        }
        OptionChecks.atLeast("--qsl-performance", performance, 1);
        if (performance > t)
        {
            throw new IllegalArgumentException("--qsl-performance " + performance + " exceeds --qsl-total " + t
                + ": the performance samples are a part of the library");
        }
        return performance;
    }
}
