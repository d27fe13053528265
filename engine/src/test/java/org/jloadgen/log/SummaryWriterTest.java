package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.PerformanceResult;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.record.SortedLatencies;
import org.jloadgen.testing.GoldenRuns;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SummaryWriter}: trailer wording, the AccuracyOnly summary, the equal-issue warning, token blocks and the
 * atomic write. The four performance layouts are compared byte for byte in {@link GoldenLogsTest}.
 */
class SummaryWriterTest
{
    private static final SortedLatencies NONE = SortedLatencies.sortInPlace(new long[0]);

    @TempDir
    Path dir;

    @Test
    void shouldWordTheTrailerAsLoadGen()
    {
        assertEquals("\nNo warnings encountered during test.\n\nNo errors encountered during test.\n",
            SummaryWriter.trailer(0, 0));
        assertEquals("\n1 warning encountered. See detailed log.\n\n1 ERROR encountered. See detailed log.\n",
            SummaryWriter.trailer(1, 1));
        assertEquals("\n1360 warnings encountered. See detailed log.\n\n2 ERRORS encountered. See detailed log.\n",
            SummaryWriter.trailer(1360, 2));
    }

    @Test
    void shouldWriteOnlyTheTrailerForAnAccuracyRun() throws IOException
    {
        final Path file = dir.resolve("mlperf_log_summary.txt");
        new SummaryWriter(file, null).close(0, 0);
        assertEquals(Files.readString(SharedData.data("example-logs/Accuracy-SingleStream/mlperf_log_summary.txt")),
            Files.readString(file));
    }

    @Test
    void shouldReplaceTheFileAtomicallyAndLeaveNoTemporary() throws IOException
    {
        final Path file = dir.resolve("mlperf_log_summary.txt");
        Files.writeString(file, "stale");
        final SummaryWriter writer = new SummaryWriter(file, null);
        writer.close(0, 3);
        writer.close(5, 5);
        assertTrue(Files.readString(file).endsWith("3 ERRORS encountered. See detailed log.\n"),
            "second close ignored");
        try (var files = Files.list(dir))
        {
            assertEquals(1, files.count());
        }
    }

    @Test
    void shouldCopyTheSummaryToAStream()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new SummaryWriter(dir.resolve("s.txt"), new PrintStream(bytes, true, StandardCharsets.UTF_8)).close(0, 0);
        assertEquals(SummaryWriter.trailer(0, 0), bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldWarnAboutEqualIssueAfterTheParameters()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.OFFLINE)
            .sampleConcatenatePermutation(true).offlineExpectedQps(10).minDurationMs(1000));
        final String text = SummaryWriter.performanceSection(new PerformanceSummary("S", settings, result(3)));
        assertTrue(text.endsWith("accuracy_sample_count : 1024\n"
            + "WARNING: sample_concatenate_permutation was set to true. \n"
            + "Generated samples per query might be different as the one in the setting.\n"
            + "Check the generated_samples_per_query line in the detailed log for the real\n"
            + "samples_per_query value\n"), text);
    }

    @Test
    void shouldPrintTokenBlocksForServer()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .useTokenLatencies(true).serverTtftLatencyNs(2_000_000_000L).serverTpotLatencyNs(200_000_000L)
            .minDurationMs(1000).minQueryCount(1));
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {10, 20}), NONE, 2,
            2e-8, 2.0, 2.0, 4.0, SortedLatencies.sortInPlace(new long[] {3, 4}),
            SortedLatencies.sortInPlace(new long[] {1, 2}), 100);
        final String text = SummaryWriter.performanceSection(new PerformanceSummary("S", settings, r));

        assertTrue(text.contains("Completed samples per second    : 0.25\nCompleted tokens per second: 25.00\n"
            + "Result is : INVALID\n"), text);
        assertTrue(text.contains("TTFT Early Stopping Result:\n\nTPOT Early Stopping Result:\n * Run unsuccessful."),
            text);
        assertTrue(text.contains("\n99.90 percentile latency (ns)   : 20\n\n"
            + "Completed tokens per second                 : 25.00\n"
            + "Min First Token latency (ns)                : 3\n"), text);
        assertTrue(text.contains("Mean Time per Output Token (ns)               : 1\n"
            + "50.00 percentile time to output token (ns)   : 2\n"), text);
        assertTrue(text.contains("target_qps : 1\nttft_latency (ns): 2000000000\ntpot_latency (ns): 200000000\n"
            + "max_async_queries : 0\n"), text);
        assertFalse(text.contains("target_latency (ns)"), text);
    }

    @Test
    void shouldPrintTokenThroughputForOfflineAndSingleStream()
    {
        final EffectiveSettings offline = GoldenRuns.effective(new TestSettings().scenario(TestScenario.OFFLINE)
            .useTokenLatencies(true).inferTokenLatencies(true).tokenLatencyScalingFactor(10).offlineExpectedQps(1));
        final PerformanceResult r = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {10, 20}), NONE, 1,
            0.5, 0.0, 0.0, 0.5, NONE, NONE, 300);
        final String text = SummaryWriter.performanceSection(new PerformanceSummary("S", offline, r));
        assertTrue(text.contains("Samples per second: 4\nTokens per second: 600\nTokens per second (inferred): 40\n"),
            text);
        assertTrue(text.contains("99.90 percentile latency (ns)   : 20\n\n\n===="), "empty token block: " + text);

        final EffectiveSettings single = GoldenRuns.effective(new TestSettings()
            .scenario(TestScenario.SINGLE_STREAM).useTokenLatencies(true));
        final PerformanceResult s = new PerformanceResult(SortedLatencies.sortInPlace(new long[] {1_000_000}), NONE,
            1, 1e-3, 1.0, 2.0, 2.0, SortedLatencies.sortInPlace(new long[] {7}), SortedLatencies.sortInPlace(
            new long[] {3}), 50);
        final String singleText = SummaryWriter.performanceSection(new PerformanceSummary("S", single, s));
        assertTrue(singleText.contains("90.0th percentile latency (ns) : 1000000\n"
            + "90.0th first token percentile latency (ns) : 7\n"), singleText);
        assertTrue(singleText.contains("TPS w/ loadgen overhead         : 25.00\n"
            + "TPS w/o loadgen overhead        : 50000.00\n"), singleText);
    }

    @Test
    void shouldListEveryFailedCheckUnderRecommendations()
    {
        final EffectiveSettings settings = GoldenRuns.effective(new TestSettings().scenario(TestScenario.SERVER)
            .serverTargetLatencyNs(5).minDurationMs(10_000));
        final String text = SummaryWriter.performanceSection(new PerformanceSummary("S", settings, result(10)));
        assertTrue(text.contains("Result is : INVALID\n"
            + "  Performance constraints satisfied : NO\n"
            + "  Min duration satisfied : NO\n"
            + "  Min queries satisfied : NO\n"
            + "  Early stopping satisfied: NO\n"
            + "Recommendations:\n"
            + " * Reduce target QPS to improve latency.\n"
            + " * Increase the target QPS so the loadgen pre-generates more queries.\n"
            + " * The test exited early, before enough queries were issued.\n"
            + "   See the detailed log for why this may have occurred.\n"
            + "Early Stopping Result:\n"
            + " * Run unsuccessful.\n"), text);
    }

    private static PerformanceResult result(final int n)
    {
        final long[] latencies = new long[n];
        for (int i = 0; i < n; i++)
        {
            latencies[i] = 10 + i;
        }
        return new PerformanceResult(SortedLatencies.sortInPlace(latencies), NONE, n, 1e-6, 1.0, 1.0, 1.0, NONE,
            NONE, 0);
    }
}
