package org.jloadgen.analysis.report;

import java.time.Duration;
import java.util.ArrayList;
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
 * The report's charts, built from the runs' data: with one run each chart shows that run in detail, with several the
 * runs are overlaid, one colour per run.
 */
final class ReportCharts
{
    /** Percentiles drawn over time for a single run. */
    private static final double[] OVER_TIME_PERCENTILES = {50, 90, 99, 99.9};
    /** Summary percentiles LoadGen writes, for runs without interval logs. */
    private static final String[] SUMMARY_PERCENTILES = {"50.00", "90.00", "95.00", "97.00", "99.00", "99.90"};
    /** Colour indices of pause kinds, after the runs' colours. */
    private static final int PAUSE_COLOR = 4;

    private ReportCharts()
    {
    }

    /**
     * One chart of the page.
     *
     * @param id      file name and element id ({@code latency-over-time}).
     * @param chart   the chart.
     * @param caption how to read it (HTML-escaped by the page).
     */
    record Named(String id, XyChart chart, String caption)
    {
    }

    /**
     * @param runs the runs, in the order given.
     * @return the charts that have data, in page order.
     */
    static List<Named> build(final List<RunData> runs)
    {
        final boolean single = runs.size() == 1;
        final List<Named> charts = new ArrayList<>();
        add(charts, "latency-over-time", latencyOverTime(runs, single),
            "Sample latency per interval of the reported series (Server: from each query's scheduled time, as "
                + "LoadGen measures it). " + (single ? "Lines are the interval's p50, p90, p99, p99.9 and maximum; "
                + "marks are JVM pauses from the flight recording at the time they happened, their height their "
                + "length, shaded when 1 ms or longer: a latency spike over a pause was caused by it."
                : "Solid lines are each run's p99, dashed its maximum.")
                + " The red dashed line is the Server latency bound (none for a run judged on TTFT and TPOT: their "
                + "bounds are on their own charts).");
        add(charts, "throughput", throughput(runs),
            "Completed samples per second in each interval; the red dashed line is the Server target QPS. A dip "
                + "with a latency spike is a stall; a rate below the target with latency growing interval after "
                + "interval is a SUT past its capacity.");
        add(charts, "percentile-spectrum", spectrum(runs),
            "Latency at each percentile over the whole series, on HdrHistogram's percentile scale (90%, 99%, 99.9% "
                + "equally spaced). Where the curve crosses the bound at the target percentile decides Server "
                + "validity. Runs without an interval log show the summary's percentiles as points.");
        add(charts, "ttft-spectrum", TokenCharts.ttft(runs), TokenCharts.TTFT_CAPTION);
        add(charts, "tpot-spectrum", TokenCharts.tpot(runs), TokenCharts.TPOT_CAPTION);
        add(charts, "itl-over-time", TokenCharts.itlOverTime(runs), TokenCharts.ITL_CAPTION);
        add(charts, "requests-over-time", TokenCharts.requestsOverTime(runs), TokenCharts.REQUESTS_CAPTION);
        add(charts, "issue-lateness", latenessDistribution(runs),
            "Server issue lateness: how long after its scheduled time each query reached the SUT's issueQuery, as a "
                + "distribution (queries per logarithmic bucket). This is the harness's own jitter (wait strategy, "
                + "a busy issue thread, inline SUT work, pauses) and counts fully into latency.");
        add(charts, "issue-lateness-over-time", latenessOverTime(runs, single),
            "Issue lateness per interval of scheduled time: " + (single ? "p50, p99 and maximum."
                : "each run's p99 (solid) and maximum (dashed).") + " Lateness that grows steadily means the issue "
                + "thread cannot keep up (an inline SUT slower than the arrival rate); isolated spikes are stalls.");
        add(charts, "batch-sizes", batchSizes(runs),
            "Batches the SUT ran, by size (from sut_stats.txt). Many small batches under load mean the batcher's "
                + "timeout fires before batches fill; only full batches mean the SUT is saturated.");
        add(charts, "stage-times", stageTimes(runs), stageCaption(runs));
        add(charts, "latency-breakdown", LatencyBreakdown.atPercentiles(runs), LatencyBreakdown.PERCENTILES_CAPTION);
        add(charts, "latency-breakdown-over-time", LatencyBreakdown.overTime(runs),
            LatencyBreakdown.OVER_TIME_CAPTION);
        return charts;
    }

    private static void add(final List<Named> charts, final String id, final XyChart chart, final String caption)
    {
        if (chart != null && chart.hasData())
        {
            charts.add(new Named(id, chart, caption));
        }
    }

