package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.spi.SutContext;
import org.jloadgen.sut.network.serve.FlakyNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --sut network} against a node that answers {@code RESOURCE_EXHAUSTED} to one inference call in 40: LoadGen's
 * policy ends the run with one message and counts that add up; {@code on-error=count} counts the failed calls by
 * cause as failed samples and goes on to the end; {@code retries=N} sends them again.
 */
class NetworkOnErrorTest
{
    @TempDir
    Path dir;

    private static TestResult run(final NetworkSutProvider.Instance instance, final Path out)
    {
        // 1000 queries at 500 QPS; a bound so loose that only failures can make the run INVALID.
        final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
            .mode(TestMode.PERFORMANCE_ONLY).serverTargetQps(500).minDurationMs(2_000).minQueryCount(1_000)
            .serverTargetLatencyNs(60_000_000_000L);
        final EngineOptions engine = new EngineOptions().serverWait(ServerWaitStrategy.SLEEP)
            .completionWait(CompletionWaitStrategy.SLEEP).jitWarmupMs(0).completionTimeoutMs(30_000);
        return new TestRunner(instance.sut(), instance.qsl(), settings, new LogSettings().outputDirectory(out)
            .copySummaryToStdout(false), engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    private static NetworkSutProvider.Instance client(final FlakyNode node, final String... options)
    {
        final Map<String, String> o = new HashMap<>(Map.of("endpoints", node.endpoint(), "model", "null",
            "warmup-ms", "0"));
        for (int i = 0; i < options.length; i += 2)
        {
            o.put(options[i], options[i + 1]);
        }
        return (NetworkSutProvider.Instance)new NetworkSutProvider().create(new SutContext(TestScenario.SERVER, o,
            1024, 1024));
    }

    private static long value(final MlLogParser detail, final String key)
    {
        return ((Number)detail.value(key)).longValue();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndAtTheFirstRefusalWithOneMessageUnderLoadGensPolicy() throws Exception
    {
        try (FlakyNode node = FlakyNode.start(40);
             NetworkSutProvider.Instance instance = client(node))
        {
            final TestResult result = run(instance, dir.resolve("fail"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final List<String> errors = detail.records().stream().filter(MlLogParser.Record::isError)
                .map(r -> String.valueOf(r.value())).toList();
            assertEquals(1, errors.stream().filter(e -> e.contains("RESOURCE_EXHAUSTED")).count(), errors::toString);
            assertTrue(errors.stream().anyMatch(e -> e.startsWith("The SUT failed: node 'flaky' (" + node.endpoint()
                + ") failed: RESOURCE_EXHAUSTED: rate limited, retry later; when it failed: ")), errors::toString);
            assertTrue(errors.stream().noneMatch(e -> e.contains("Exception")), errors::toString);
            final String summary = Files.readString(result.summaryFile());
            assertTrue(summary.contains("Result is : INVALID"));
            // One set of counts: the client's totals add up with the engine's (issued = sent + not sent; never
            // completed = failed + in flight + not sent).
            final String totals = instance.networkSut().describeTotals();
            final java.util.regex.Matcher t = java.util.regex.Pattern.compile("(\\d+) samples issued: (\\d+) sent, "
                + "(\\d+) answered, (\\d+) failed, (\\d+) in flight(?:, (\\d+) not sent \\(issued after the "
                + "failure\\))?")
                .matcher(totals);
            assertTrue(t.matches(), totals);
            final long failed = Long.parseLong(t.group(4));
            final long notSent = t.group(6) == null ? 0 : Long.parseLong(t.group(6));
            // Calls in flight when the run failed still ended, some of them refused too: each counted once.
            assertEquals("RESOURCE_EXHAUSTED=" + failed, detail.value("jloadgen_failures_by_cause"));
            final java.util.regex.Matcher s = java.util.regex.Pattern.compile("\\((\\d+) of (\\d+) never "
                + "completed\\)").matcher(summary);
            assertTrue(s.find(), summary);
            assertEquals(Long.parseLong(t.group(1)), Long.parseLong(s.group(2)), totals + "\n" + summary);
            assertEquals(failed + Long.parseLong(t.group(5)) + notSent, Long.parseLong(s.group(1)), totals + "\n"
                + summary);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldCountRefusedCallsAsFailedSamplesAndGoOnUnderOnErrorCount() throws Exception
    {
        try (FlakyNode node = FlakyNode.start(40);
             NetworkSutProvider.Instance instance = client(node, "on-error", "count"))
        {
            final TestResult result = run(instance, dir.resolve("count"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final long issued = value(detail, "generated_query_count");
            assertEquals(issued, node.infers(), "every sample sent once, to the end of the run");
            final long failed = issued / 40;
            assertTrue(failed >= 25, "failed " + failed);
            assertEquals(0, detail.errorCount(), () -> detail.records().toString());
            assertEquals(failed, value(detail, "jloadgen_failed_samples"));
            assertEquals(issued - failed, value(detail, "jloadgen_completed_samples"));
            assertEquals("RESOURCE_EXHAUSTED=" + failed, detail.value("jloadgen_failures_by_cause"));
            assertEquals("INVALID", detail.value("result_validity"));
            final String totals = issued + " samples issued: " + issued + " sent, " + (issued - failed)
                + " answered, " + failed + " failed, 0 in flight";
            assertEquals(totals, instance.networkSut().describeTotals());
            final String summary = Files.readString(result.summaryFile());
            assertTrue(summary.contains("Failed samples : " + failed + " of " + issued + " issued"), summary);
            assertTrue(summary.contains("network SUT (on-error=count, retries=0): " + totals
                + "\n  RESOURCE_EXHAUSTED: " + failed + " failed (first: node 'flaky' (" + node.endpoint()
                + ") RESOURCE_EXHAUSTED: rate limited, retry later)\n"), summary);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldLeaveTheWarmUpsFailedCallsOutOfTheRunsCounts() throws Exception
    {
        // The warm-up's calls are refused one in 40 too: under on-error=count they are done, not lost, so the
        // warm-up does not stall on them and the run's counts start from zero after it (a user saw "1987 samples
        // issued" beside the engine's 985 when the warm-up's counts stayed in).
        try (FlakyNode node = FlakyNode.start(40);
             NetworkSutProvider.Instance instance = client(node, "on-error", "count", "warmup-ms", "1500"))
        {
            final TestResult result = run(instance, dir.resolve("warm"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final String warmup = String.valueOf(detail.value(NetworkSut.WARMUP_KEY));
            assertTrue(warmup.matches("\\d+ requests .* \\d+ answered, \\d+ failed, answer rate .*: connections open"
                + ".*"), warmup);
            final long issued = value(detail, "generated_query_count");
            final long failed = value(detail, "jloadgen_failed_samples");
            assertTrue(failed > 0 && failed < issued / 20, "failed " + failed + " of " + issued);
            assertEquals(issued + " samples issued: " + issued + " sent, " + (issued - failed) + " answered, "
                + failed + " failed, 0 in flight", instance.networkSut().describeTotals());
            assertEquals("RESOURCE_EXHAUSTED=" + failed, detail.value("jloadgen_failures_by_cause"));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldSendRefusedCallsAgainWithRetries() throws Exception
    {
        try (FlakyNode node = FlakyNode.start(40);
             NetworkSutProvider.Instance instance = client(node, "on-error", "count", "retries", "3"))
        {
            final TestResult result = run(instance, dir.resolve("retries"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final long issued = value(detail, "generated_query_count");
            final long retries = value(detail, "jloadgen_retries");
            assertEquals(issued + retries, node.infers());
            assertEquals(node.infers() / 40, retries, "every refused call was sent again, and answered");
            assertNull(detail.first("jloadgen_failed_samples"));
            assertEquals("RESOURCE_EXHAUSTED=0 (" + retries + " retried)", detail.value("jloadgen_failures_by_cause"));
            assertEquals("VALID", detail.value("result_validity"), Files.readString(result.summaryFile()));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldCancelAndCountACallUnansweredPastTheTimeoutUnderOnErrorCount() throws Exception
    {
        try (FlakyNode node = FlakyNode.silent(40);
             NetworkSutProvider.Instance instance = client(node, "on-error", "count", "timeout-ms", "300"))
        {
            final TestResult result = run(instance, dir.resolve("timeouts"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final long issued = value(detail, "generated_query_count");
            assertEquals(issued, node.infers());
            final long failed = issued / 40;
            assertEquals(failed, value(detail, "jloadgen_failed_samples"));
            assertEquals("timeout=" + failed, detail.value("jloadgen_failures_by_cause"));
            assertEquals(issued + " samples issued: " + issued + " sent, " + (issued - failed) + " answered, "
                + failed + " failed, 0 in flight", instance.networkSut().describeTotals());
            assertEquals(0, detail.errorCount(), () -> detail.records().toString());
        }
    }

    @Test
    void shouldRefuseABadPolicy()
    {
        final String message = assertThrows(IllegalArgumentException.class, () -> NetworkSutOptions.parse(
            Map.of("endpoints", "h:1", "model", "m", "on-error", "skip"))).getMessage();
        assertTrue(message.startsWith("on-error must be fail or count, got 'skip'"), message);
        final String retries = assertThrows(IllegalArgumentException.class, () -> NetworkSutOptions.parse(
            Map.of("endpoints", "h:1", "model", "m", "retries", "-1"))).getMessage();
        assertTrue(retries.startsWith("retries must be an integer from 0 to 100, got '-1'"), retries);
    }
}
