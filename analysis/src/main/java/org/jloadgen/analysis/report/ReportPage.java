package org.jloadgen.analysis.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jloadgen.analysis.chart.ChartFiles;
import org.jloadgen.analysis.chart.Durations;

/**
 * Writes {@code report.html}: one self-contained page (inline SVG charts and CSS, no script, nothing fetched) with
 * the verdict and figures of each run at the top, a side-by-side table when there are several, the charts with
 * how to read each, and what the files did not allow; plus a PNG and an SVG of every chart beside it.
 */
final class ReportPage
{
    /** Chart size in pixels (PNG) and CSS pixels (inline SVG). */
    static final int WIDTH_PX = 960;
    static final int HEIGHT_PX = 420;
    static final String FILE_NAME = "report.html";
    /** Shown for a run without a performance verdict (an accuracy run, or no summary). */
    static final String NO_VERDICT = "NO VERDICT";

    private static final String STYLE = """
        body { font-family: sans-serif; margin: 24px auto; max-width: 1000px; color: #222; }
        h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; }
        table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
        td, th { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
        .verdict { display: inline-block; padding: 4px 12px; border-radius: 4px; font-weight: bold; color: #fff; }
        .VALID { background: #2ca02c; } .INVALID { background: #d62728; } .UNKNOWN { background: #7f7f7f; }
        figure.chart { margin: 24px 0; } figure.chart svg { display: block; width: 960px; height: 420px; }
        figcaption { font-size: 13px; color: #444; margin-top: 4px; }
        pre { background: #f8f8f8; padding: 8px; font-size: 12px; overflow-x: auto; }
        .notes li { font-size: 13px; color: #555; }
        """;

    private ReportPage()
    {
    }

    /**
     * Writes the page and the chart files.
     *
     * @param runs the runs.
     * @param out  the output folder (created if needed).
     * @return the page.
     * @throws IOException if a file cannot be written.
     */
    static Path write(final List<RunData> runs, final Path out) throws IOException
    {
        Files.createDirectories(out);
        final StringBuilder html = new StringBuilder(1 << 16);
        final String title = runs.size() == 1 ? "JLoadGen report: " + runs.get(0).name()
            : "JLoadGen report: " + runs.size() + " runs";
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
            .append(escape(title)).append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        html.append("<h1>").append(escape(title)).append("</h1>\n<p>Written ")
            .append(escape(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME.withLocale(Locale.ROOT))))
            .append(" by <code>jloadgen report</code>.</p>\n");

        for (final RunData run : runs)
        {
            runSection(html, run, runs.size() > 1);
        }
        if (runs.size() > 1)
        {
            comparison(html, runs);
        }

