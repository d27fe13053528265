package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cpu SUT when a test is given up: an abort during a large Offline query (more than its queue holds, so the
 * issue thread waits for room) drops the queue and ends the run within the grace period; and the one default-SUT
 * rule (a run with options but no {@code --sut} uses the default job's SUT, cpu).
 */
class CpuSutAbortTest
{
    @TempDir
    Path dir;

    @Test
    void shouldDropTheQueueAndEndAnOfflineRunPromptlyWhenAborted() throws Exception
    {
        // 4.4M samples, 20-40 s of inference on the development machine; the abort comes half a second after the
        // first batch, while the issue thread waits for room in the 64k-sample queue.
        final TestSettings settings = new TestSettings().scenario(TestScenario.OFFLINE)
            .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(20_000).offlineExpectedQps(200_000);
        try (CpuSut sut = CpuSut.open(Runs.fashion(), InferenceSettings.defaults(TestScenario.OFFLINE)))
        {
            final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP);
            final TestRunner runner = new TestRunner(sut, sut.library(), settings,
                new LogSettings().outputDirectory(dir), engine, null, List.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            final long[] abortNs = new long[1];
            final Thread aborter = Thread.ofPlatform().start(() ->
            {
                try
                {
                    while (sut.zeroCopyBatches() + sut.stagedBatches() == 0)
                    {
                        Thread.sleep(5);
                    }
                    Thread.sleep(500);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                abortNs[0] = System.nanoTime();
                runner.abort("operator pressed Ctrl-C");
            });
            final TestResult result = runner.run();
            final long afterAbortMs = (System.nanoTime() - abortNs[0]) / 1_000_000;
            aborter.join();
            assertTrue(afterAbortMs < 5_000, "ran " + afterAbortMs + " ms after the abort");
            assertEquals("operator pressed Ctrl-C", result.abortReason());
            final String summary = Files.readString(result.summaryFile());
            assertTrue(summary.contains("  Ran to its end : NO (aborted: operator pressed Ctrl-C)\n"), summary);
            assertEquals("INVALID", MlLogParser.parse(result.detailFile()).value("result_validity"));
        }
    }

    @Test
    void shouldRunTheDefaultJobsSutWhenOptionsAreGivenWithoutSut()
    {
        final CliRun run = Runs.cli("run", "--no-audit-config", "--scenario", "Offline", "--set",
            "min_duration_ms=0", "--jit-warmup-ms", "0", "--out", dir.toString(), "--quiet");
        assertTrue(String.valueOf(MlLogParser.parse(dir.resolve("mlperf_log_detail.txt")).value("sut_name"))
            .startsWith("ONNXRuntime-CPU("), run.out() + run.err());
        final CliRun help = Runs.cli("run", "--help");
        assertTrue(help.out().replaceAll("\\s+", " ").contains("here: cpu."), help.out());
    }
}
