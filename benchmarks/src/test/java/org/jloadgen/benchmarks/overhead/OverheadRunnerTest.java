package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.cli.api.ChildJvmCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OverheadRunnerTest
{
    @Test
    void shouldRunTheSmokeConfigurationInAChildJvm(@TempDir final Path work) throws Exception
    {
        // The one real end-to-end run CI affords: a fresh JVM runs `jloadgen run` and reports its peak RSS.
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final OverheadReport report = new OverheadRunner(
            new OverheadRunner.Options().ids(List.of(BudgetTable.SMOKE)).repeats(1).workDir(work).quiet(1.0, 0)
                .floorMs(0),
            ChildJvm.likeThisJvm(List.of("-XX:+UseSerialGC", "-Xmx256m"), 120_000),
            new PrintStream(progress, true, StandardCharsets.UTF_8)).run();

        final RunResult run = report.runs().get(BudgetTable.SMOKE).get(0);
        assertEquals(0, run.exitCode(), () -> read(run.runDir().resolve("stderr.txt")));
        assertTrue(run.valid(), run.problem());
        assertEquals(200_000, run.number("result_query_count"));
        assertTrue(run.peakRssKib() > 10_000, "peak RSS " + run.peakRssKib());
        assertTrue(run.wallNs() > 0);
        assertTrue(Double.isNaN(run.otherCpu()) || (run.otherCpu() >= 0 && run.otherCpu() <= 1), "" + run.otherCpu());
        assertTrue(Files.isRegularFile(work.resolve("smoke/1/mlperf_log_summary.txt")));
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("smoke"));
        assertTrue(report.markdown().contains("| SingleStream smoke test: queries/s with loadgen overhead | — | — |"),
            report.markdown());
    }

    @Test
    void shouldOrderIdsAsTheTableAndRejectUnknownOnes()
    {
        assertEquals(List.of(BudgetTable.SERVER_10K, BudgetTable.OFFLINE_3M), new OverheadRunner.Options()
            .ids(List.of(BudgetTable.OFFLINE_3M, BudgetTable.SERVER_10K)).conclude().ids());
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> new OverheadRunner.Options().ids(List.of("fast")).conclude());
        assertTrue(unknown.getMessage().contains("'fast'"));
        assertThrows(IllegalArgumentException.class, () -> new OverheadRunner.Options().repeats(0).conclude());
        assertThrows(IllegalArgumentException.class, () -> new OverheadRunner.Options().ids(List.of()).conclude());
        assertThrows(IllegalArgumentException.class, () -> new OverheadRunner.Options().quiet(1.5, 0).conclude());
        assertThrows(IllegalArgumentException.class,
            () -> new OverheadRunner.Options().retryDisturbed(0.25, -1).conclude());
    }

    @Test
    void shouldAttributeToOthersWhatTheChildDidNotUse()
    {
        // 1000 ticks of machine time, 600 busy, of which the child used 450: others used 15%.
        assertEquals(0.15, ChildJvm.otherCpu(new long[] {100, 1000}, new long[] {700, 2000}, 450), 1e-12);
        assertEquals(0, ChildJvm.otherCpu(new long[] {100, 1000}, new long[] {700, 2000}, 700));
        assertTrue(Double.isNaN(ChildJvm.otherCpu(null, new long[] {700, 2000}, 450)));
        assertTrue(Double.isNaN(ChildJvm.otherCpu(new long[] {100, 1000}, new long[] {700, 2000}, -1)));
    }

    @Test
    void shouldBuildTheChildCommandWithTheRequiredFlagsFirst()
    {
        final ChildJvm child = new ChildJvm(Path.of("/jdk/bin/java"), "a.jar:b.jar", List.of("-XX:+UseSerialGC"), 1);
        final List<String> command = child.command(Path.of("/w/r"), List.of("run", "--sut", "null"));
        assertEquals(List.of("/jdk/bin/java", JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE, "-XX:+UseSerialGC",
            "-Djloadgen.overhead.report=/w/r/child-report.txt", "@" + ChildJvmCommand.classPathFile("a.jar:b.jar"),
            "org.jloadgen.benchmarks.overhead.OverheadChild", "run", "--sut", "null"), command);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final java.io.IOException ex)
        {
            return ex.toString();
        }
    }

    @Test
    void shouldTreatATruncatedDetailLogAsMissing(@TempDir final Path dir) throws Exception
    {
        final Path log = dir.resolve("mlperf_log_detail.txt");
        Files.writeString(log, ":::MLLOG {\"key\": \"sut_name\", \"value\": \"x\", \"time_ms\": 1.0, "
            + "\"namespace\": \"n\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": {\"is_error\": false}}\n:::MLL");
        assertEquals(null, ChildJvm.readDetail(log));
        assertEquals(null, ChildJvm.readDetail(dir.resolve("absent.txt")));
    }
}
