package org.jloadgen.analysis.peak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jloadgen.analysis.chart.Axis;
import org.jloadgen.analysis.chart.ChartFiles;
import org.jloadgen.analysis.chart.Series;
import org.jloadgen.analysis.chart.XyChart;

/**
 * The search's latency-vs-QPS chart ({@code latency-vs-qps.png} and {@code .svg}), drawn with the charting of
 * {@code jloadgen report}: every counted run's p50 and its latency at the bound's percentile against its target QPS,
 * VALID and INVALID runs apart, the worst run of each target joined by a line, and the bound. The knee, where the
 * percentile climbs away from the median towards the bound, is what users look for.
 */
final class PeakChart
{
    /** File name of the chart, without extension. */
    static final String NAME = "latency-vs-qps";

    private PeakChart()
    {
    }

    /**
     * @param folder the search's folder.
     * @param result the search's result.
     * @return the PNG's file name in the folder, or {@code null} when no run counted or measured a latency.
     * @throws UncheckedIOException if the files cannot be written.
     */
    static String write(final Path folder, final PeakSearch.Result result)
    {
        final List<ProbeRun> runs = result.runs().stream().filter(ProbeRun::counted)
            .sorted(Comparator.comparingDouble(ProbeRun::targetQps)).toList();
        if (runs.isEmpty())
        {
            return null;
        }
        final ProbeRun.Latencies first = runs.get(0).latencies();
        final String percentile = "p" + PeakFormat.number(first.targetPercentile() * 100);
        final XyChart chart = XyChart.of("Latency vs target QPS", Axis.linear("target QPS"),
                Axis.log("latency").nanoseconds())
            .subtitle(percentile + " and p50 of every run; shaded: from the peak to the lowest failing target")
            .add(Series.line(percentile + " (worst run of each target)", worstQps(result, runs),
                worstLatency(result, runs)).color(1))
            .add(Series.points(percentile + ", VALID run", qps(runs, true), atTarget(runs, true)).color(2))
            .add(Series.points(percentile + ", INVALID run", qps(runs, false), atTarget(runs, false)).color(3))
            .add(Series.points("p50", qps(runs, null), p50(runs)).color(0))
            .bound(first.boundNs(), "bound: " + percentile + " <= " + PeakFormat.latency(first.boundNs()));
        if (!chart.hasData())
        {
            // No run measured a latency (a SUT that failed every query): nothing to draw.
            return null;
        }
        if (!Double.isNaN(result.peakQps()) && !Double.isNaN(result.failQps()))
        {
            chart.band(result.peakQps(), result.failQps());
        }
        try
        {
            return ChartFiles.write(chart, folder, NAME, 900, 520).png().getFileName().toString();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the chart in " + folder + ": " + ex.getMessage(), ex);
        }
    }

    private static double[] qps(final List<ProbeRun> runs, final Boolean valid)
    {
        return runs.stream().filter(r -> valid == null || r.passed() == valid).mapToDouble(ProbeRun::targetQps)
            .toArray();
    }

    private static double[] atTarget(final List<ProbeRun> runs, final boolean valid)
    {
        return runs.stream().filter(r -> r.passed() == valid).mapToDouble(r -> r.latencies().atTargetNs()).toArray();
    }

    private static double[] p50(final List<ProbeRun> runs)
    {
        return runs.stream().mapToDouble(r -> r.latencies().p50Ns()).toArray();
    }

    private static double[] worstQps(final PeakSearch.Result result, final List<ProbeRun> runs)
    {
        return result.points().stream().filter(p -> p.runs() > 0).mapToDouble(PeakSearch.Point::targetQps).toArray();
    }

    private static double[] worstLatency(final PeakSearch.Result result, final List<ProbeRun> runs)
    {
        final List<Double> worst = new ArrayList<>();
        for (final PeakSearch.Point p : result.points())
        {
            if (p.runs() > 0)
            {
                worst.add(runs.stream().filter(r -> r.targetQps() == p.targetQps())
                    .mapToDouble(r -> r.latencies().atTargetNs()).max().orElse(0));
            }
        }
        return worst.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
