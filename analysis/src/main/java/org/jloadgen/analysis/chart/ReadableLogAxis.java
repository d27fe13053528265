package org.jloadgen.analysis.chart;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.TickType;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;

/**
 * A logarithmic axis whose labels fall between decades too: at 1, 2 and 5 times each power of ten where the axis
 * spans up to three decades, at 1 and 3 up to five, at decades beyond; unlabelled minor ticks at the other whole
 * multiples. JFreeChart's own {@link LogAxis} labels whole powers only, which leaves a one-decade latency axis with
 * two labels.
 */
final class ReadableLogAxis extends LogAxis
{
    private static final long serialVersionUID = 1L;
    private static final int[] ONE_TWO_FIVE = {1, 2, 5};
    private static final int[] ONE_THREE = {1, 3};
    private static final int[] ONE = {1};

    private final NumberFormat format;

    ReadableLogAxis(final String label, final NumberFormat format)
    {
        super(label);
        this.format = format;
    }

    @Override
    @SuppressWarnings("rawtypes") // JFreeChart 1.5's Axis declares the raw List this overrides.
    protected List refreshTicksHorizontal(final Graphics2D g2, final Rectangle2D dataArea, final RectangleEdge edge)
    {
        return ticks(true, edge);
    }

    @Override
    @SuppressWarnings("rawtypes") // JFreeChart 1.5's Axis declares the raw List this overrides.
    protected List refreshTicksVertical(final Graphics2D g2, final Rectangle2D dataArea, final RectangleEdge edge)
    {
        return ticks(false, edge);
    }

    private List<NumberTick> ticks(final boolean horizontal, final RectangleEdge edge)
    {
        final double lower = Math.max(getLowerBound(), getSmallestValue());
        final double upper = getUpperBound();
        final List<NumberTick> ticks = new ArrayList<>();
        if (!(upper > lower) || !(lower > 0))
        {
            return ticks;
        }
        final double decades = Math.log10(upper / lower);
        final int[] labelled = decades <= 3 ? ONE_TWO_FIVE : decades <= 5 ? ONE_THREE : ONE;
        final TextAnchor anchor = horizontal
            ? edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER
            : edge == RectangleEdge.LEFT ? TextAnchor.CENTER_RIGHT : TextAnchor.CENTER_LEFT;
        for (int exponent = (int)Math.floor(Math.log10(lower)); exponent <= (int)Math.ceil(Math.log10(upper));
            exponent++)
        {
            final double decade = Math.pow(10, exponent);
            for (int m = 1; m <= 9; m++)
            {
                final double value = m * decade;
                if (value < lower || value > upper)
                {
                    continue;
                }
                final boolean major = contains(labelled, m);
                if (!major && decades > 5)
                {
                    continue;
                }
                ticks.add(new NumberTick(major ? TickType.MAJOR : TickType.MINOR, value,
                    major ? format.format(value) : "", anchor, TextAnchor.CENTER, 0.0));
            }
        }
        return ticks;
    }

    private static boolean contains(final int[] values, final int v)
    {
        for (final int x : values)
        {
            if (x == v)
            {
                return true;
            }
        }
        return false;
    }
}
