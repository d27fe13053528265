package org.jloadgen.analysis.report;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.jloadgen.analysis.chart.Axis;
import org.jloadgen.analysis.chart.Durations;
import org.jloadgen.analysis.chart.Series;
import org.jloadgen.analysis.chart.XyChart;

/**
 * The charts of a token-latency (LLM) run: TTFT and TPOT percentile spectra against the bounds that decided the run
 * ({@code ttft_latency}, {@code tpot_latency} at the target percentile), the inter-token latency of each request
 * over time, and the requests answered and failed per second. LoadGen's percentiles come from the detail log
 * (latency from each query's scheduled time); the per-request export, where the run wrote one
 * ({@code requests-file}), adds the client's exact per-request values (from each request's send).
 */
final class TokenCharts
{
    static final String TTFT_CAPTION = "Time to first token at each percentile. Points: LoadGen's percentiles from "
        + "the detail log (from each query's scheduled time), which the TTFT bound (red dashed, at the target "
        + "percentile) decided the run by; line: every request's TTFT from the per-request export (from its send).";
    static final String TPOT_CAPTION = "Time per output token at each percentile: LoadGen's percentiles (points) "
        + "against the TPOT bound that decided the run, and every request's TPOT from the export (line).";
    static final String ITL_CAPTION = "Inter-token latency of each request by the time it was sent: the mean gap "
        + "between its text events ((E2E - TTFT) / (events - 1)) and its longest gap. A server that batches "
        + "decoding steps shows here before it shows in TPOT.";
    static final String REQUESTS_CAPTION = "Requests sent in each second, answered and failed (the export's ok "
        + "field; a run with --sut-opt on-error=count goes on after a failure and counts it, never as completed).";

    private static final String[] SUMMARY_PERCENTILES = {"50.00", "90.00", "95.00", "97.00", "99.00", "99.90"};

    private TokenCharts()
    {
    }

    /**
     * @param run a run.
     * @return whether it measured token latencies.
     */
    static boolean tokenRun(final RunData run)
    {
        return run.text("requested_use_token_latencies").map("true"::equals).orElse(false)
            || run.number("result_first_token_mean_latency_ns").isPresent();
    }

    /**
     * @param runs the runs.
     * @return the TTFT spectrum, or {@code null} when no run measured token latencies.
     */
    static XyChart ttft(final List<RunData> runs)
    {
        return spectrum(runs, "Time to first token (TTFT) percentile spectrum", "TTFT", "result_first_token_%s"
            + "_percentile_latency_ns", "result_first_token_min_latency_ns", "requested_server_ttft_latency", true);
    }

    /**
     * @param runs the runs.
     * @return the TPOT spectrum, or {@code null}.
     */
    static XyChart tpot(final List<RunData> runs)
    {
        return spectrum(runs, "Time per output token (TPOT) percentile spectrum", "TPOT",
            "result_time_per_output_token_%s_percentile_ns", "result_time_to_output_token_min",
            "requested_server_tpot_latency", false);
    }

    private static XyChart spectrum(final List<RunData> runs, final String title, final String what,
        final String percentileKey, final String minKey, final String boundKey, final boolean ttft)
    {
        final XyChart chart = XyChart.of(title, Axis.percentile("percentile"), Axis.log(what).nanoseconds());
        for (int r = 0; r < runs.size(); r++)
        {
            final RunData run = runs.get(r);
            if (!tokenRun(run))
            {
                continue;
            }
            final String prefix = runs.size() == 1 ? "" : run.name() + " ";
            final List<double[]> points = new ArrayList<>();
            run.number(minKey).ifPresent(v -> points.add(new double[] {0, v}));
            for (final String p : SUMMARY_PERCENTILES)
            {
                run.number(String.format(percentileKey, p)).ifPresent(v -> points.add(
                    new double[] {Double.parseDouble(p), v}));
            }
            if (!points.isEmpty())
            {
                chart.add(Series.line(prefix + "LoadGen " + what, column(points, 0), column(points, 1))
                    .style(Series.Style.LINE_AND_POINTS).color(r));
            }
            final LlmRequests requests = run.requests();
            if (requests != null)
            {
                final Histogram h = new Histogram(3);
                final long[] values = ttft ? requests.ttftNs() : requests.tpotNs();
                for (int i = 0; i < values.length; i++)
                {
                    if (requests.ok()[i] && values[i] > 0)
                    {
                        h.recordValue(values[i]);
                    }
                }
                if (h.getTotalCount() > 0)
                {
                    final double[][] xy = ReportCharts.percentileCurve(h);
                    chart.add(Series.line(prefix + "client " + what + " (" + h.getTotalCount() + " requests)", xy[0],
                        xy[1]).color(r).dashed());
                }
            }
            final double boundNs = run.number(boundKey).orElse(Double.NaN);
            if (boundNs > 0)
            {
                final double percentile = run.number("effective_target_latency_percentile").orElse(Double.NaN);
                chart.bound(boundNs, prefix + what + " bound " + Durations.format(boundNs)
                    + (Double.isNaN(percentile) ? "" : " at p" + trim(percentile * 100)), r);
            }
        }
        return chart;
    }

