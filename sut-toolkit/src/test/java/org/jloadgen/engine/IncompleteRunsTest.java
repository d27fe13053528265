package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.SyntheticSut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs that cannot be VALID say so: samples that never complete (a SUT that stops completing, in every scenario and
 * mode), an abort while the SUT still has a queue, and the summary of a run that was cut short.
 */
class IncompleteRunsTest
{
    @TempDir
    Path dir;

    private static TestSettings performance(final TestScenario scenario)
    {
        final TestSettings s = new TestSettings().scenario(scenario).mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(500).minQueryCount(100);
        return switch (scenario)
        {
            case SINGLE_STREAM -> s.singleStreamExpectedLatencyNs(50_000);
            case MULTI_STREAM -> s.multiStreamExpectedLatencyNs(50_000).minQueryCount(200);
            case SERVER -> s.serverTargetQps(2_000);
            case OFFLINE -> s.offlineExpectedQps(2_000);
        };
    }

    private static EngineOptions options()
    {
        // A second without a completion: long enough that a busy machine's stall is not taken for a silent SUT.
        return EngineFixture.fastOptions().completionTimeoutMs(1_000).abortGraceMs(200);
    }

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldNeverBeValidWhenSamplesNeverComplete(final TestScenario scenario)
    {
        // Offline has one query: the SUT stops completing from the first; the others after 150 queries, more than
        // min_query_count, so that LoadGen's own four checks can all pass (Server did: VALID with 85% missing).
        final String after = scenario == TestScenario.OFFLINE ? "0" : "150";
        try (SyntheticSut sut = EngineFixture.synthetic("service", "fixed:20us", "misbehave", "never",
            "misbehave-after", after))
        {
            // 2 s: long enough that the SUT stops completing before the run could end naturally, however slowly the
            // machine runs its first 150 queries.
            final EngineFixture.Run run = EngineFixture.run(dir, sut, new SyntheticQsl(1024, 1024),
                performance(scenario).minDurationMs(2_000), options(), null, List.of());
            assertFalse(run.result().valid());
            assertEquals("INVALID", run.detail().value("result_validity"));
            assertTrue(run.summary().contains("Result is : INVALID\n"), run.summary());
            assertTrue(run.summary().contains("\n  All issued samples completed : NO ("), run.summary());
            assertTrue(run.summary().contains("\n  Ran to its end : NO (aborted: the SUT completed no sample for 1000 "
                + "ms (--completion-timeout-ms))\n"), run.summary());
            assertTrue(run.summary().contains("\nRecommendations:\n * The run was aborted: the SUT completed no "
                + "sample for 1000 ms"), run.summary());
            // LoadGen's advice assumes a run that went to its end: none of it for a run cut short.
            assertFalse(run.summary().contains("Increase") || run.summary().contains("Decrease"), run.summary());
            final String reason = String.valueOf(run.detail().value("result_invalid_reason"));
            assertTrue(reason.startsWith("The run was aborted: the SUT completed no sample for 1000 ms"), reason);
            assertTrue(reason.contains(" issued samples never completed."), reason);
            assertTrue(run.result().aborted());
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestMode.class, names = {"ACCURACY_ONLY", "SUBMISSION_RUN"})
    void shouldSayWhyInTheSummaryOfAnAccuracyRunWhoseSamplesNeverComplete(final TestMode mode)
    {
        try (SyntheticSut sut = EngineFixture.synthetic("misbehave", "never", "misbehave-after", "0"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir, sut, new SyntheticQsl(300, 128),
                performance(TestScenario.OFFLINE).mode(mode), options(), null, List.of());
            assertTrue(run.summary().startsWith("The run was aborted: the SUT completed no sample for 1000 ms "
                + "(--completion-timeout-ms). Its results cover only the part before the abort; run it again to the "
                + "end.\n\n"), run.summary());
            assertTrue(run.summary().endsWith("2 ERRORS encountered. See detailed log.\n"), run.summary());
            assertEquals(1, run.detail().records().stream().filter(r -> r.key().equals("loaded_qsl_set")).count(),
                "no further series once the SUT stopped completing");
            assertTrue(run.result().performance().isEmpty());
            assertFalse(run.result().valid());
        }
    }

    @Test
    void shouldStopAnOfflineRunPromptlyAndCountAnInFlightSampleOnceWhenAborted()
    {
        // 20 s of queued work (one worker, 2 ms a sample, a queue smaller than the query so that issuing blocks);
        // the abort must end the run within the grace period, not after the queue.
        final TestSettings s = performance(TestScenario.OFFLINE).minDurationMs(10_000).offlineExpectedQps(900);
        try (SyntheticSut sut = EngineFixture.synthetic("service", "fixed:2ms", "workers", "1", "queue", "1024"))
        {
            final ByteArrayOutputStream console = new ByteArrayOutputStream();
            final TestRunner runner = new TestRunner(sut, new SyntheticQsl(1024, 1024), s,
                new LogSettings().outputDirectory(dir), options().abortGraceMs(1_000), null, List.of(),
                new PrintStream(console, true, StandardCharsets.UTF_8));
            // The abort comes half a second after the first batch completed, while the issue thread waits for room.
            final long[] abortNs = new long[1];
            final Thread aborter = Thread.ofPlatform().start(() ->
            {
                while (sut.statistics().orElseThrow().snapshot().samples() == 0)
                {
                    sleep(5);
                }
                sleep(500);
                abortNs[0] = System.nanoTime();
                runner.abort("operator pressed Ctrl-C");
            });
            final TestResult result = runner.run();
            final long afterAbortMs = (System.nanoTime() - abortNs[0]) / 1_000_000;
            join(aborter);
            assertTrue(afterAbortMs < 5_000, "ran " + afterAbortMs + " ms after the abort, 19 s of work left");
            final EngineFixture.Run run = EngineFixture.read(result, dir, console);
            assertTrue(run.summary().contains("\n  Ran to its end : NO (aborted: operator pressed Ctrl-C)\n"),
                run.summary());
            assertFalse(run.summary().contains("Increase expected QPS"), run.summary());
            assertTrue(run.summary().contains(" * The run was aborted: operator pressed Ctrl-C. Its results cover "
                + "only the part before the abort; run it again to the end.\n"), run.summary());
            final List<String> errors = run.detail().records().stream().filter(MlLogParser.Record::isError)
                .map(r -> String.valueOf(r.value())).toList();
            assertTrue(errors.contains("Test aborted: operator pressed Ctrl-C"), errors.toString());
            assertTrue(errors.stream().noneMatch(e -> e.startsWith("Received completion for an old sample")),
                "a sample in flight at the abort is counted once, as never completed: " + errors);
            assertEquals("operator pressed Ctrl-C", result.abortReason());
            assertTrue(sut.droppedSamples() > 0, "the SUT dropped its queue");
        }
    }

    @Test
    void shouldReportTheSeriesAFindPeakSearchWasAbortedIn()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.FIND_PEAK_PERFORMANCE)
            .serverTargetQps(1_000).minDurationMs(60_000).minQueryCount(100);
        try (SyntheticSut synthetic = EngineFixture.synthetic("service", "fixed:10us", "inline", "true"))
        {
            final AtomicLong queries = new AtomicLong();
            final SystemUnderTest sut = new SystemUnderTest()
            {
                @Override
                public String name()
                {
                    return synthetic.name();
                }

                @Override
                public void issueQuery(final QuerySamples samples, final ResponseSink sink)
                {
                    queries.incrementAndGet();
                    synthetic.issueQuery(samples, sink);
                }

                @Override
                public void flushQueries()
                {
                    synthetic.flushQueries();
                }
            };
            final ByteArrayOutputStream console = new ByteArrayOutputStream();
            final TestRunner runner = new TestRunner(sut, new SyntheticQsl(1024, 1024), s,
                new LogSettings().outputDirectory(dir), options(), null, List.of(),
                new PrintStream(console, true, StandardCharsets.UTF_8));
            final Thread aborter = Thread.ofPlatform().start(() ->
            {
                // Well into the first series of the search.
                while (queries.get() < 100)
                {
                    sleep(5);
                }
                runner.abort("operator pressed Ctrl-C");
            });
            final TestResult result = runner.run();
            join(aborter);
            final EngineFixture.Run run = EngineFixture.read(result, dir, console);
            assertEquals(1, result.performance().size());
            assertTrue(run.summary().contains("(aborted: operator pressed Ctrl-C)"), run.summary());
            assertEquals(1, run.detail().records().stream().filter(r -> r.key().equals("generated_query_count"))
                .count(), "the search stops in the series it was aborted in");
        }
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(final Thread thread)
    {
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
