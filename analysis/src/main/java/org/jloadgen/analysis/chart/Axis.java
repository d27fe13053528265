package org.jloadgen.analysis.chart;

/**
 * One axis of an {@link XyChart}: its label, its scale and how its tick values read.
 *
 * @param label       the axis title.
 * @param scale       linear, logarithmic, or HdrHistogram's percentile scale.
 * @param durationsNs whether values are nanoseconds, so ticks read as {@code 500 ns}, {@code 20 µs}, {@code 3 ms}.
 * @param wholeNumbers whether values are whole numbers (batch sizes), so a linear axis ticks at integers only.
 */
public record Axis(String label, Scale scale, boolean durationsNs, boolean wholeNumbers)
{
    /**
     * How values map onto the axis.
     */
    public enum Scale
    {
        /** Equal distances for equal differences. */
        LINEAR,
        /** Equal distances for equal ratios; values at or below zero are left out. */
        LOG,
        /**
         * Percentiles (0 to below 100) placed at {@code log(1 / (1 - p/100))}, as HdrHistogram's plotter does, so
         * 90%, 99%, 99.9% and 99.99% are equally spaced; ticks read as percentiles.
         */
        PERCENTILE
    }

    /**
     * @param label the axis title.
     * @return a linear axis of plain numbers.
     */
    public static Axis linear(final String label)
    {
        return new Axis(label, Scale.LINEAR, false, false);
    }

    /**
     * @param label the axis title.
     * @return a logarithmic axis of plain numbers.
     */
    public static Axis log(final String label)
    {
        return new Axis(label, Scale.LOG, false, false);
    }

    /**
     * @param label the axis title.
     * @return a percentile axis (values are percentiles, 0 to below 100).
     */
    public static Axis percentile(final String label)
    {
        return new Axis(label, Scale.PERCENTILE, false, false);
    }

    /**
     * @return this axis with values in nanoseconds, ticks in readable units.
     */
    public Axis nanoseconds()
    {
        return new Axis(label, scale, true, wholeNumbers);
    }

    /**
     * @return this axis with whole-number values: ticks at integers only.
     */
    public Axis integers()
    {
        return new Axis(label, scale, durationsNs, true);
    }
}