        html.append("<h2>Charts</h2>\n");
        final List<ReportCharts.Named> charts = ReportCharts.build(runs);
        if (charts.isEmpty())
        {
            html.append("<p>No chart: the files hold no latency distribution.</p>\n");
        }
        for (final ReportCharts.Named c : charts)
        {
            final ChartFiles.Written written = ChartFiles.write(c.chart(), out, c.id(), WIDTH_PX, HEIGHT_PX);
            html.append("<figure class=\"chart\" id=\"chart-").append(c.id()).append("\">\n")
                .append(written.svgElement()).append("\n<figcaption>").append(escape(c.caption()))
                .append(" <a href=\"").append(c.id()).append(".png\">PNG</a> <a href=\"").append(c.id())
                .append(".svg\">SVG</a></figcaption>\n</figure>\n");
        }
        html.append("</body>\n</html>\n");
        final Path page = out.resolve(FILE_NAME);
        Files.writeString(page, html, StandardCharsets.UTF_8);
        return page;
    }

    private static void runSection(final StringBuilder html, final RunData run, final boolean several)
    {
        final String verdict = run.validity().orElse(NO_VERDICT);
        final String css = verdict.equals("VALID") || verdict.equals("INVALID") ? verdict : "UNKNOWN";
        html.append("<h2>").append(several ? "Run " : "").append(escape(run.name())).append("</h2>\n");
        html.append("<p><span class=\"verdict ").append(css).append("\">").append(escape(verdict))
            .append("</span> ");
        final List<String> what = new ArrayList<>();
        run.text("effective_scenario").ifPresent(what::add);
        run.text("effective_test_mode").ifPresent(what::add);
        run.text("sut_name").ifPresent(s -> what.add("SUT " + s));
        html.append(escape(String.join(", ", what))).append("</p>\n");
        run.text("early_stopping_result").ifPresent(es -> html.append("<p>Early stopping: ")
            .append(escape(es.replace("\\n", " ").trim())).append("</p>\n"));

        final List<String[]> figures = figures(run);
        if (!figures.isEmpty())
        {
            html.append("<table>\n<tr><th>figure</th><th>value</th></tr>\n");
            for (final String[] f : figures)
            {
                html.append("<tr><td>").append(escape(f[0])).append("</td><td class=\"num\">").append(escape(f[1]))
                    .append("</td></tr>\n");
            }
            html.append("</table>\n");
        }
        if (run.detail() != null && !run.detail().errors().isEmpty())
        {
            html.append("<p>Errors in the detail log:</p>\n<ul>\n");
            run.detail().errors().forEach(e -> html.append("<li>").append(escape(e)).append("</li>\n"));
            html.append("</ul>\n");
        }
        if (run.summary() != null)
        {
            html.append("<details><summary>Summary file</summary>\n<pre>").append(escape(run.summary()))
                .append("</pre>\n</details>\n");
        }
        html.append("<p>Files: ");
        final List<String> names = new ArrayList<>();
        run.files().forEach(f -> names.add(f.getFileName().toString()));
        html.append(escape(String.join(", ", names))).append("</p>\n");
        if (!run.notes().isEmpty())
        {
            html.append("<ul class=\"notes\">\n");
            run.notes().forEach(n -> html.append("<li>").append(escape(n)).append("</li>\n"));
            html.append("</ul>\n");
        }
    }

    /**
     * @return the run's figures: every {@code result_*} record of the detail log (latencies in readable units), and
     *         what the interval logs add.
     */
    static List<String[]> figures(final RunData run)
    {
        final List<String[]> rows = new ArrayList<>();
        if (run.detail() != null)
        {
            for (final String key : run.detail().keys())
            {
                if (key.startsWith("result_") && !key.equals("result_validity"))
                {
                    rows.add(new String[] {key, value(run, key)});
                }
            }
            // JLoadGen's own records: failed samples and goodput, the failure policy, the LLM client's metrics.
            for (final String key : run.detail().keys())
            {
                if (key.startsWith("jloadgen_failed") || key.startsWith("jloadgen_completed_samples")
                    || key.startsWith("jloadgen_goodput") || key.startsWith("jloadgen_failure")
                    || key.equals("jloadgen_retries") || key.startsWith("jloadgen_llm_"))
                {
                    rows.add(new String[] {key, value(run, key)});
                }
            }
            for (final String key : List.of("effective_target_qps", "effective_target_latency_ns",
                "effective_target_latency_percentile", "effective_min_duration_ms", "effective_min_query_count"))
            {
                if (run.detail().has(key))
                {
                    rows.add(new String[] {key, value(run, key)});
                }
            }
        }
        if (run.lateness() != null)
        {
            final org.HdrHistogram.Histogram h = run.lateness().total();
            rows.add(new String[] {"issue lateness p50 / p99 / max", Durations.format(h.getValueAtPercentile(50))
                + " / " + Durations.format(h.getValueAtPercentile(99)) + " / " + Durations.format(h.getMaxValue())});
        }
        if (run.pauses() != null)
        {
            for (final JvmPauses.Kind kind : JvmPauses.Kind.values())
            {
                final List<JvmPauses.Pause> of = run.pauses().pauses().stream().filter(p -> p.kind() == kind).toList();
                final long longestNs = of.stream().mapToLong(p -> p.duration().toNanos()).max().orElse(0);
                rows.add(new String[] {kind.label() + "s (whole recording): count, longest",
                    of.size() + ", " + Durations.format(longestNs)});
            }
        }
        return rows;
    }

    /** What {@code result_token_throughput} is, since LoadGen prints it bare. */
    static final String TOKEN_THROUGHPUT_MEANING = "tokens per ns of summed sample latency: LoadGen's "
        + "result_token_throughput divides the tokens by (mean latency in ns x samples), so x 1e9 it is tokens per "
        + "second of one request's latency, a per-request decode rate, not the run's throughput (that is "
        + "result_completed_tokens_per_second)";

    private static String value(final RunData run, final String key)
    {
        final String text = run.detail().text(key);
        if (key.equals("result_token_throughput"))
        {
            try
            {
                return text + " = " + String.format(Locale.ROOT, "%.1f", Double.parseDouble(text) * 1e9)
                    + " tokens/s per request (" + TOKEN_THROUGHPUT_MEANING + ")";
            }
            catch (final NumberFormatException ex)
            {
                return text;
            }
        }
        if (key.endsWith("_ns") || key.contains("_latency_ns"))
        {
            try
            {
                return Durations.format(Double.parseDouble(text)) + " (" + text + " ns)";
            }
            catch (final NumberFormatException ex)
            {
                return text;
            }
        }
        return text;
    }

    private static void comparison(final StringBuilder html, final List<RunData> runs)
    {
        html.append("<h2>Side by side</h2>\n<table>\n<tr><th>figure</th>");
        runs.forEach(r -> html.append("<th>").append(escape(r.name())).append("</th>"));
        html.append("</tr>\n<tr><td>validity</td>");
        runs.forEach(r -> html.append("<td>").append(escape(r.validity().orElse("?"))).append("</td>"));
        html.append("</tr>\n");
        final Set<String> keys = new LinkedHashSet<>();
        final List<List<String[]>> all = new ArrayList<>();
        for (final RunData r : runs)
        {
            final List<String[]> f = figures(r);
            all.add(f);
            f.forEach(row -> keys.add(row[0]));
        }
        for (final String key : keys)
        {
            html.append("<tr><td>").append(escape(key)).append("</td>");
            for (final List<String[]> f : all)
            {
                final String v = f.stream().filter(row -> row[0].equals(key)).map(row -> row[1]).findFirst()
                    .orElse("");
                html.append("<td class=\"num\">").append(escape(v)).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    static String escape(final String s)
    {
        final StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
