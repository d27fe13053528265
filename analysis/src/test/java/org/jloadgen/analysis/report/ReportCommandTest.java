package org.jloadgen.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReportCommandTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldReportARunOfEveryScenario(final TestScenario scenario) throws IOException
    {
        final Path run = ReportRuns.run(dir.resolve("run"), scenario, "SPIN");
        final String[] result = ReportRuns.report(run.toString());
        assertEquals("0", result[0], result[2]);
        final Path out = run.resolve("report");
        final String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("class=\"verdict"), "verdict");
        assertTrue(html.contains("result_query_count"), "figures from the detail log");
        // Every scenario has latencies over time, throughput, a spectrum and the batcher's sizes.
        for (final String chart : List.of("latency-over-time", "throughput", "percentile-spectrum", "batch-sizes"))
        {
            assertTrue(html.contains("id=\"chart-" + chart + "\""), scenario + ": chart " + chart);
            assertTrue(Files.size(out.resolve(chart + ".png")) > 1_000, chart + ".png");
            assertTrue(Files.readString(out.resolve(chart + ".svg")).contains("<svg"), chart + ".svg");
        }
        // Issue lateness is Server's only.
        assertEquals(scenario == TestScenario.SERVER, html.contains("id=\"chart-issue-lateness\""), "lateness");
        assertEquals(scenario == TestScenario.SERVER, html.contains("issue lateness p50 / p99 / max"));
        assertTrue(html.contains("safepoints (whole recording)"), "the flight recording was read");
        assertSelfContained(html);
    }

    @Test
    void shouldSayARunThatDiedIsIncomplete() throws IOException
    {
        // What a killed run leaves: the detail log under its temporary name, its last record cut, no summary.
        final Path run = Files.createDirectories(dir.resolve("killed"));
        final List<String> lines = Files.readAllLines(SharedData.data("example-logs/Server/mlperf_log_detail.txt"));
        final String head = String.join("\n", lines.subList(0, 50)) + "\n" + lines.get(50).substring(0, 30);
        Files.writeString(run.resolve("mlperf_log_detail.txt.partial"), head);

        final String[] result = ReportRuns.report(run.toString(), "--out", dir.resolve("out").toString());
        assertEquals("0", result[0], result[2]);
        assertTrue(result[1].contains("jloadgen report: " + run + ": incomplete run (it was killed or crashed before "
            + "writing its summary)"), result[1]);
        final RunData data = RunData.read(run);
        assertTrue(data.incomplete());
        assertEquals(RunData.INCOMPLETE, data.validity().orElseThrow());
        assertTrue(data.detail().has("effective_scenario"), "the records up to the cut line");
        final String html = Files.readString(dir.resolve("out/report.html"));
        assertTrue(html.contains("\">" + RunData.INCOMPLETE + "</span>"), "the verdict says so");
        assertTrue(html.contains("Incomplete run: mlperf_log_detail.txt.partial is the detail log of a run that did "
            + "not finish"), "and the notes why");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Server", "Offline", "SingleStream", "MultiStream", "Accuracy-SingleStream"})
    void shouldReportFoldersWithOnlyTheOfficialLoadGensFiles(final String folder) throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve(folder));
        try (var files = Files.list(SharedData.data("example-logs/" + folder)))
        {
            for (final Path f : files.toList())
            {
                Files.copy(f, run.resolve(f.getFileName()));
            }
        }
        final String[] result = ReportRuns.report(run.toString(), "--out", dir.resolve("out").toString());
        assertEquals("0", result[0], result[2]);
        final String html = Files.readString(dir.resolve("out/report.html"));
        final RunData data = RunData.read(run);
        assertNotNull(data.detail());
        final String validity = data.validity().orElse(ReportPage.NO_VERDICT);
        assertTrue(html.contains("\">" + validity + "</span>"), validity);
        assertEquals(folder.startsWith("Accuracy"), validity.equals(ReportPage.NO_VERDICT), "accuracy runs have none");
        // What those files do not allow is said, not silently left out.
        assertTrue(html.contains("No latency interval log"), "note on the missing interval log");
        assertTrue(html.contains("No flight recording"), "note on the missing recording");
        if (!folder.startsWith("Accuracy"))
        {
            // The summary's percentiles make the spectrum; nothing else has data.
            assertTrue(html.contains("id=\"chart-percentile-spectrum\""), folder);
            assertFalse(html.contains("id=\"chart-latency-over-time\""), folder);
            assertTrue(html.contains("result_99.00_percentile_latency_ns") || html.contains("per_query"), folder);
        }
        assertSelfContained(html);
    }

    @Test
    void shouldChartTheIssueDelaysOfAnOfficialChromeTrace() throws IOException
    {
        // A truncated trace (its first 400 lines) still gives the samples it holds.
        final Path run = Files.createDirectories(dir.resolve("traced"));
        Files.copy(SharedData.data("example-logs/Server-traced/mlperf_log_trace.head400.json"),
            run.resolve("mlperf_log_trace.head400.json"));
        final String[] result = ReportRuns.report(run.toString());
        assertEquals("0", result[0], result[2]);
        final String html = Files.readString(run.resolve("report/report.html"));
        assertTrue(html.contains("id=\"chart-latency-over-time\""));
        assertTrue(html.contains("id=\"chart-issue-lateness\""));
        assertTrue(html.contains("Chrome trace's "), "says where the figures come from");
        final RunData data = RunData.read(run);
        // The first Latency event: issue_delay 180 ns, issue_to_done 1001 ns.
        assertEquals(180, data.lateness().intervals().get(0).getMinValue(), 1);
    }

    @Test
    void shouldOverlaySeveralRunsAndCompareThemSideBySide() throws IOException
    {
        final Path spin = ReportRuns.run(dir.resolve("spin"), TestScenario.SERVER, "SPIN");
        final Path sleep = ReportRuns.run(dir.resolve("sleep"), TestScenario.SERVER, "SLEEP");
        final Path out = dir.resolve("both");
        final String[] result = ReportRuns.report(spin.toString(), sleep.toString(), "--out", out.toString());
        assertEquals("0", result[0], result[2]);
        final String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<h2>Side by side</h2>"));
        assertTrue(html.contains("<th>spin</th><th>sleep</th>"), "one column per run");
        final String svg = Files.readString(out.resolve("latency-over-time.svg"));
        assertTrue(svg.contains("spin p99") && svg.contains("sleep p99"), "both runs overlaid");
    }

    @Test
    void shouldChartTheSutsStageTimes() throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve("stages"));
        final org.jloadgen.sut.SutStatistics stats = new org.jloadgen.sut.SutStatistics("staged", 8,
            List.of("h2d", "infer"));
        final org.jloadgen.sut.SutStatistics.Recorder recorder = stats.newRecorder();
        for (int i = 1; i <= 1_000; i++)
        {
            recorder.recordBatch(1 + i % 8);
            recorder.recordStageNs(stats.stage("h2d"), 1_000 + i);
            recorder.recordStageNs(stats.stage("infer"), 100_000 + 10L * i);
        }
        stats.write(run, null);
        final String[] result = ReportRuns.report(run.toString());
        assertEquals("0", result[0], result[2]);
        final String html = Files.readString(run.resolve("report/report.html"));
        assertTrue(html.contains("id=\"chart-stage-times\""));
        assertTrue(html.contains("id=\"chart-batch-sizes\""));
        final String svg = Files.readString(run.resolve("report/stage-times.svg"));
        assertTrue(svg.contains(">h2d<") && svg.contains(">infer<"), "one curve per stage");
        assertTrue(html.contains(ReportPage.NO_VERDICT), "no summary, no verdict");
    }

    @Test
    void shouldNameAFolderWithoutRunFiles() throws IOException
    {
        final Path empty = Files.createDirectories(dir.resolve("empty"));
        final String[] result = ReportRuns.report(empty.toString());
        assertEquals("2", result[0]);
        assertTrue(result[2].contains(empty.toString()) && result[2].contains("holds no run files"), result[2]);
        final String[] missing = ReportRuns.report(dir.resolve("nope").toString());
        assertEquals("2", missing[0]);
        assertTrue(missing[2].contains("is not a folder"), missing[2]);
    }

    @Test
    void shouldNameABrokenIntervalLog() throws IOException
    {
        final Path run = Files.createDirectories(dir.resolve("broken"));
        Files.writeString(run.resolve("mlperf_log_latency.hlog"), "#[StartTime: 1.000 (seconds since epoch)]\n"
            + "0.000,1.000,1.000,NOT-BASE64\n");
        final String[] result = ReportRuns.report(run.toString());
        assertEquals("2", result[0], result[2]);
        assertTrue(result[2].contains("mlperf_log_latency.hlog"), result[2]);
    }

    static void assertSelfContained(final String html)
    {
        // Opens offline: no script, no external reference of any kind.
        assertFalse(html.contains("<script"), "no script");
        assertFalse(html.matches("(?s).*(src|href)=\"(https?:)?//.*"), "no network reference");
        assertFalse(html.contains("<img"), "charts are inline SVG");
    }
}
