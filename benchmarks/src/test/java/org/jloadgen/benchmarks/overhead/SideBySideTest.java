package org.jloadgen.benchmarks.overhead;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SideBySideTest
{
    @TempDir
    Path dir;

    @Test
    void shouldGiveBothEnginesTheSameServerTest()
    {
        final Path nullSut = Path.of("/opt/loadgen/official_null_sut");
        final SideBySide.Case worker = SideBySide.of(SideBySide.WORKER_10K, SideBySide.DURATION_MS, nullSut);
        assertEquals(nullSut, worker.official().executable());
        assertEquals(List.of("--scenario", "Server", "--quiet", "--no-audit-config", "--completion", "worker", "--set",
            "min_duration_ms=10000", "--set", "server_target_qps=10000", "--set", "max_duration_ms=20000"),
            worker.official().arguments());
        assertEquals("jloadgen run --sut null-worker --scenario Server --quiet --no-audit-config --set "
            + "min_duration_ms=10000 --set server_target_qps=10000 --set max_duration_ms=20000",
            worker.jloadgen().commandLine());

        final SideBySide.Case inline = SideBySide.of(SideBySide.INLINE_50K, 500, nullSut);
        assertTrue(inline.official().arguments().containsAll(List.of("inline", "server_target_qps=50000",
            "min_duration_ms=500", "max_duration_ms=1000")));
        assertTrue(inline.jloadgen().arguments().containsAll(List.of("null", "server_target_qps=50000")));

        final SideBySide.Case cpu = SideBySide.cpuAt(120_000, SideBySide.DURATION_MS);
        assertNull(cpu.official());
        assertTrue(cpu.jloadgen().arguments().containsAll(List.of("cpu", "server_target_qps=120000")));
        assertThrows(IllegalArgumentException.class, () -> SideBySide.of("sbs-1m-worker", 1, nullSut));
        assertThrows(IllegalArgumentException.class, () -> new SideBySideRunner(null, List.of("fast"), 1, null, 0, 1));
        assertFalse(SideBySideRunner.needsOfficial(List.of(SideBySide.CPU_HALF)));
    }

    @Test
    void shouldTakeTheLatencyApartFromTheLatenessLogAndTheSutStatistics() throws Exception
    {
        final Histogram first = new Histogram(3_600_000_000_000L, 3);
        final Histogram second = new Histogram(3_600_000_000_000L, 3);
        for (int i = 1; i <= 100; i++)
        {
            (i <= 50 ? first : second).recordValue(i * 100);
        }
        try (PrintStream out = new PrintStream(dir.resolve(LatencyBreakdown.LATENESS_FILE).toFile(),
            StandardCharsets.UTF_8))
        {
            final HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputLogFormatVersion();
            writer.outputComment("series: Server PerformanceOnly target_qps 10000");
            writer.outputStartTime(1_000);
            writer.outputIntervalHistogram(first);
            writer.outputIntervalHistogram(second);
        }
        final SutStatistics stats = new SutStatistics("s", 4, List.of(SutStatistics.HANDOFF_STAGE, "inference"));
        final SutStatistics.Recorder recorder = stats.newRecorder();
        for (int b = 0; b < 10; b++)
        {
            recorder.recordBatch(4);
            recorder.recordStageNs(0, 2_000);
            recorder.recordStageNs(1, 500_000);
        }
        stats.write(dir, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        final LatencyBreakdown b = LatencyBreakdown.read(dir);
        assertEquals(100, b.issueLateness().getTotalCount(), "every interval counts");
        assertEquals(5_000, b.issueLateness().getValueAtPercentile(50), 5);
        assertEquals(9_900, b.issueLateness().getValueAtPercentile(99), 10);
        assertEquals(10, b.handoff().getTotalCount());
        assertEquals(2_000, b.handoff().getValueAtPercentile(50), 2);
        assertEquals(500_000, b.inference().getValueAtPercentile(99), 500);
        assertEquals(4.0, b.samplesPerBatch());

        Files.writeString(dir.resolve(LatencyBreakdown.LATENESS_FILE), "#[Histogram log format version 1.3]\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LatencyBreakdown.read(dir)).getMessage()
            .contains("holds no interval"));
    }

    @Test
    void shouldAlternateTheEnginesAndPrintTheRatios() throws Exception
    {
        // The official side is a stand-in that writes LoadGen's own example Server log (p99 1.99 ms), so the table's
        // figures are known; JLoadGen's side runs for real, briefly, in child JVMs. (The README test runs the real
        // official null SUT through jloadgen overhead --side-by-side.)
        final Path official = dir.resolve("fake_official_null_sut");
        Files.writeString(official, "#!/bin/sh\nout=\nwhile [ $# -gt 0 ]; do\n  case \"$1\" in\n    --out) out=\"$2\"; "
            + "shift 2 ;;\n    *) shift ;;\n  esac\ndone\nmkdir -p \"$out\"\ncp '"
            + SharedData.data("example-logs/Server/mlperf_log_detail.txt") + "' \"$out/mlperf_log_detail.txt\"\n");
        Files.setPosixFilePermissions(official, PosixFilePermissions.fromString("rwxr-xr-x"));
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final OverheadRunner runner = new OverheadRunner(new OverheadRunner.Options().repeats(1).quiet(1.0, 0)
            .floorMs(0).retryDisturbed(1.0, 0), ChildJvm.likeThisJvm(List.of("-XX:+UseSerialGC", "-Xmx256m"),
            120_000), new PrintStream(progress, true, StandardCharsets.UTF_8));

        final SideBySideReport report = new SideBySideRunner(runner, List.of(SideBySide.WORKER_10K), 1, official, 0,
            300).run(dir.resolve("work"));

        final SideBySideReport.CaseResult c = report.cases().get(0);
        assertEquals(1_988_278, c.official(1).median());
        final RunResult jloadgen = c.jloadgen().get(0);
        assertEquals(0, jloadgen.exitCode() & ~3, Files.readString(jloadgen.runDir().resolve("stderr.txt")));
        assertTrue(c.jloadgen(1).median() > 0);
        final LatencyBreakdown breakdown = c.breakdowns().get(0);
        assertEquals(c.jloadgen().get(0).number("generated_query_count") >= breakdown.issueLateness().getTotalCount(),
            true);
        assertTrue(breakdown.issueLateness().getTotalCount() > 1_000, "" + breakdown.issueLateness().getTotalCount());
        final Histogram handoff = breakdown.handoff();
        assertEquals(1.0, breakdown.samplesPerBatch(), "null-worker runs batches of one");
        assertTrue(handoff.getTotalCount() > 1_000);
        final String log = progress.toString(StandardCharsets.UTF_8);
        assertTrue(log.indexOf("sbs-10k-worker     #1") < log.lastIndexOf("sbs-10k-worker     #1"), log);
        final String md = report.markdown();
        assertTrue(md.contains("| sbs-10k-worker | LoadGen 6.0.17 | 71.4 µs | 1.99 ms | 5.84 ms | 1 of 1 |"), md);
        assertTrue(md.contains("| | LoadGen / JLoadGen | "), md);
        assertTrue(md.contains("| sbs-10k-worker | " + Format.NANOS.format(breakdown.issueLateness()
            .getValueAtPercentile(50)) + " / "), md);
    }
}