    private static XyChart latencyOverTime(final List<RunData> runs, final boolean single)
    {
        final XyChart chart = XyChart.of("Latency over time", Axis.linear("time since the start of issuing (s)"),
            Axis.log("latency").nanoseconds());
        for (int r = 0; r < runs.size(); r++)
        {
            final RunData run = runs.get(r);
            final HistogramSeries s = run.latency();
            if (s == null)
            {
                continue;
            }
            final double[] from = intervalStarts(s);
            final double[] to = intervalEnds(s);
            if (single)
            {
                for (final double p : OVER_TIME_PERCENTILES)
                {
                    chart.add(Series.steps("p" + trim(p), from, to, percentile(s, p)));
                }
                chart.add(Series.steps("max", from, to, max(s)).dashed());
                addPauses(chart, run, -1);
            }
            else
            {
                chart.add(Series.steps(run.name() + " p99", from, to, percentile(s, 99)).color(r));
                chart.add(Series.steps(run.name() + " max", from, to, max(s)).color(r).dashed());
                addPauses(chart, run, r);
            }
        }
        addBound(chart, runs);
        return chart;
    }

    /**
     * JVM pauses as marks at the time they happened, as high as they lasted: one series per kind for a single run
     * (shaded when 1 ms or longer), one per run in the run's colour ({@code runColor}) among several. The issue
     * thread's own parks (the HYBRID wait parking on purpose, thousands of them) are left off: the figures table
     * counts them.
     */
    private static void addPauses(final XyChart chart, final RunData run, final int runColor)
    {
        final JvmPauses pauses = run.pauses();
        final HistogramSeries s = run.latency();
        if (pauses == null || s.startEpochMs() == 0)
        {
            return;
        }
        final double[] ends = intervalEnds(s);
        final double endS = ends.length == 0 ? 0 : ends[ends.length - 1];
        int color = PAUSE_COLOR;
        final List<double[]> all = new ArrayList<>();
        int parks = 0;
        for (final JvmPauses.Kind kind : JvmPauses.Kind.values())
        {
            final List<double[]> points = new ArrayList<>();
            for (final JvmPauses.Pause p : pauses.pauses())
            {
                final double atS = (p.start().toEpochMilli() - s.startEpochMs()) / 1e3
                    + (p.start().getNano() % 1_000_000) / 1e9;
                if (p.kind() != kind || atS < 0 || atS > endS + 1)
                {
                    continue;
                }
                if (kind == JvmPauses.Kind.ISSUE_THREAD_PARK)
                {
                    parks++;
                    continue;
                }
                points.add(new double[] {atS, p.duration().toNanos()});
                if (runColor < 0 && p.duration().compareTo(Duration.ofMillis(1)) >= 0)
                {
                    chart.band(atS, atS + p.duration().toNanos() / 1e9);
                }
            }
            if (!points.isEmpty() && runColor < 0)
            {
                chart.add(Series.points(kind.label() + " (" + points.size() + ")",
                    points.stream().mapToDouble(v -> v[0]).toArray(), points.stream().mapToDouble(v -> v[1]).toArray())
                    .color(color));
            }
            all.addAll(points);
            color++;
        }
        if (runColor >= 0 && !all.isEmpty())
        {
            chart.add(Series.points(run.name() + " JVM pauses (" + all.size() + ")",
                all.stream().mapToDouble(v -> v[0]).toArray(), all.stream().mapToDouble(v -> v[1]).toArray())
                .color(runColor));
        }
        if (parks > 0 && runColor < 0)
        {
            chart.subtitle(String.format(Locale.ROOT, "%,d issue-thread parks (the HYBRID wait parking on purpose) "
                + "are not drawn; the figures table gives their count and longest", parks));
        }
    }

    private static XyChart throughput(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("Throughput over time", Axis.linear("time since the start of issuing (s)"),
            Axis.linear("completed samples per second"));
        for (int r = 0; r < runs.size(); r++)
        {
            final HistogramSeries s = runs.get(r).latency();
            if (s == null)
            {
                continue;
            }
            final double[] y = new double[s.intervals().size()];
            for (int i = 0; i < y.length; i++)
            {
                y[i] = s.intervals().get(i).getTotalCount() / Math.max(1e-9, s.lengthsS().get(i));
            }
            chart.add(Series.steps(runs.size() == 1 ? "completed/s" : runs.get(r).name(), intervalStarts(s),
                intervalEnds(s), y).color(r));
        }
        // Every run's own target: one red line for a single run, a line in each run's colour among several.
        for (int r = 0; r < runs.size(); r++)
        {
            final RunData run = runs.get(r);
            final double target = run.number("effective_target_qps").orElse(Double.NaN);
            if (run.text("effective_scenario").map("Server"::equals).orElse(false) && target > 0)
            {
                final String label = String.format(Locale.ROOT, "target %,.0f QPS", target);
                if (runs.size() == 1)
                {
                    chart.bound(target, label);
                }
                else
                {
                    chart.bound(target, run.name() + " " + label, r);
                }
            }
        }
        return chart;
    }

