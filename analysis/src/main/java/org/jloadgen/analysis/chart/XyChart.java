package org.jloadgen.analysis.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.TickUnits;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * An XY chart described by data and a few choices (axes, series, horizontal bound lines, shaded x ranges), turned
 * into a JFreeChart by {@link #toJFreeChart()} and written by {@link ChartFiles}. This is the only place that knows
 * JFreeChart: everything else hands it arrays.
 */
public final class XyChart
{
    /** Colours of series by index: distinguishable, and still readable in grey. */
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd), new Color(0x8c564b),
        new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22), new Color(0x7f7f7f)};
    private static final Color BOUND = new Color(0xd62728);
    private static final Color BAND = new Color(0xd6, 0x27, 0x28, 0x30);
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 15);

    private final String title;
    private final Axis x;
    private final Axis y;
    private final List<Series> series = new ArrayList<>();
    private final List<Bound> bounds = new ArrayList<>();
    private final List<double[]> bands = new ArrayList<>();
    private String subtitle;

    private record Bound(double y, String label, int colorIndex)
    {
    }

    private XyChart(final String title, final Axis x, final Axis y)
    {
        this.title = title;
        this.x = x;
        this.y = y;
    }

    /**
     * @param title the chart title.
     * @param x     the horizontal axis.
     * @param y     the vertical axis.
     * @return an empty chart.
     */
    public static XyChart of(final String title, final Axis x, final Axis y)
    {
        return new XyChart(title, x, y);
    }

    /**
     * @param text a line under the title (what the chart shows, how to read it), or {@code null}.
     * @return this.
     */
    public XyChart subtitle(final String text)
    {
        this.subtitle = text;
        return this;
    }

    /**
     * @param s a series to draw.
     * @return this.
     */
    public XyChart add(final Series s)
    {
        series.add(s);
        return this;
    }

    /**
     * Draws a horizontal dashed red line across the chart, with a legend entry (a latency bound, a target).
     *
     * @param value where, in y units.
     * @param label the legend entry.
     * @return this.
     */
    public XyChart bound(final double value, final String label)
    {
        bounds.add(new Bound(value, label, -1));
        return this;
    }

    /**
     * Draws a horizontal dashed line across the chart in a run's colour, with a legend entry (one run's target or
     * bound among several).
     *
     * @param value      where, in y units.
     * @param label      the legend entry.
     * @param colorIndex index into the palette, as the run's series.
     * @return this.
     */
    public XyChart bound(final double value, final String label, final int colorIndex)
    {
        bounds.add(new Bound(value, label, colorIndex));
        return this;
    }

    /**
     * Shades the x range {@code [from, to]} (a pause, a phase).
     *
     * @param from start, in x units.
     * @param to   end, in x units.
     * @return this.
     */
    public XyChart band(final double from, final double to)
    {
        bands.add(new double[] {from, Math.max(from, to)});
        return this;
    }

    /**
     * @return the chart title.
     */
    public String title()
    {
        return title;
    }

    /**
     * @return the series, in drawing order.
     */
    public List<Series> series()
    {
        return List.copyOf(series);
    }

    /**
     * @return the legend entries of the bound lines.
     */
    public List<String> boundLabels()
    {
        return bounds.stream().map(Bound::label).toList();
    }

    /**
     * @return the horizontal axis.
     */
    public Axis xAxis()
    {
        return x;
    }

    /**
     * @return the line under the title, or {@code null}.
     */
    public String subtitleText()
    {
        return subtitle;
    }

    /**
     * @return whether the chart has at least one point to draw (bound lines do not count).
     */
    public boolean hasData()
    {
        for (final Series s : series)
        {
            for (int i = 0; i < s.x().length; i++)
            {
                if (drawable(x, s.x()[i]) && drawable(y, s.y()[i]))
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return the JFreeChart that draws this chart.
     */
    public JFreeChart toJFreeChart()
    {
        final XYPlot plot = new XYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        double minX = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = 0;
        int dataset = 0;
        int nextColor = 0;
        for (final Series s : series)
        {
            final XYSeries points = new XYSeries(s.name(), false, true);
            for (int i = 0; i < s.x().length; i++)
            {
                final double px = s.x()[i];
                final double py = s.y()[i];
                if (drawable(x, px) && drawable(y, py))
                {
                    points.add(toAxis(x, px), py);
                    minX = Math.min(minX, toAxis(x, px));
                    maxX = Math.max(maxX, toAxis(x, px));
                    maxY = Math.max(maxY, Math.abs(toAxis(y, py)));
                }
            }
            final int color = s.colorIndex() >= 0 ? s.colorIndex() : nextColor++;
            plot.setDataset(dataset, new XYSeriesCollection(points));
            plot.setRenderer(dataset, renderer(s, PALETTE[Math.floorMod(color, PALETTE.length)]));
            dataset++;
        }
        for (final Bound b : bounds)
        {
            // A two-point series rather than a marker: it gets a legend entry and the axis range includes it.
            final XYSeries line = new XYSeries(b.label(), false, true);
            final double from = Double.isFinite(minX) ? minX : toAxis(x, x.scale() == Axis.Scale.LINEAR ? 0 : 1);
            final double to = Double.isFinite(maxX) && maxX > from ? maxX : from + 1;
            line.add(from, b.y());
            line.add(to, b.y());
            maxY = Math.max(maxY, Math.abs(toAxis(y, b.y())));
            plot.setDataset(dataset, new XYSeriesCollection(line));
            final XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
            r.setSeriesPaint(0, b.colorIndex() < 0 ? BOUND : PALETTE[Math.floorMod(b.colorIndex(), PALETTE.length)]);
            r.setSeriesStroke(0, new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {8f, 5f}, 0f));
            plot.setRenderer(dataset, r);
            dataset++;
        }
        // The axes come last, so they range over all the data at once. JFreeChart widens a range of one value by an
        // absolute minimum (1e-8 by default), which vanishes next to values like 1e7 ns and leaves a log axis with
        // an empty range (an exception); a minimum relative to the values keeps one point or one flat line drawable.
        plot.setDomainAxis(axis(x, Math.max(Math.abs(minX), Math.abs(maxX))));
        plot.setRangeAxis(axis(y, maxY));
        for (final double[] band : bands)
        {
            final IntervalMarker marker = new IntervalMarker(toAxis(x, band[0]), toAxis(x, band[1]));
            marker.setPaint(BAND);
            plot.addDomainMarker(marker);
        }
        final JFreeChart chart = new JFreeChart(title, TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        if (subtitle != null)
        {
            chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 11)));
        }
        return chart;
    }

    private static XYItemRenderer renderer(final Series s, final Paint paint)
    {
        if (s.style() == Series.Style.BARS)
        {
            final XYBarRenderer bars = new XYBarRenderer(0.1);
            bars.setBarPainter(new StandardXYBarPainter());
            bars.setShadowVisible(false);
            bars.setSeriesPaint(0, paint);
            return bars;
        }
        if (s.style() == Series.Style.STEPS)
        {
            final XYStepRenderer steps = new XYStepRenderer();
            steps.setSeriesPaint(0, paint);
            steps.setSeriesShapesVisible(0, false);
            steps.setSeriesStroke(0, s.dashedLine()
                ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f)
                : new BasicStroke(1.5f));
            return steps;
        }
        final boolean lines = s.style() != Series.Style.POINTS;
        final boolean shapes = s.style() != Series.Style.LINE;
        final XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(lines, shapes);
        r.setSeriesPaint(0, paint);
        r.setSeriesShape(0, new Ellipse2D.Double(-2.5, -2.5, 5, 5));
        final Stroke stroke = s.dashedLine()
            ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f)
            : new BasicStroke(1.5f);
        r.setSeriesStroke(0, stroke);
        return r;
    }

    private static boolean drawable(final Axis axis, final double value)
    {
        if (!Double.isFinite(value))
        {
            return false;
        }
        return switch (axis.scale())
        {
            case LINEAR -> true;
            case LOG -> value > 0;
            case PERCENTILE -> value >= 0 && value < 100;
        };
    }

    /** Percentile p sits at 1/(1-p/100) on a log axis; other values sit where they are. */
    private static double toAxis(final Axis axis, final double value)
    {
        return axis.scale() == Axis.Scale.PERCENTILE ? 1 / (1 - value / 100) : value;
    }

    private static ValueAxis axis(final Axis spec, final double magnitude)
    {
        final double minimumRange = Double.isFinite(magnitude) && magnitude > 0 ? magnitude * 1e-3 : 1e-8;
        if (spec.scale() == Axis.Scale.LINEAR)
        {
            final NumberAxis axis = new NumberAxis(spec.label());
            axis.setAutoRangeIncludesZero(false);
            axis.setAutoRangeMinimumSize(minimumRange);
            if (spec.durationsNs())
            {
                axis.setNumberFormatOverride(new TickFormat(false, true));
            }
            if (spec.wholeNumbers())
            {
                axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
            }
            return axis;
        }
        if (spec.scale() == Axis.Scale.LOG)
        {
            final LogAxis axis = new ReadableLogAxis(spec.label(), new TickFormat(false, spec.durationsNs()));
            axis.setAutoRangeMinimumSize(minimumRange);
            axis.setBase(10);
            axis.setSmallestValue(1e-9);
            return axis;
        }
        final LogAxis axis = new LogAxis(spec.label());
        axis.setAutoRangeMinimumSize(minimumRange);
        axis.setBase(10);
        axis.setSmallestValue(1);
        axis.setNumberFormatOverride(new TickFormat(true, spec.durationsNs()));
        // Percentiles: ticks at whole powers of ten (90%, 99%, 99.9%), never at half decades (68%).
        final TickUnits decades = new TickUnits();
        for (int exponentStep = 1; exponentStep <= 4; exponentStep++)
        {
            decades.add(new NumberTickUnit(exponentStep));
        }
        axis.setStandardTickUnits(decades);
        return axis;
    }

    /**
     * Tick labels: percentiles from their log position, or nanoseconds in the unit that reads best, or plain numbers
     * without exponents.
     */
    static final class TickFormat extends NumberFormat
    {
        private static final long serialVersionUID = 1L;
        private final boolean percentile;
        private final boolean nanoseconds;

        TickFormat(final boolean percentile, final boolean nanoseconds)
        {
            this.percentile = percentile;
            this.nanoseconds = nanoseconds;
        }

        @Override
        public StringBuffer format(final double number, final StringBuffer toAppendTo, final FieldPosition pos)
        {
            if (percentile)
            {
                return toAppendTo.append(percentileLabel(100 * (1 - 1 / number)));
            }
            return toAppendTo.append(nanoseconds ? Durations.format(number) : plain(number));
        }

        @Override
        public StringBuffer format(final long number, final StringBuffer toAppendTo, final FieldPosition pos)
        {
            return format((double)number, toAppendTo, pos);
        }

        @Override
        public Number parse(final String source, final ParsePosition parsePosition)
        {
            // Axes only format.
            return null;
        }

        static String percentileLabel(final double p)
        {
            if (p <= 0)
            {
                return "0%";
            }
            // As many decimals as the nines need: 90%, 99%, 99.9%, 99.99%...
            final int decimals = Math.max(0, (int)Math.ceil(-Math.log10(100 - p) - 1e-6));
            return String.format(Locale.ROOT, "%." + decimals + "f%%", p);
        }

        private static String plain(final double v)
        {
            if (v == Math.rint(v) && Math.abs(v) < 1e15)
            {
                return String.format(Locale.ROOT, "%,d", (long)v);
            }
            return String.format(Locale.ROOT, "%.3g", v);
        }
    }
}
