package org.jloadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.api.TestScenario;
import org.jloadgen.cli.api.InterruptGuard;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.log.PeriodicFlush;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A whole {@code jloadgen run} process, interrupted or killed at a known point (the "Perf mode start" line that
 * {@code print_timestamps} prints just before the first query): Ctrl-C ends it within seconds with logs that say
 * why, and a process killed outright leaves its detail log up to its last second.
 */
class InterruptedRunsTest
{
    /** Bound of the tests (the goal, measured by scripts/interrupt-latency, is 3 s on a quiet machine). */
    private static final long EXIT_WITHIN_MS = 8_000;
    private static final String PERF_START = "Loadgen :: Perf mode start.";

    @TempDir
    Path dir;

    /**
     * A synthetic run of about 20 s in the scenario, with more work queued in the SUT than it can do in that time
     * (one worker, 2 ms a sample, a queue smaller than an Offline query, so that issuing blocks as with the cpu SUT).
     */
    private static List<String> longRun(final TestScenario scenario, final Path out)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--no-audit-config", "--sut", "synthetic",
            "--scenario", scenario.logName(), "--sut-opt", "service=fixed:2ms", "--sut-opt", "workers=1",
            "--sut-opt", "queue=1024", "--set", "min_duration_ms=20000", "--set", "print_timestamps=1",
            "--jit-warmup-ms", "0", "--out", out.toString()));
        args.addAll(switch (scenario)
        {
            case OFFLINE -> List.of("--set", "offline_expected_qps=900");
            case SERVER -> List.of("--set", "server_target_qps=2000");
            case SINGLE_STREAM -> List.of("--set", "single_stream_expected_latency_ns=2000000");
            case MULTI_STREAM -> List.of("--set", "multi_stream_expected_latency_ns=16000000");
        });
        return args;
    }

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldEndPromptlyOnCtrlCWithLogsAndAConsoleThatSayWhy(final TestScenario scenario) throws Exception
    {
        final Path out = dir.resolve("out");
        try (ChildJvm child = ChildJvm.jloadgen(dir, longRun(scenario, out).toArray(String[]::new)))
        {
            child.awaitOutput(PERF_START, 60_000);
            Thread.sleep(500);
            final long signalNs = System.nanoTime();
            child.signal("INT");
            final int status = child.awaitExit(EXIT_WITHIN_MS);
            final long exitMs = (System.nanoTime() - signalNs) / 1_000_000;

            assertEquals(130, status, "the exit status of a SIGINT\n" + child.err());
            assertTrue(exitMs < EXIT_WITHIN_MS, exitMs + " ms");
            final String aborted = "aborted: " + InterruptGuard.REASON;
            assertTrue(child.out().contains("  Ran to its end : NO (" + aborted + ")\n"), child.out());
            assertTrue(child.err().contains("jloadgen: error: Test aborted: " + InterruptGuard.REASON), child.err());
            assertTrue(child.err().contains("jloadgen: the run was aborted (" + InterruptGuard.REASON
                + "); its logs say so"), child.err());
            final String summary = Files.readString(out.resolve("mlperf_log_summary.txt"));
            assertTrue(summary.contains("Result is : INVALID\n"), summary);
            assertTrue(summary.contains(" * The run was aborted: " + InterruptGuard.REASON + "."), summary);
            assertFalse(summary.contains("Increase") || summary.contains("Decrease"), "no advice it cannot know");
            assertEquals("INVALID", MlLogParser.parse(out.resolve("mlperf_log_detail.txt")).value("result_validity"));
            try (Stream<Path> files = Files.list(out))
            {
                assertTrue(files.noneMatch(p -> p.toString().endsWith(".partial")), "every log finished");
            }
        }
    }

    @Test
    void shouldEndPromptlyOnSigtermToo() throws Exception
    {
        final Path out = dir.resolve("out");
        try (ChildJvm child = ChildJvm.jloadgen(dir, longRun(TestScenario.OFFLINE, out).toArray(String[]::new)))
        {
            child.awaitOutput(PERF_START, 60_000);
            Thread.sleep(200);
            child.signal("TERM");
            assertEquals(143, child.awaitExit(EXIT_WITHIN_MS), child.err());
            assertTrue(Files.readString(out.resolve("mlperf_log_summary.txt")).contains("(aborted: "
                + InterruptGuard.REASON + ")"));
        }
    }

    @Test
    void shouldLeaveTheDetailLogUpToItsLastSecondWhenKilledAndSayIncompleteOnTheNextRun() throws Exception
    {
        final Path out = dir.resolve("out");
        try (ChildJvm child = ChildJvm.jloadgen(dir, longRun(TestScenario.SERVER, out).toArray(String[]::new)))
        {
            child.awaitOutput(PERF_START, 60_000);
            // Everything before the first query was logged before the line; a flush interval later it is on disk.
            Thread.sleep(PeriodicFlush.INTERVAL_MS + 500);
            child.kill();
        }
        final Path partial = out.resolve("mlperf_log_detail.txt.partial");
        assertTrue(Files.exists(partial), "the detail log of the killed run");
        assertFalse(Files.exists(out.resolve("mlperf_log_summary.txt")), "a killed run has no summary");
        // Every line complete and parsed, the last record before the timed part included.
        final MlLogParser partialLog = MlLogParser.parse(partial);
        assertEquals("loadgen_version", partialLog.records().get(0).key());
        assertTrue(partialLog.first("generated_query_duration") != null, "records up to the last second");

        final CliTest.Outcome rerun = CliTest.jloadgen("run", "--no-audit-config", "--sut", "null", "--scenario",
            "Offline", "--set", "min_duration_ms=0", "--jit-warmup-ms", "0", "--out", out.toString(), "--quiet");
        assertTrue(Files.exists(out.resolve("mlperf_log_summary.txt")), rerun.out() + rerun.err());
        assertTrue(rerun.out().contains("jloadgen: warning: the previous run in " + out.toAbsolutePath()
            + " is incomplete (it was killed or crashed, no summary was written); its detail log is kept as "
            + "mlperf_log_detail.txt.incomplete"), rerun.out());
        assertTrue(Files.exists(out.resolve("mlperf_log_detail.txt.incomplete")));
        assertFalse(Files.exists(partial));
    }
}