    private static XyChart spectrum(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("Latency percentile spectrum", Axis.percentile("percentile"),
            Axis.log("latency").nanoseconds());
        for (int r = 0; r < runs.size(); r++)
        {
            final RunData run = runs.get(r);
            if (run.latency() != null)
            {
                final double[][] xy = percentileCurve(run.latency().total());
                chart.add(Series.line(run.name(), xy[0], xy[1]).color(r));
            }
            else
            {
                final List<double[]> points = new ArrayList<>();
                for (final String p : SUMMARY_PERCENTILES)
                {
                    run.number("result_" + p + "_percentile_latency_ns")
                        .ifPresent(v -> points.add(new double[] {Double.parseDouble(p), v}));
                }
                run.number("result_min_latency_ns").ifPresent(v -> points.add(0, new double[] {0, v}));
                if (!points.isEmpty())
                {
                    chart.add(Series.line(run.name() + " (summary)", points.stream().mapToDouble(v -> v[0]).toArray(),
                        points.stream().mapToDouble(v -> v[1]).toArray()).style(Series.Style.LINE_AND_POINTS).color(r));
                }
            }
        }
        addBound(chart, runs);
        return chart;
    }

    private static XyChart latenessDistribution(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("Issue lateness distribution", Axis.log("lateness").nanoseconds(),
            Axis.log("queries"));
        for (int r = 0; r < runs.size(); r++)
        {
            final HistogramSeries s = runs.get(r).lateness();
            if (s == null)
            {
                continue;
            }
            final Histogram total = s.total();
            final List<double[]> points = new ArrayList<>();
            for (final HistogramIterationValue v : total.logarithmicBucketValues(10, 2))
            {
                if (v.getCountAddedInThisIterationStep() > 0)
                {
                    points.add(new double[] {v.getValueIteratedTo(), v.getCountAddedInThisIterationStep()});
                }
            }
            final long onTime = total.getCountBetweenValues(0, 9);
            final String name = String.format(Locale.ROOT, "%s (%,d queries, p99 %s, max %s)",
                runs.size() == 1 ? "queries" : runs.get(r).name(), total.getTotalCount(),
                Durations.format(total.getValueAtPercentile(99)), Durations.format(total.getMaxValue()));
            chart.add(Series.line(name, points.stream().mapToDouble(v -> v[0]).toArray(),
                points.stream().mapToDouble(v -> v[1]).toArray()).style(Series.Style.LINE_AND_POINTS).color(r));
            if (onTime > 0 && runs.size() == 1)
            {
                chart.subtitle(String.format(Locale.ROOT, "%,d queries under 10 ns late are left off the log axis",
                    onTime));
            }
        }
        return chart;
    }

    private static XyChart latenessOverTime(final List<RunData> runs, final boolean single)
    {
        final XyChart chart = XyChart.of("Issue lateness over time", Axis.linear("scheduled time (s)"),
            Axis.log("lateness").nanoseconds());
        for (int r = 0; r < runs.size(); r++)
        {
            final HistogramSeries s = runs.get(r).lateness();
            if (s == null)
            {
                continue;
            }
            final double[] from = intervalStarts(s);
            final double[] to = intervalEnds(s);
            if (single)
            {
                chart.add(Series.steps("p50", from, to, percentile(s, 50)));
                chart.add(Series.steps("p99", from, to, percentile(s, 99)));
                chart.add(Series.steps("max", from, to, max(s)).dashed());
            }
            else
            {
                chart.add(Series.steps(runs.get(r).name() + " p99", from, to, percentile(s, 99)).color(r));
                chart.add(Series.steps(runs.get(r).name() + " max", from, to, max(s)).color(r).dashed());
            }
        }
        return chart;
    }

    private static XyChart batchSizes(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("SUT batch sizes", Axis.linear("batch size (samples)").integers(),
            Axis.linear("batches").integers());
        for (int r = 0; r < runs.size(); r++)
        {
            final SutStatistics.Snapshot stats = runs.get(r).sutStats();
            if (stats == null)
            {
                continue;
            }
            final long[] counts = stats.batchCounts();
            final List<double[]> points = new ArrayList<>();
            for (int size = 1; size < counts.length; size++)
            {
                if (counts[size] > 0)
                {
                    points.add(new double[] {size, counts[size]});
                }
            }
            final String name = String.format(Locale.ROOT, "%s (%,d batches, mean %.1f)",
                runs.size() == 1 ? stats.sutName() : runs.get(r).name(), stats.batches(),
                stats.batches() == 0 ? 0 : (double)stats.samples() / stats.batches());
            final Series s = Series.bars(name, points.stream().mapToDouble(v -> v[0]).toArray(),
                points.stream().mapToDouble(v -> v[1]).toArray()).color(r);
            // Several runs: a mark per size and run (bars of several runs would hide one another).
            chart.add(runs.size() == 1 ? s : s.style(Series.Style.POINTS));
        }
        return chart;
    }

