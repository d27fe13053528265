package org.jloadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.cli.api.ProgressLine;
import org.jloadgen.engine.RunStatus;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.SyntheticSut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressLineTest
{
    @TempDir
    Path dir;

    @Test
    void shouldShowElapsedCountsRateAndP99()
    {
        final ProgressLine line = ProgressLine.start(null, System.err, "[2/2] performance", false);
        final String first = line.format(new RunStatus.Snapshot("performance run", "Server PerformanceOnly", true,
            2_000_000_000L, 10_000, 4_000, 3_990, 1_250_000));
        assertEquals("[2/2] performance | performance run | Server PerformanceOnly | 2.0/10.0 s | issued 4,000 "
            + "done 3,990 | p99 1.25 ms", first);
        // The rate needs two readings: 2,000 completions in the 1 s between them.
        final String second = line.format(new RunStatus.Snapshot("performance run", "Server PerformanceOnly", true,
            3_000_000_000L, 10_000, 6_000, 5_990, 900));
        assertTrue(second.contains("| 3.0/10.0 s | issued 6,000 done 5,990 | 2,000/s | p99 900 ns"), second);
        assertEquals("engine warm-up | preparing", ProgressLine.start(null, System.err, null, false)
            .format(new RunStatus.Snapshot("engine warm-up", "", false, 0, 0, 0, 0, -1)));
    }

    @Test
    void shouldShowTheSamplesTheSeriesStillNeeds()
    {
        // Past min_duration a series goes on until it has issued min_query_count's samples: the line says so.
        final ProgressLine line = ProgressLine.start(null, System.err, null, false);
        final String waiting = line.format(new RunStatus.Snapshot("performance run", "Server PerformanceOnly", true,
            19_100_000_000L, 100, 18, 18, -1, "", 100));
        assertEquals("performance run | Server PerformanceOnly | 19.1/0.1 s | issued 18 of 100 done 18", waiting);
        final String enough = line.format(new RunStatus.Snapshot("performance run", "Server PerformanceOnly", true,
            20_100_000_000L, 100, 100, 99, -1, "", 100));
        assertTrue(enough.contains("| issued 100 done 99"), enough);
    }

    @Test
    void shouldEraseTheLineBeforeTheTestPrints()
    {
        // The summary goes to stdout while the line stands on stderr: the line is erased first, not run into.
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ProgressLine line = ProgressLine.start(null, new PrintStream(err, true, StandardCharsets.UTF_8), null,
            false);
        final PrintStream guarded = ProgressLine.guard(new PrintStream(out, true, StandardCharsets.UTF_8));
        line.draw("performance run | 1.0/10.0 s");
        guarded.print("=====\n");
        guarded.print("Summary\n");
        assertEquals("\r\033[Kperformance run | 1.0/10.0 s\r\033[K", err.toString(StandardCharsets.UTF_8),
            "erased once, before the first write");
        assertEquals("=====\nSummary\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldStayOffWhenStandardErrorIsNotATerminal()
    {
        // Surefire pipes the forked JVM's streams: no terminal, so no status line in files or CI logs.
        assertFalse(ProgressLine.stderrIsTerminal());
    }

    @Test
    void shouldReadTheRunningSeriesCountersFromAnotherThread() throws Exception
    {
        final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(2_000)
            .minDurationMs(1_500).minQueryCount(100);
        try (SyntheticSut sut = new SyntheticSut(Map.of("service", "fixed:50us", "workers", "1"), null))
        {
            final TestRunner runner =
                runner(sut, settings, new EngineOptions().jitWarmupMs(0).histogramIntervalMs(200));
            final RunStatus status = runner.status();
            final List<RunStatus.Snapshot> seen = snapshotsWhileRunning(runner, 100);
            final List<RunStatus.Snapshot> issuing = seen.stream().filter(RunStatus.Snapshot::issuing).toList();
            assertTrue(issuing.size() >= 5, "snapshots while issuing: " + issuing.size());
            final RunStatus.Snapshot last = issuing.get(issuing.size() - 1);
            assertEquals("performance run", last.step());
            assertEquals("Server PerformanceOnly, target 2,000 QPS", last.series());
            assertEquals(1_500, last.minDurationMs());
            assertTrue(last.samplesIssued() > issuing.get(0).samplesIssued(), "issued grows");
            assertTrue(last.samplesCompleted() > 0 && last.samplesCompleted() <= last.samplesIssued());
            assertTrue(last.elapsedNs() > 500_000_000L, "elapsed " + last.elapsedNs());
            assertTrue(last.intervalP99Ns() >= 50_000, "p99 from the latency log's intervals: " + last.intervalP99Ns());
            assertFalse(status.snapshot().issuing(), "between series after the end");
            assertEquals("computing the results and writing the logs", status.snapshot().preparing());
            assertTrue(seen.stream().noneMatch(s -> !s.issuing() && s.preparing().isEmpty()),
                "every snapshot before issuing says what is being prepared");
        }
    }

    @Test
    void shouldCountAnOfflineQuerysSamplesAsIssuedWhileTheSutCompletesThemInsideTheCall() throws Exception
    {
        // A GPU SUT holds the one Offline query for the whole run; the progress line read "issued 0 done 19,084,032".
        final TestSettings settings = new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(1_000)
            .minDurationMs(600).minQueryCount(1);
        try (SyntheticSut sut = new SyntheticSut(Map.of("service", "fixed:1ms", "inline", "true"), null))
        {
            final List<RunStatus.Snapshot> seen = snapshotsWhileRunning(
                runner(sut, settings, new EngineOptions().jitWarmupMs(0)), 50);
            final List<RunStatus.Snapshot> midway = seen.stream()
                .filter(x -> x.issuing() && x.samplesCompleted() > 0).toList();
            assertTrue(midway.size() >= 3, "snapshots with samples done inside the call: " + midway.size());
            assertEquals(Optional.empty(), midway.stream().filter(x -> x.samplesIssued() < x.samplesCompleted())
                .findFirst(), "a snapshot with fewer samples issued than done");
        }
    }

    private TestRunner runner(final SyntheticSut sut, final TestSettings settings, final EngineOptions engine)
    {
        return new TestRunner(sut, new SyntheticQsl(1024, 1024), settings, new LogSettings().outputDirectory(dir),
            engine, null, List.of(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    /** Runs the test on another thread and reads its status every {@code periodMs} until it ends. */
    private static List<RunStatus.Snapshot> snapshotsWhileRunning(final TestRunner runner, final long periodMs)
        throws Exception
    {
        final RunStatus status = runner.status();
        final CompletableFuture<TestResult> done = CompletableFuture.supplyAsync(runner::run);
        final List<RunStatus.Snapshot> seen = new ArrayList<>();
        while (!done.isDone())
        {
            seen.add(status.snapshot());
            Thread.sleep(periodMs);
        }
        done.get(30, TimeUnit.SECONDS);
        return seen;
    }

    @Test
    void shouldSayWhatIsBeingPrepared()
    {
        final ProgressLine line = ProgressLine.start(null, System.err, "[2/2] performance", false);
        assertEquals("[2/2] performance | performance run | preparing: loading 1,024 samples",
            line.format(preparing("loading 1,024 samples")));
        assertEquals("[2/2] | loading 1,024 samples", line.format(preparing("loading 1,024 samples"), 30));
    }

    @Test
    void shouldFitTheTerminalWidthDroppingTheLeastUsefulFieldsFirst()
    {
        assertEquals("[2/2] performance | performance run | Server PerformanceOnly, target 2,000 QPS | 5.6/20.0 s | "
            + "issued 11,200 done 11,190 | 2,000/s | p99 2.34 ms", fitted(200));
        assertEquals("[2/2] | target 2,000 QPS | 5.6/20.0 s | done 11,190 | 2,000/s | p99 2.34 ms", fitted(79));
        assertEquals("target 2,000 QPS | 5.6/20.0 s | done 11,190 | p99 2.34 ms", fitted(59));
        assertEquals("5.6/20.0 s | p99 2.34 ms", fitted(30));
        assertEquals("5.6/20.0 s", fitted(12));
        assertEquals("5.6/2", fitted(5));
    }

    /** The line after two readings 1 s apart (so it has a rate), fitted to a width. */
    private static String fitted(final int width)
    {
        final ProgressLine line = ProgressLine.start(null, System.err, "[2/2] performance", false);
        line.format(new RunStatus.Snapshot("performance run", "Server PerformanceOnly, target 2,000 QPS", true,
            4_600_000_000L, 20_000, 9_200, 9_190, 2_340_000));
        return line.format(new RunStatus.Snapshot("performance run", "Server PerformanceOnly, target 2,000 QPS", true,
            5_600_000_000L, 20_000, 11_200, 11_190, 2_340_000), width);
    }

    @Test
    void shouldDrawOneFittedLineAtATimeAndAPlainLineWithoutATerminal() throws Exception
    {
        final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(2_000)
            .minDurationMs(1_500).minQueryCount(100);
        try (SyntheticSut sut = new SyntheticSut(Map.of("service", "fixed:50us", "workers", "1"), null))
        {
            final TestRunner runner = new TestRunner(sut, new SyntheticQsl(1024, 1024), settings,
                new LogSettings().outputDirectory(dir), new EngineOptions().jitWarmupMs(0)
                    .histogramIntervalMs(200), null, List.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
            final int[] columns = {60};
            try (ProgressLine line = ProgressLine.start(runner.status(),
                new PrintStream(terminal, true, StandardCharsets.UTF_8), "[2/2] performance",
                ProgressLine.Output.LIVE, () -> columns[0]))
            {
                runner.run();
            }
            // What the terminal shows: every redraw erases the line and writes one that fits; no line break.
            final String written = terminal.toString(StandardCharsets.UTF_8);
            assertFalse(written.contains("\n"), written);
            final String[] draws = written.split("\r\033\\[K", -1);
            assertTrue(draws.length >= 4, "redraws: " + draws.length);
            assertEquals("", draws[draws.length - 1], "erased at the end");
            for (final String draw : draws)
            {
                assertTrue(draw.length() <= 59, "'" + draw + "' is " + draw.length() + " columns");
            }
            assertTrue(List.of(draws).stream().anyMatch(d -> d.contains("/1.5 s")), written);
        }
    }

    @Test
    void shouldPrintAPlainLinePeriodicallyWhereStandardErrorIsNotATerminal() throws Exception
    {
        final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(2_000)
            .minDurationMs(1_500).minQueryCount(100);
        try (SyntheticSut sut = new SyntheticSut(Map.of("service", "fixed:50us", "workers", "1"), null))
        {
            final TestRunner runner = new TestRunner(sut, new SyntheticQsl(1024, 1024), settings,
                new LogSettings().outputDirectory(dir), new EngineOptions().jitWarmupMs(0)
                    .histogramIntervalMs(200), null, List.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            final ByteArrayOutputStream file = new ByteArrayOutputStream();
            try (ProgressLine line = ProgressLine.start(runner.status(),
                new PrintStream(file, true, StandardCharsets.UTF_8), null, ProgressLine.Output.PLAIN, () -> 20, 200))
            {
                runner.run();
            }
            // A log file gets whole lines, no carriage returns or escape sequences, and the fields in full.
            final String written = file.toString(StandardCharsets.UTF_8);
            assertFalse(written.contains("\r") || written.contains("\033"), written);
            final List<String> lines = written.lines().toList();
            assertFalse(lines.isEmpty(), written);
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("performance run | Server PerformanceOnly, target "
                + "2,000 QPS | ") && l.contains("/1.5 s | issued ")), written);
        }
    }

    private static RunStatus.Snapshot preparing(final String what)
    {
        return new RunStatus.Snapshot("performance run", "", false, 0, 0, 0, 0, -1, what, 0);
    }
}
