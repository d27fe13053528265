package org.jloadgen.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SutLogNotes;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.spi.SyntheticQsl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jloadgen report} on a token-latency (LLM) run through the real engine whose SUT fails one request in 40
 * ({@code ResponseSink.failSample}, as {@code on-error=count} does) and writes a per-request export: TTFT and TPOT
 * charts with the bounds that decided the run, ITL over time, requests answered and failed, the failed samples and
 * goodput in the figures, {@code result_token_throughput} explained, and no end-to-end bound drawn.
 */
class TokenRunReportTest
{
    @TempDir
    Path dir;

    /** Streams 5 tokens per sample on the issuing thread; fails response ids that are multiples of 40. */
    private static final class TokenSut implements SystemUnderTest, SutLogNotes
    {
        private final Path export;
        private final List<String> lines = new ArrayList<>();
        private long failed;

        TokenSut(final Path export)
        {
            this.export = export;
        }

        @Override
        public String name()
        {
            return "token-sut";
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            for (int i = 0; i < samples.size(); i++)
            {
                final long id = samples.responseId(i);
                final long sendNs = System.nanoTime();
                if (id % 40 == 0)
                {
                    failed++;
                    sink.failSample(id);
                    lines.add("{\"request\":" + id + ",\"ok\":false,\"send_ns\":" + sendNs + ",\"ttft_ns\":-1,"
                        + "\"e2e_ns\":-1,\"tpot_ns\":-1,\"itl_min_ns\":-1,\"itl_max_ns\":-1,\"events\":0}");
                    continue;
                }
                sink.firstToken(id, 0L, 0L);
                sink.complete(id, 0L, 0L, 5L);
                final long ttft = 20_000_000 + id % 7 * 1_000_000;
                lines.add("{\"request\":" + id + ",\"ok\":true,\"send_ns\":" + sendNs + ",\"ttft_ns\":" + ttft
                    + ",\"e2e_ns\":" + (ttft + 4 * 5_000_000) + ",\"tpot_ns\":5000000,\"itl_min_ns\":4000000,"
                    + "\"itl_max_ns\":6000000,\"events\":5,\"output_tokens\":5}");
            }
        }

        @Override
        public void flushQueries()
        {
        }

        @Override
        public List<Note> notesAfterRun()
        {
            try
            {
                Files.write(export, lines);
            }
            catch (final java.io.IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
            return List.of(new Note(LlmRequests.FILE_KEY, export.toString()));
        }
    }

    @Test
    void shouldChartTtftAndTpotAgainstTheirBoundsAndShowTheFailedRequests() throws Exception
    {
        final Path run = dir.resolve("llm");
        Files.createDirectories(run);
        final TokenSut sut = new TokenSut(run.resolve("requests.jsonl"));
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).useTokenLatencies(true)
            .serverTargetQps(1_000).minDurationMs(600).minQueryCount(600).serverTtftLatencyNs(2_000_000_000L)
            .serverTpotLatencyNs(200_000_000L);
        new TestRunner(sut, new SyntheticQsl(1024, 1024), s, new LogSettings().outputDirectory(run),
            new EngineOptions().jitWarmupMs(0).histogramIntervalMs(200), null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();

        final String[] result = ReportRuns.report(run.toString());
        assertEquals("0", result[0], result[2]);
        final Path out = run.resolve("report");
        final String html = Files.readString(out.resolve("report.html"));
        for (final String chart : List.of("ttft-spectrum", "tpot-spectrum", "itl-over-time", "requests-over-time"))
        {
            assertTrue(html.contains("id=\"chart-" + chart + "\""), "chart " + chart);
            assertTrue(Files.size(out.resolve(chart + ".png")) > 1_000, chart + ".png");
        }
        final String ttft = Files.readString(out.resolve("ttft-spectrum.svg"));
        assertTrue(ttft.contains("TTFT bound 2 s at p99"), "the TTFT bound that decided the run");
        assertTrue(Files.readString(out.resolve("tpot-spectrum.svg")).contains("TPOT bound 200 ms at p99"));
        // Judged on TTFT and TPOT: no end-to-end latency bound against the latency charts.
        final String overTime = Files.readString(out.resolve("latency-over-time.svg"));
        assertFalse(overTime.contains("latency bound"), () -> overTime.substring(Math.max(0,
            overTime.indexOf("latency bound") - 300), overTime.indexOf("latency bound") + 100));
        assertFalse(Files.readString(out.resolve("percentile-spectrum.svg")).contains("latency bound"));
        // The failed requests: in the figures (the engine's count, its completed samples and goodput) and the chart.
        final long failed = sut.failed;
        assertTrue(failed >= 15, "failed " + failed);
        assertTrue(html.contains("<td>jloadgen_failed_samples</td><td class=\"num\">" + failed + "</td>"), html);
        assertTrue(html.contains("<td>jloadgen_goodput_samples_per_second</td>"), html);
        assertTrue(Files.readString(out.resolve("requests-over-time.svg")).contains("failed (" + failed + ")"));
        assertTrue(html.contains("Failed samples : " + failed + " of "), "the summary's JLoadGen section");
        // result_token_throughput with its unit and meaning, not bare.
        final String throughput = html.substring(html.indexOf("<td>result_token_throughput</td>"));
        assertTrue(throughput.matches("(?s)<td>result_token_throughput</td><td class=\"num\">[-+.0-9e]+ = "
            + "[0-9.]+ tokens/s per request \\(tokens per ns of summed sample latency.*"), throughput.substring(0,
            Math.min(400, throughput.length())));
        assertTrue(html.matches("(?s).*<p>Files: [^<]*requests\\.jsonl.*"), "the export is listed among the files");
        ReportCommandTest.assertSelfContained(html);
    }
}