    /** What each stage the toolkit's SUTs record measures, for the caption. */
    private static final java.util.Map<String, String> STAGE_MEANINGS = java.util.Map.of(
        SutStatistics.HANDOFF_STAGE, "from the issue thread handing a batch's first sample over to a worker taking it "
            + "up (an idle worker's reaction or wake-up, or the wait for a busy one)",
        "inference", "the model's run of one batch",
        "enqueue", "the host's time to enqueue a batch's GPU work",
        "h2d", "the copy of a batch to the GPU",
        "infer", "the GPU's inference of a batch",
        "d2h", "the copy of the results back");

    /**
     * @return the stage-times caption, naming only the stages the runs' SUTs measured.
     */
    static String stageCaption(final List<RunData> runs)
    {
        final java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (final RunData run : runs)
        {
            if (run.sutStats() != null)
            {
                run.sutStats().stages().stream().filter(st -> st.histogram().getTotalCount() > 0)
                    .forEach(st -> names.add(st.name()));
            }
        }
        final List<String> parts = new ArrayList<>();
        for (final String name : names)
        {
            parts.add(name + ": " + STAGE_MEANINGS.getOrDefault(name, "as the SUT names it"));
        }
        final String measured = "The SUT's own per-batch stage times as percentile spectra, as the SUT measured them: "
            + String.join("; ", parts) + ".";
        return names.size() == 1 && names.contains(SutStatistics.HANDOFF_STAGE)
            ? measured + " This SUT records no service-time stage: the rest of a query's latency (its service and "
                + "any wait for a batch to fill) is not measured separately."
            : measured;
    }

    private static XyChart stageTimes(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("SUT stage times", Axis.percentile("percentile"),
            Axis.log("time").nanoseconds());
        int color = 0;
        for (final RunData run : runs)
        {
            final SutStatistics.Snapshot stats = run.sutStats();
            if (stats == null)
            {
                continue;
            }
            for (final SutStatistics.StageTimes stage : stats.stages())
            {
                if (stage.histogram().getTotalCount() == 0)
                {
                    continue;
                }
                final double[][] xy = percentileCurve(stage.histogram());
                chart.add(Series.line((runs.size() == 1 ? "" : run.name() + " ") + stage.name(), xy[0], xy[1])
                    .color(color++));
            }
        }
        return chart;
    }

    /**
     * The latency bound: one red line where every run has the same bound, else one line in each run's colour.
     */
    private static void addBound(final XyChart chart, final List<RunData> runs)
    {
        final java.util.Set<String> distinct = new java.util.LinkedHashSet<>();
        for (final RunData run : runs)
        {
            distinct.add(boundLabel(run));
        }
        for (int r = 0; r < runs.size(); r++)
        {
            final RunData run = runs.get(r);
            final double boundNs = run.latencyBoundNs();
            if (!(boundNs > 0))
            {
                continue;
            }
            if (distinct.size() == 1)
            {
                chart.bound(boundNs, boundLabel(run));
                return;
            }
            chart.bound(boundNs, run.name() + " " + boundLabel(run), r);
        }
    }

    private static String boundLabel(final RunData run)
    {
        final double boundNs = run.latencyBoundNs();
        if (!(boundNs > 0))
        {
            return "";
        }
        final double percentile = run.number("effective_target_latency_percentile").orElse(Double.NaN);
        return "latency bound " + Durations.format(boundNs)
            + (Double.isNaN(percentile) ? "" : " at p" + trim(percentile * 100));
    }

    /** HdrHistogram's percentile curve, to 99.9999% (its plotter's default range), ending at the maximum. */
    static double[][] percentileCurve(final Histogram h)
    {
        final List<double[]> points = new ArrayList<>();
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

    static double[] intervalStarts(final HistogramSeries s)
    {
        return s.offsetsS().stream().mapToDouble(Double::doubleValue).toArray();
    }

    static double[] intervalEnds(final HistogramSeries s)
    {
        final double[] x = new double[s.intervals().size()];
        for (int i = 0; i < x.length; i++)
        {
            x[i] = s.offsetsS().get(i) + s.lengthsS().get(i);
        }
        return x;
    }

    static double[] percentile(final HistogramSeries s, final double p)
    {
        return s.intervals().stream().mapToDouble(h -> h.getValueAtPercentile(p)).toArray();
    }

    static double[] max(final HistogramSeries s)
    {
        return s.intervals().stream().mapToDouble(Histogram::getMaxValue).toArray();
    }

    private static String trim(final double v)
    {
        return v == Math.rint(v) ? String.valueOf((long)v) : String.valueOf(v);
    }
}
