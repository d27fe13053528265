package org.jloadgen.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.jloadgen.analysis.chart.Series;
import org.jloadgen.analysis.chart.XyChart;
import org.jloadgen.api.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a report shows and how big it is: a 10 s Server run's page stays small, interval data is drawn as steps,
 * batch sizes on whole numbers, the HYBRID wait's own parks left off the latency chart, the stage caption true to
 * what the SUT measured, the latency breakdown, and an overlay that keeps each run's own target and pauses.
 */
class ReportReadingTest
{
    /** The most a 10 s Server run's report.html may take. */
    private static final long MAX_REPORT_BYTES = 2L << 20;

    @TempDir
    Path dir;

    private static Map<String, XyChart> charts(final Path... runs)
    {
        return ReportCharts.build(java.util.Arrays.stream(runs).map(RunData::read).toList()).stream()
            .collect(Collectors.toMap(ReportCharts.Named::id, ReportCharts.Named::chart));
    }

    private static List<String> names(final XyChart chart)
    {
        return chart.series().stream().map(Series::name).toList();
    }

    @Test
    void shouldKeepATenSecondServerRunsReportSmallAndReadable() throws IOException
    {
        // HYBRID parks the issue thread on purpose between queries: thousands of recorded parks.
        final Path run = ReportRuns.run(dir.resolve("server"), TestScenario.SERVER, "HYBRID", 2_000, 10_000);
        final String[] result = ReportRuns.report(run.toString());
        assertEquals("0", result[0], result[2]);
        final long bytes = Files.size(run.resolve("report/report.html"));
        assertTrue(bytes < MAX_REPORT_BYTES, "report.html is " + bytes + " bytes");

        final Map<String, XyChart> charts = charts(run);
        final XyChart latency = charts.get("latency-over-time");
        for (final Series s : latency.series())
        {
            assertTrue(s.style() == Series.Style.STEPS || s.style() == Series.Style.POINTS, s.name());
            assertFalse(s.name().startsWith("issue thread park"), "parks are not drawn: " + s.name());
        }
        assertEquals(Series.Style.STEPS, charts.get("throughput").series().get(0).style());
        final RunData data = RunData.read(run);
        final long parks = data.pauses().pauses().stream()
            .filter(p -> p.kind() == JvmPauses.Kind.ISSUE_THREAD_PARK).count();
        if (parks > 0)
        {
            assertTrue(latency.subtitleText().contains("issue-thread parks (the HYBRID wait parking on purpose) are "
                + "not drawn"), latency.subtitleText());
        }

        assertTrue(charts.get("batch-sizes").xAxis().wholeNumbers(), "batch sizes on whole numbers");
        final String caption = ReportCharts.stageCaption(List.of(data));
        assertTrue(caption.contains("handoff: from the issue thread handing a batch's first sample"), caption);
        assertTrue(caption.contains("This SUT records no service-time stage"), caption);
        assertFalse(caption.contains("spent in the model"), caption);

        final List<String> parts = names(charts.get("latency-breakdown"));
        assertEquals(3, parts.size(), parts.toString());
        assertTrue(parts.get(0).startsWith("latency: p50 ") && parts.get(0).contains("(100% of latency p99)"),
            parts.get(0));
        assertTrue(parts.get(1).startsWith("issue lateness: p50 "), parts.get(1));
        assertTrue(parts.get(2).startsWith("SUT handoff (per batch): p50 "), parts.get(2));
        assertEquals(List.of("latency p99", "latency p50", "issue lateness p99", "issue lateness p50"),
            names(charts.get("latency-breakdown-over-time")));
        final String html = Files.readString(run.resolve("report/report.html"));
        assertTrue(html.contains("id=\"chart-latency-breakdown\""), "the breakdown is on the page");
    }

    @Test
    void shouldOverlayEachRunsOwnTargetBoundAndPauses() throws IOException
    {
        final Path a = ReportRuns.run(dir.resolve("a"), TestScenario.SERVER, "SPIN", 2_000, 1_200);
        final Path b = ReportRuns.run(dir.resolve("b"), TestScenario.SERVER, "SPIN", 4_000, 1_200);
        final Map<String, XyChart> charts = charts(a, b);
        assertEquals(List.of("a target 2,000 QPS", "b target 4,000 QPS"), charts.get("throughput").boundLabels());
        assertEquals(1, charts.get("latency-over-time").boundLabels().size(), "the same bound, drawn once");
        final List<String> latency = names(charts.get("latency-over-time"));
        for (final Path run : List.of(a, b))
        {
            final RunData data = RunData.read(run);
            final double[] ends = ReportCharts.intervalEnds(data.latency());
            // A pause is drawn from the start of issuing to a second after the last interval.
            final boolean paused = data.pauses() != null && data.pauses().pauses().stream()
                .filter(p -> p.kind() != JvmPauses.Kind.ISSUE_THREAD_PARK)
                .mapToDouble(p -> (p.start().toEpochMilli() - data.latency().startEpochMs()) / 1e3)
                .anyMatch(atS -> atS >= 0 && atS <= ends[ends.length - 1] + 1);
            final String name = run.getFileName().toString();
            assertEquals(paused, latency.stream().anyMatch(n -> n.startsWith(name + " JVM pauses (")),
                name + ": " + latency);
        }
        assertTrue(latency.contains("a p99") && latency.contains("b p99"), latency.toString());
    }
}
