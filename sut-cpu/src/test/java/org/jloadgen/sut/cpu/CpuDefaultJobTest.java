package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jloadgen run} with no arguments, or with only {@code --out DIR}: the default job through the real command
 * line, with a short {@code min_duration} and the logs in a temporary folder ({@code --out}; the README test runs the
 * bare {@code ./jloadgen run}).
 */
class CpuDefaultJobTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunAccuracyAndOfflinePerformanceWhenRunIsGivenNoArgumentsOrOnlyAnOutputFolder() throws Exception
    {
        final Path out = dir.resolve("default");
        System.setProperty(CpuDefaultJob.MIN_DURATION_MS_PROP_NAME, "1000");
        final CliRun run;
        try
        {
            run = Runs.cli("run", "--out", out.toString());
        }
        finally
        {
            System.clearProperty(CpuDefaultJob.MIN_DURATION_MS_PROP_NAME);
        }

        assertTrue(run.out().contains("jloadgen: default job: the embedded Fashion-MNIST model"), run.out());
        // Wrapped to 80 columns: the continuation lines joined again.
        assertTrue(run.out().replaceAll("\n +", " ").contains("PerformanceOnly Offline run; logs in " + out + "\n"),
            run.out());
        assertTrue(run.out().contains("Accuracy: top-1 accuracy: 89.19% (8919 of 10000 samples)"), run.out());
        assertTrue(run.out().contains("MLPerf Results Summary"), run.out());
        assertTrue(run.out().contains("Scenario : Offline"), run.out());
        assertTrue(run.out().contains("  accuracy:    " + out.resolve("accuracy").toAbsolutePath()), run.out());
        assertTrue(run.out().contains("  performance: " + out.resolve("performance").toAbsolutePath()), run.out());
        // It reads in an 80-column terminal: only a path too long for any line stands alone on a longer one.
        for (final String line : run.out().split("\n"))
        {
            assertTrue(line.length() <= 80 || line.strip().indexOf(' ') < 0, "over 80 columns: " + line);
        }

        final MlLogParser accuracy = MlLogParser.parse(out.resolve("accuracy/mlperf_log_detail.txt"));
        assertEquals(0, accuracy.errorCount());
        assertEquals("AccuracyOnly", accuracy.value("effective_test_mode"));
        assertTrue(Files.size(out.resolve("accuracy/mlperf_log_accuracy.json")) > 10_000 * 80);

        final MlLogParser performance = MlLogParser.parse(out.resolve("performance/mlperf_log_detail.txt"));
        assertEquals(0, performance.errorCount());
        assertEquals("Offline", performance.value("effective_scenario"));
        assertEquals(1000L, ((Number)performance.value("effective_min_duration_ms")).longValue());
        final String summary = Files.readString(out.resolve("performance/mlperf_log_summary.txt"));
        // VALID unless the job ran over 1.21 times faster than the calibration run a moment before.
        final boolean valid = summary.contains("Result is : VALID");
        assertEquals(valid ? 0 : 3, run.exitCode(), run.err());
        assertTrue(valid || summary.contains("Min duration satisfied : NO"), summary);
        final org.jloadgen.sut.SutStatistics.Snapshot accuracyStats = org.jloadgen.sut.SutStatistics.Snapshot.read(
            out.resolve("accuracy").resolve(org.jloadgen.sut.SutStatistics.FILE_NAME));
        assertEquals(FashionMnist.SAMPLE_COUNT, accuracyStats.samples(), "the accuracy run's samples only");
        final org.jloadgen.sut.SutStatistics.Snapshot performanceStats = org.jloadgen.sut.SutStatistics.Snapshot
            .read(out.resolve("performance").resolve(org.jloadgen.sut.SutStatistics.FILE_NAME));
        assertTrue(performanceStats.samples() > 0, "the performance run's own figures");
        assertEquals(performanceStats.batches(), performanceStats.stage("inference").histogram().getTotalCount());
    }
}