    /**
     * @param runs the runs.
     * @return each request's mean and longest inter-token gap by its send time, or {@code null}.
     */
    static XyChart itlOverTime(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("Inter-token latency (ITL) over time", Axis.linear("request sent at (s)"),
            Axis.log("inter-token latency").nanoseconds());
        for (int r = 0; r < runs.size(); r++)
        {
            final LlmRequests q = runs.get(r).requests();
            if (q == null)
            {
                continue;
            }
            final String prefix = runs.size() == 1 ? "" : runs.get(r).name() + " ";
            final List<double[]> mean = new ArrayList<>();
            final List<double[]> max = new ArrayList<>();
            for (int i = 0; i < q.sendS().length; i++)
            {
                if (q.itlMeanNs()[i] > 0)
                {
                    mean.add(new double[] {q.sendS()[i], q.itlMeanNs()[i]});
                }
                if (q.ok()[i] && q.itlMaxNs()[i] > 0)
                {
                    max.add(new double[] {q.sendS()[i], q.itlMaxNs()[i]});
                }
            }
            chart.add(Series.points(prefix + "mean ITL of a request", column(mean, 0), column(mean, 1)).color(r));
            chart.add(Series.points(prefix + "longest ITL of a request", column(max, 0), column(max, 1))
                .color(runs.size() == 1 ? 3 : r));
        }
        return chart;
    }

    /**
     * @param runs the runs.
     * @return requests answered and failed per second of sending, or {@code null}.
     */
    static XyChart requestsOverTime(final List<RunData> runs)
    {
        final XyChart chart = XyChart.of("Requests answered and failed", Axis.linear("second of sending (s)"),
            Axis.linear("requests").integers());
        for (int r = 0; r < runs.size(); r++)
        {
            final LlmRequests q = runs.get(r).requests();
            if (q == null || q.sendS().length == 0)
            {
                continue;
            }
            final String prefix = runs.size() == 1 ? "" : runs.get(r).name() + " ";
            final int seconds = (int)Math.floor(q.sendS()[q.sendS().length - 1]) + 1;
            final double[] x = new double[seconds];
            final double[] answered = new double[seconds];
            final double[] failed = new double[seconds];
            for (int s = 0; s < seconds; s++)
            {
                x[s] = s;
            }
            for (int i = 0; i < q.sendS().length; i++)
            {
                final int s = (int)Math.floor(q.sendS()[i]);
                if (q.ok()[i])
                {
                    answered[s]++;
                }
                else
                {
                    failed[s]++;
                }
            }
            chart.add(Series.steps(prefix + "answered", x, plusOne(x), answered).color(runs.size() == 1 ? 2 : r));
            chart.add(Series.steps(prefix + "failed (" + q.failed() + ")", x, plusOne(x), failed)
                .color(runs.size() == 1 ? 3 : r).dashed());
        }
        return chart;
    }

    private static double[] plusOne(final double[] x)
    {
        final double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++)
        {
            y[i] = x[i] + 1;
        }
        return y;
    }

    private static double[] column(final List<double[]> rows, final int c)
    {
        return rows.stream().mapToDouble(v -> v[c]).toArray();
    }

    private static String trim(final double v)
    {
        return v == Math.rint(v) ? String.valueOf((long)v) : String.valueOf(v);
    }
}
