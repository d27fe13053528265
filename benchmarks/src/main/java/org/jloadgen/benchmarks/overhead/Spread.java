package org.jloadgen.benchmarks.overhead;

import java.util.Arrays;
import java.util.List;

/**
 * Minimum, median and maximum of a figure over the repeats of a configuration.
 *
 * @param min    smallest value.
 * @param median median (the mean of the two middle values for an even count).
 * @param max    largest value.
 * @param count  number of values.
 */
public record Spread(double min, double median, double max, int count)
{
    /**
     * @param values at least one value.
     * @return their spread.
     * @throws IllegalArgumentException if there is none or one is NaN.
     */
    public static Spread of(final List<Double> values)
    {
        if (values.isEmpty())
        {
            throw new IllegalArgumentException("no values");
        }
        final double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++)
        {
            v[i] = values.get(i);
            if (Double.isNaN(v[i]))
            {
                throw new IllegalArgumentException("NaN among " + values);
            }
        }
        Arrays.sort(v);
        final int n = v.length;
        final double median = (n & 1) == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Spread(v[0], median, v[n - 1], n);
    }
}
