package org.jloadgen.analysis.report;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.jloadgen.analysis.chart.Axis;
import org.jloadgen.analysis.chart.Durations;
import org.jloadgen.analysis.chart.Series;
import org.jloadgen.analysis.chart.XyChart;
import org.jloadgen.sut.SutStatistics;

/**
 * The parts of a Server run's latency side by side: the whole (scheduled time to completion, as LoadGen measures
 * it), the harness's issue lateness (scheduled time to the SUT's {@code issueQuery}), and the SUT's own stages from
 * {@code sut_stats.txt} (hand-off to a worker, the model's run...), at every percentile and over time. The jitter
 * hunter's question is which part makes the tail: a part whose p99 is close to the latency's p99 is most of it.
 */
final class LatencyBreakdown
{
    /** How to read the percentile view. */
    static final String PERCENTILES_CAPTION = "Server: the parts of the latency at every percentile. Latency runs "
        + "from each query's scheduled time to its completion; issue lateness from its scheduled time to the SUT's "
        + "issueQuery (the harness's own part, counted fully into latency); the SUT's stages (per batch, from "
        + "sut_stats.txt where the SUT writes it) are its hand-off to a worker and its service. The legend gives each "
        + "part's p50, p99 and maximum, and its p99 as a share of the latency's p99. The parts' percentiles are each "
        + "over all queries (or batches), not a split of the same queries, so they need not add up: a part whose "
        + "curve runs close to the latency's at the tail is most of the tail.";
    /** How to read the over-time view. */
    static final String OVER_TIME_CAPTION = "Server: per 1 s interval, the latency's p99 and p50 (by completion "
        + "time) beside the issue lateness's p99 and p50 (by scheduled time). Where the lateness p99 climbs to the "
        + "latency p99, the harness's lateness (its wait strategy, a busy or paused issue thread) is the tail in that "
        + "interval; where latency rises alone, the SUT (its queue or its service) is.";

    private LatencyBreakdown()
    {
    }

    /**
     * @param runs the runs.
     * @return the percentile view of the first Server run with both latency and issue-lateness logs, or {@code null}.
     */
    static XyChart atPercentiles(final List<RunData> runs)
    {
        final RunData run = serverRun(runs);
        if (run == null)
        {
            return null;
        }
        final Histogram latency = run.latency().total();
        final double latencyP99 = latency.getValueAtPercentile(99);
        final XyChart chart = XyChart.of("Latency breakdown" + (runs.size() == 1 ? "" : " (" + run.name() + ")"),
            Axis.percentile("percentile"), Axis.log("time").nanoseconds());
        add(chart, "latency", latency, latencyP99, 0, false);
        add(chart, "issue lateness", run.lateness().total(), latencyP99, 1, false);
        final SutStatistics.Snapshot stats = run.sutStats();
        if (stats != null)
        {
            int color = 2;
            for (final SutStatistics.StageTimes stage : stats.stages())
            {
                if (stage.histogram().getTotalCount() > 0)
                {
                    add(chart, "SUT " + stage.name() + " (per batch)", stage.histogram(), latencyP99, color++, true);
                }
            }
        }
        else
        {
            chart.subtitle("no sut_stats.txt: the SUT's own stages are not known");
        }
        return chart;
    }

    /**
     * @param runs the runs.
     * @return the over-time view of the first Server run with both logs, or {@code null}.
     */
    static XyChart overTime(final List<RunData> runs)
    {
        final RunData run = serverRun(runs);
        if (run == null)
        {
            return null;
        }
        final XyChart chart = XyChart.of("Latency and issue lateness over time"
            + (runs.size() == 1 ? "" : " (" + run.name() + ")"), Axis.linear("time since the start of issuing (s)"),
            Axis.log("time").nanoseconds());
        final HistogramSeries latency = run.latency();
        final HistogramSeries lateness = run.lateness();
        chart.add(Series.steps("latency p99", ReportCharts.intervalStarts(latency), ReportCharts.intervalEnds(latency),
            ReportCharts.percentile(latency, 99)).color(0));
        chart.add(Series.steps("latency p50", ReportCharts.intervalStarts(latency), ReportCharts.intervalEnds(latency),
            ReportCharts.percentile(latency, 50)).color(0).dashed());
        chart.add(Series.steps("issue lateness p99", ReportCharts.intervalStarts(lateness),
            ReportCharts.intervalEnds(lateness), ReportCharts.percentile(lateness, 99)).color(1));
        chart.add(Series.steps("issue lateness p50", ReportCharts.intervalStarts(lateness),
            ReportCharts.intervalEnds(lateness), ReportCharts.percentile(lateness, 50)).color(1).dashed());
        return chart;
    }

    private static RunData serverRun(final List<RunData> runs)
    {
        for (final RunData run : runs)
        {
            if (run.latency() != null && run.lateness() != null && run.lateness().total().getTotalCount() > 0
                && run.latency().total().getTotalCount() > 0)
            {
                return run;
            }
        }
        return null;
    }

    private static void add(final XyChart chart, final String part, final Histogram h, final double latencyP99,
        final int color, final boolean dashed)
    {
        final double p99 = h.getValueAtPercentile(99);
        final String name = String.format(Locale.ROOT, "%s: p50 %s, p99 %s (%.0f%% of latency p99), max %s", part,
            Durations.format(h.getValueAtPercentile(50)), Durations.format(p99),
            latencyP99 > 0 ? 100 * p99 / latencyP99 : 0, Durations.format(h.getMaxValue()));
        final double[][] xy = curve(h);
        final Series s = Series.line(name, xy[0], xy[1]).color(color);
        chart.add(dashed ? s.dashed() : s);
    }

    /** HdrHistogram's percentile curve to 99.9999%, at most a few hundred points. */
    private static double[][] curve(final Histogram h)
    {
        final java.util.List<double[]> points = new java.util.ArrayList<>();
        final Iterator<HistogramIterationValue> it = h.percentiles(5).iterator();
        while (it.hasNext())
        {
            final HistogramIterationValue v = it.next();
            final double p = v.getPercentileLevelIteratedTo();
            if (p >= 99.9999)
            {
                break;
            }
            points.add(new double[] {p, h.highestEquivalentValue(v.getValueIteratedTo())});
        }
        return new double[][] {points.stream().mapToDouble(v -> v[0]).toArray(),
            points.stream().mapToDouble(v -> v[1]).toArray()};
    }
}
