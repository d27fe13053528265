package org.jloadgen.analysis.chart;

import java.util.Objects;

/**
 * One data series of an {@link XyChart}: points {@code (x[i], y[i])} drawn in one style and colour.
 *
 * @param name       the legend entry.
 * @param x          x values.
 * @param y          y values, as many as {@code x}.
 * @param style      how the points are drawn.
 * @param colorIndex index into the chart palette, or -1 for the next unused colour.
 * @param dashedLine whether a line is dashed.
 */
public record Series(String name, double[] x, double[] y, Style style, int colorIndex, boolean dashedLine)
{
    /**
     * How a series is drawn.
     */
    public enum Style
    {
        /** Points joined by straight lines. */
        LINE,
        /** Points joined by lines, each point marked. */
        LINE_AND_POINTS,
        /** Marks only. */
        POINTS,
        /** Vertical bars from zero, as wide as the closest x spacing. */
        BARS,
        /**
         * A step line: each value holds until the next point's x (interval data: a value per interval, from its
         * start to its end, with no slope made up between intervals).
         */
        STEPS
    }

    /**
     * @throws IllegalArgumentException if {@code x} and {@code y} differ in length.
     */
    public Series
    {
        Objects.requireNonNull(name, "name");
        if (x.length != y.length)
        {
            throw new IllegalArgumentException("series '" + name + "': " + x.length + " x values, " + y.length
                + " y values");
        }
    }

    /**
     * @param name legend entry.
     * @param x    x values.
     * @param y    y values.
     * @return a line series in the next colour.
     */
    public static Series line(final String name, final double[] x, final double[] y)
    {
        return new Series(name, x, y, Style.LINE, -1, false);
    }

    /**
     * @param name legend entry.
     * @param x    x values.
     * @param y    y values.
     * @return a series of marks in the next colour.
     */
    public static Series points(final String name, final double[] x, final double[] y)
    {
        return new Series(name, x, y, Style.POINTS, -1, false);
    }

    /**
     * @param name legend entry.
     * @param x    x values (bar centres).
     * @param y    bar heights.
     * @return a bar series in the next colour.
     */
    public static Series bars(final String name, final double[] x, final double[] y)
    {
        return new Series(name, x, y, Style.BARS, -1, false);
    }

    /**
     * A step line over intervals: each interval's value from its start to its end.
     *
     * @param name   legend entry.
     * @param starts interval starts.
     * @param ends   interval ends, as many as {@code starts}.
     * @param y      a value per interval.
     * @return a step series in the next colour.
     */
    public static Series steps(final String name, final double[] starts, final double[] ends, final double[] y)
    {
        if (starts.length == 0)
        {
            return new Series(name, starts, y, Style.STEPS, -1, false);
        }
        final double[] x = java.util.Arrays.copyOf(starts, starts.length + 1);
        x[starts.length] = ends[ends.length - 1];
        final double[] held = java.util.Arrays.copyOf(y, y.length + 1);
        held[y.length] = y[y.length - 1];
        return new Series(name, x, held, Style.STEPS, -1, false);
    }

    /**
     * @param value how the points are drawn.
     * @return this series in that style.
     */
    public Series style(final Style value)
    {
        return new Series(name, x, y, value, colorIndex, dashedLine);
    }

    /**
     * @param index index into the chart palette (wraps around).
     * @return this series in that colour (series of one run share a colour across charts).
     */
    public Series color(final int index)
    {
        return new Series(name, x, y, style, index, dashedLine);
    }

    /**
     * @return this series with a dashed line.
     */
    public Series dashed()
    {
        return new Series(name, x, y, style, colorIndex, true);
    }
}
