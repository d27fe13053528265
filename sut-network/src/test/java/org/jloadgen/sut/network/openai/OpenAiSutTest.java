package org.jloadgen.sut.network.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jloadgen.accuracy.AccuracyLogReader;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SutLogNotes;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAI-compatible streaming client against an in-process server with scripted token timings: TTFT and TPOT
 * in the logs equal the script exactly (stepped clock), a concurrent Server run completes every stream with its
 * text and token count, and servers that fail end the run INVALID naming them.
 */
class OpenAiSutTest
{
    private static final long TTFT_NS = 25_000_000;
    private static final long TPOT_NS = 5_000_000;
    private static final int PROMPTS = 20;

    @TempDir
    Path dir;

    private Path prompts() throws Exception
    {
        final Path file = dir.resolve("prompts.txt");
        Files.writeString(file, IntStream.range(0, PROMPTS).mapToObj(i -> "prompt " + i)
            .collect(Collectors.joining("\n", "", "\n")));
        return file;
    }

    private SutInstance client(final FakeLlmServer server, final String... options) throws Exception
    {
        final Map<String, String> o = new HashMap<>(Map.of("url", server.url(), "model", FakeLlmServer.MODEL,
            "dataset", prompts().toString()));
        for (int i = 0; i < options.length; i += 2)
        {
            o.put(options[i], options[i + 1]);
        }
        return new OpenAiSutProvider().create(new SutContext(TestScenario.SERVER, o, 1, 1));
    }

    private static TestResult run(final SystemUnderTest sut, final SutInstance instance, final TestSettings settings,
        final EngineOptions engine, final Path out)
    {
        return new TestRunner(sut, instance.qsl(), settings, new LogSettings().outputDirectory(out)
            .copySummaryToStdout(false), engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    private static long value(final MlLogParser detail, final String key)
    {
        return ((Number)detail.value(key)).longValue();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldLogTheScriptedTimeToFirstTokenAndTimePerOutputTokenExactly() throws Exception
    {
        final SteppedClock clock = new SteppedClock(1_000_000_000L);
        final Path requests = dir.resolve("requests.jsonl");
        // Goodput: TTFT 25 ms and TPOT 5 ms meet these; E2E = 25 + 5 x (tokens - 1) ms meets 45 ms up to 5 tokens.
        try (FakeLlmServer server = new FakeLlmServer(TTFT_NS, TPOT_NS, clock);
             SutInstance instance = client(server, "slo-ttft-ms", "30", "slo-tpot-ms", "5", "slo-e2e-ms", "45",
                 "requests-file", requests.toString()))
        {
            server.stepEachToken();
            ((OpenAiSut)instance.sut()).metricsClock(clock, server::textTimed);
            final SystemUnderTest signalling = new Signalling(instance.sut(), server);
            final EngineOptions engine = new EngineOptions().clock(clock).wallClock(clock).jitWarmupMs(0)
                .completionWait(CompletionWaitStrategy.YIELD).latencyHistogram(false);
            final TestSettings settings = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
                .mode(TestMode.PERFORMANCE_ONLY).useTokenLatencies(true).minDurationMs(500).minQueryCount(40)
                .singleStreamExpectedLatencyNs(50_000_000);
            final TestResult result = run(signalling, instance, settings, engine, dir.resolve("stepped"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            assertEquals(0, detail.errorCount(), () -> detail.records().toString());
            for (final String stat : new String[] {"min", "max", "mean"})
            {
                assertEquals(TTFT_NS, value(detail, "result_first_token_" + stat + "_latency_ns"), stat);
                assertEquals(TPOT_NS, value(detail, "result_time_to_output_token_" + stat), stat);
            }
            for (final String p : new String[] {"50.00", "90.00", "99.00"})
            {
                assertEquals(TPOT_NS, value(detail, "result_time_per_output_token_" + p + "_percentile_ns"), p);
                assertEquals(TTFT_NS, value(detail, "result_first_token_" + p + "_percentile_latency_ns"), p);
            }
            // Sample latency = TTFT + (tokens - 1) x TPOT: prompts have 3 to 7 tokens.
            assertEquals(TTFT_NS + 2 * TPOT_NS, value(detail, "result_min_latency_ns"));
            assertEquals(TTFT_NS + 6 * TPOT_NS, value(detail, "result_max_latency_ns"));
            assertTrue(server.requests() >= 40);
            assertClientMetrics(detail, requests, ((OpenAiSut)instance.sut()).describeMetrics());
        }
    }

    /**
     * The client's LLM metrics against the script: every gap between tokens is TPOT exactly, in the per-request
     * export (exact) and the detail log's histograms (HdrHistogram's 3 significant digits).
     */
    private static void assertClientMetrics(final MlLogParser detail, final Path requests, final String console)
        throws Exception
    {
        final long answered = value(detail, "jloadgen_llm_requests_answered");
        assertEquals(value(detail, "generated_query_count"), answered);
        assertEquals(0, value(detail, "jloadgen_llm_requests_failed"));
        for (final String p : new String[] {"p50", "p99", "max"})
        {
            assertClose(TTFT_NS, value(detail, "jloadgen_llm_ttft_" + p + "_ns"), "ttft " + p);
            assertClose(TPOT_NS, value(detail, "jloadgen_llm_itl_" + p + "_ns"), "itl " + p);
            assertClose(TPOT_NS, value(detail, "jloadgen_llm_tpot_" + p + "_ns"), "tpot " + p);
        }
        assertClose(TTFT_NS + 6 * TPOT_NS, value(detail, "jloadgen_llm_e2e_max_ns"), "e2e max");
        assertEquals(7, value(detail, "jloadgen_llm_output_tokens_max"));
        long tokens = 0;
        long gaps = 0;
        long good = 0;
        final List<String> lines = Files.readAllLines(requests);
        assertEquals(answered, lines.size());
        final java.util.regex.Pattern field = java.util.regex.Pattern.compile("\"([a-z0-9_]+)\":(-?\\d+|true|false)");
        for (final String line : lines)
        {
            final Map<String, String> f = new HashMap<>();
            final java.util.regex.Matcher m = field.matcher(line);
            while (m.find())
            {
                f.put(m.group(1), m.group(2));
            }
            final int n = FakeLlmServer.tokens(Integer.parseInt(f.get("sample")));
            assertEquals("true", f.get("ok"), line);
            assertEquals(TTFT_NS, Long.parseLong(f.get("ttft_ns")), line);
            assertEquals(TPOT_NS, Long.parseLong(f.get("itl_min_ns")), line);
            assertEquals(TPOT_NS, Long.parseLong(f.get("itl_max_ns")), line);
            assertEquals(TPOT_NS, Long.parseLong(f.get("tpot_ns")), line);
            assertEquals(TTFT_NS + (n - 1) * TPOT_NS, Long.parseLong(f.get("e2e_ns")), line);
            assertEquals(n, Long.parseLong(f.get("output_tokens")), line);
            assertEquals(2, Long.parseLong(f.get("input_tokens")), line);
            tokens += n;
            gaps += n - 1;
            good += n <= 5 ? 1 : 0;
        }
        assertEquals(gaps, value(detail, "jloadgen_llm_itl_count"), "every gap between tokens is recorded");
        assertEquals(tokens, value(detail, "jloadgen_llm_output_tokens"));
        assertEquals(2 * answered, value(detail, "jloadgen_llm_input_tokens"));
        assertEquals(good, value(detail, "jloadgen_llm_goodput_requests"));
        assertTrue(good > 0 && good < answered, good + " of " + answered);
        assertEquals("ttft <= 30 ms, tpot <= 5 ms, e2e <= 45 ms", detail.value("jloadgen_llm_slo"));
        final double seconds = ((Number)detail.value("jloadgen_llm_duration_s")).doubleValue();
        assertEquals(tokens / seconds, ((Number)detail.value("jloadgen_llm_output_tokens_per_second")).doubleValue(),
            1e-4 * tokens / seconds);
        assertEquals((tokens + 2 * answered) / seconds,
            ((Number)detail.value("jloadgen_llm_total_tokens_per_second")).doubleValue(), 1e-4 * tokens / seconds);
        assertTrue(console.contains("goodput: " + good + " of " + answered + " requests"), console);
    }

    private static void assertClose(final long expected, final long actual, final String what)
    {
        // HdrHistogram keeps 3 significant digits.
        assertTrue(Math.abs(actual - expected) <= expected / 500, what + ": " + actual + " for " + expected);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldCompleteEveryStreamOfAConcurrentServerRunWithItsTextAndTokenCount() throws Exception
    {
        // Chat events, no usage event (tokens are counted), HTTP/2 asked for (the JDK server speaks HTTP/1.1).
        try (FakeLlmServer server = new FakeLlmServer(2_000_000, 1_000_000, null);
             SutInstance instance = client(server, "api", "chat", "usage", "false", "http", "2", "inflight", "8"))
        {
            // A usage chunk comes unasked, with another count: usage=false counts the text events all the same.
            server.usageAlways();
            final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.PERFORMANCE_ONLY).useTokenLatencies(true).serverTargetQps(300).minDurationMs(2000)
                .minQueryCount(100).serverTargetLatencyNs(60_000_000_000L).serverTtftLatencyNs(60_000_000_000L)
                .serverTpotLatencyNs(60_000_000_000L).accuracyLogProbability(1.0);
            final EngineOptions engine = new EngineOptions().jitWarmupMs(0).serverWait(ServerWaitStrategy.SLEEP)
                .completionWait(CompletionWaitStrategy.SLEEP);
            final TestResult result = run(instance.sut(), instance, settings, engine, dir.resolve("server"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            assertEquals(0, detail.errorCount(), () -> detail.records().toString());
            assertEquals("VALID", detail.value("result_validity"), Files.readString(result.summaryFile()));
            final AtomicLong checked = new AtomicLong();
            AccuracyLogReader.read(result.accuracyFile(), e ->
            {
                final int prompt = (int)e.qslIndex();
                assertEquals(FakeLlmServer.text(prompt), new String(e.data(), StandardCharsets.UTF_8));
                assertEquals(FakeLlmServer.tokens(prompt), e.tokenCount());
                checked.incrementAndGet();
            });
            assertEquals(value(detail, "generated_query_count"), checked.get());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndWithOneMessageAndCountsThatAddUpWhenOneRequestInFortyIsRateLimited() throws Exception
    {
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null);
             SutInstance instance = client(server, "inflight", "16"))
        {
            server.rateLimitEvery(40);
            final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.PERFORMANCE_ONLY).useTokenLatencies(true).serverTargetQps(200).minDurationMs(30_000);
            final EngineOptions engine = new EngineOptions().jitWarmupMs(0).serverWait(ServerWaitStrategy.SLEEP)
                .completionWait(CompletionWaitStrategy.SLEEP);
            final TestResult result = run(instance.sut(), instance, settings, engine, dir.resolve("429"));
            final List<String> errors = MlLogParser.parse(result.detailFile()).records().stream()
                .filter(MlLogParser.Record::isError).map(r -> String.valueOf(r.value())).toList();
            // One message for the failure, naming the server and what it answered, no class names.
            assertEquals(1, errors.stream().filter(e -> e.contains("HTTP 429")).count(), errors::toString);
            assertTrue(errors.stream().anyMatch(e -> e.startsWith("The SUT failed: server " + server.url()
                + " failed: answered HTTP 429: {\"object\":\"error\",\"message\":\"rate limit reached, retry "
                + "later\"}")), errors::toString);
            assertTrue(errors.stream().noneMatch(e -> e.contains("Exception") || e.contains("threw")),
                errors::toString);
            // The client's counts add up with the engine's: issued = sent + not sent; never completed = failed + in
            // flight + not sent.
            final String totals = ((OpenAiSut)instance.sut()).describeTotals();
            final java.util.regex.Matcher t = java.util.regex.Pattern.compile("(\\d+) samples issued: (\\d+) sent, "
                + "(\\d+) answered, (\\d+) failed, (\\d+) in flight(?:, (\\d+) not sent \\(issued after the "
                + "failure\\))?").matcher(totals);
            assertTrue(t.matches(), totals);
            final long failed = Long.parseLong(t.group(4));
            final long inFlight = Long.parseLong(t.group(5));
            final long notSent = t.group(6) == null ? 0 : Long.parseLong(t.group(6));
            assertTrue(failed >= 1, totals);
            final String summary = Files.readString(result.summaryFile());
            final java.util.regex.Matcher s = java.util.regex.Pattern.compile("\\((\\d+) of (\\d+) never "
                + "completed\\)").matcher(summary);
            assertTrue(s.find(), summary);
            assertEquals(Long.parseLong(t.group(1)), Long.parseLong(s.group(2)), totals + "\n" + summary);
            assertEquals(failed + inFlight + notSent, Long.parseLong(s.group(1)), totals + "\n" + summary);
        }
    }

    private static TestSettings countedRun()
    {
        // 600 queries at 200 QPS (early stopping's least at the 99th percentile is about 460); bounds so loose that
        // only failures can make the run INVALID.
        return new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
            .useTokenLatencies(true).serverTargetQps(200).minDurationMs(3_000).minQueryCount(600)
            .serverTargetLatencyNs(60_000_000_000L).serverTtftLatencyNs(60_000_000_000L)
            .serverTpotLatencyNs(60_000_000_000L);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldCountRateLimitedRequestsAsFailedAndGoOnUnderOnErrorCount() throws Exception
    {
        final Path requests = dir.resolve("counted.jsonl");
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null);
             SutInstance instance = client(server, "inflight", "16", "on-error", "count", "slo-ttft-ms", "60000",
                 "requests-file", requests.toString()))
        {
            server.rateLimitEvery(40);
            final EngineOptions engine = new EngineOptions().jitWarmupMs(0).serverWait(ServerWaitStrategy.SLEEP)
                .completionWait(CompletionWaitStrategy.SLEEP);
            final TestResult result = run(instance.sut(), instance, countedRun(), engine, dir.resolve("counted"));
            final OpenAiSut sut = (OpenAiSut)instance.sut();
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            // The run went to its end: every request sent once, every 40th answered 429.
            final long issued = value(detail, "generated_samples_per_query") * value(detail,
                "generated_query_count");
            assertEquals(issued, server.requests());
            final long failed = issued / 40;
            assertTrue(failed >= 10, "failed " + failed);
            assertEquals(0, detail.errorCount(), () -> detail.records().toString());
            assertEquals(failed, value(detail, "jloadgen_failed_samples"));
            assertEquals(issued - failed, value(detail, "jloadgen_completed_samples"));
            assertEquals("HTTP 429=" + failed, detail.value("jloadgen_failures_by_cause"));
            assertEquals(failed, value(detail, "jloadgen_llm_requests_failed"));
            assertEquals(issued - failed, value(detail, "jloadgen_llm_requests_answered"));
            assertEquals(issued - failed, value(detail, "jloadgen_llm_goodput_requests"));
            assertEquals(issued + " samples issued: " + issued + " sent, " + (issued - failed) + " answered, " + failed
                + " failed, 0 in flight", sut.describeTotals());
            // LoadGen's latencies are over the completed samples only; the run is INVALID (not every sample
            // was answered), and JLoadGen's section says why, with the cause and the goodput.
            assertEquals("INVALID", detail.value("result_validity"));
            final String summary = Files.readString(result.summaryFile());
            assertTrue(summary.contains("  All issued samples completed : NO (" + failed + " of " + issued
                + " failed)\n"), summary);
            assertTrue(summary.contains("Failed samples : " + failed + " of " + issued + " issued"), summary);
            assertTrue(summary.contains("Completed samples : " + (issued - failed) + "\n"), summary);
            assertTrue(summary.contains("openai SUT (on-error=count, retries=0): " + sut.describeTotals() + "\n"
                + "  HTTP 429: " + failed + " failed (first: server " + server.url() + " answered HTTP 429: "
                + "{\"object\":\"error\",\"message\":\"rate limit reached, retry later\"})\n"
                + "goodput: " + (issued - failed) + " of " + issued + " requests ("), summary);
            assertTrue(summary.indexOf("Test Parameters Used") < summary.indexOf("Failed samples : "), summary);
            assertTrue(summary.endsWith("No errors encountered during test.\n"), summary);
            // The export has a line per request, the failed ones marked.
            final List<String> lines = Files.readAllLines(requests);
            assertEquals(issued, lines.size());
            assertEquals(failed, lines.stream().filter(l -> l.contains("\"ok\":false")).count());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldFailAStreamThatOutlivesTheTimeoutAloneUnderOnErrorCount() throws Exception
    {
        final Path requests = dir.resolve("timeouts.jsonl");
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null);
             SutInstance instance = client(server, "inflight", "32", "on-error", "count", "timeout-ms", "400",
                 "requests-file", requests.toString()))
        {
            // Prompt 7's stream stalls 1 s after its first token: past timeout-ms, it fails alone and is cancelled.
            // 60 QPS keeps the stalled streams within the scripted server's 16 threads.
            server.stallOn(7, 1_000);
            final EngineOptions engine = new EngineOptions().jitWarmupMs(0).serverWait(ServerWaitStrategy.SLEEP)
                .completionWait(CompletionWaitStrategy.SLEEP);
            final long startNs = System.nanoTime();
            final TestResult result = run(instance.sut(), instance, countedRun().serverTargetQps(60).minQueryCount(180),
                engine, dir.resolve("timeouts"));
            assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(30), "the run waited for the stalls");
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final long issued = value(detail, "generated_query_count");
            final List<String> lines = Files.readAllLines(requests);
            assertEquals(issued, lines.size());
            final long stalled = lines.stream().filter(l -> l.contains("\"sample\":7,")).count();
            assertTrue(stalled >= 3, "stalled " + stalled);
            assertEquals(stalled, lines.stream().filter(l -> l.contains("\"ok\":false")).count());
            assertTrue(lines.stream().filter(l -> l.contains("\"ok\":false")).allMatch(l -> l.contains(
                "\"sample\":7,")), "only the stalled prompt failed");
            assertEquals(stalled, value(detail, "jloadgen_failed_samples"));
            assertEquals("timeout=" + stalled, detail.value("jloadgen_failures_by_cause"));
            assertEquals(issued + " samples issued: " + issued + " sent, " + (issued - stalled) + " answered, "
                + stalled + " failed, 0 in flight", ((OpenAiSut)instance.sut()).describeTotals());
            assertEquals(0, detail.errorCount(), () -> detail.records().toString());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldRetryRateLimitedRequestsAndEndValidWhenEveryRetryIsAnswered() throws Exception
    {
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null);
             SutInstance instance = client(server, "inflight", "16", "on-error", "count", "retries", "2"))
        {
            server.rateLimitEvery(40);
            final EngineOptions engine = new EngineOptions().jitWarmupMs(0).serverWait(ServerWaitStrategy.SLEEP)
                .completionWait(CompletionWaitStrategy.SLEEP);
            final TestResult result = run(instance.sut(), instance, countedRun(), engine, dir.resolve("retried"));
            final MlLogParser detail = MlLogParser.parse(result.detailFile());
            final long issued = value(detail, "generated_samples_per_query") * value(detail,
                "generated_query_count");
            // Every 40th request arriving is refused and sent again: the requests the server saw are the samples
            // plus the retries, and a retry is refused only when it lands on a 40th arrival itself.
            final long retries = value(detail, "jloadgen_retries");
            assertEquals(issued + retries, server.requests());
            assertEquals((issued + retries) / 40, retries);
            assertEquals("HTTP 429=0 (" + retries + " retried)", detail.value("jloadgen_failures_by_cause"));
            assertEquals(null, detail.first("jloadgen_failed_samples"), "nothing failed after its retries");
            assertEquals("VALID", detail.value("result_validity"), Files.readString(result.summaryFile()));
            assertEquals(issued + " samples issued: " + issued + " sent, " + issued + " answered, 0 failed, "
                + "0 in flight", ((OpenAiSut)instance.sut()).describeTotals());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldWarnOnceThatARunWithoutTokenLatenciesIsJudgedOnEndToEndLatency() throws Exception
    {
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null))
        {
            final org.jloadgen.testing.CommandLineRun run = org.jloadgen.testing.CommandLineRun.jloadgen("run",
                "--no-audit-config", "--sut", "openai", "--sut-opt", "url=" + server.url(), "--sut-opt",
                "model=" + FakeLlmServer.MODEL, "--dataset", prompts().toString(), "--scenario", "Offline", "--set",
                "offline_expected_qps=20", "--set", "min_duration_ms=0", "--set", "min_query_count=20", "--out",
                dir.resolve("e2e").toString(), "--quiet");
            final String warning = "jloadgen: warning: the SUT streams tokens but use_token_latencies is 0: the run "
                + "is judged on end-to-end latency alone, not TTFT and TPOT (--set use_token_latencies=1)";
            assertEquals(1, run.err().lines().filter(warning::equals).count(), run.out() + run.err());
            assertTrue(run.err().matches("(?s).*jloadgen: openai SUT, LLM metrics: \\d+ answered, 0 failed.*"),
                run.err());
        }
    }

    private void assertRunFails(final FakeLlmServer server, final String expected) throws Exception
    {
        try (SutInstance instance = client(server))
        {
            final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.PERFORMANCE_ONLY).useTokenLatencies(true).serverTargetQps(100).minDurationMs(30_000);
            final EngineOptions engine = new EngineOptions().jitWarmupMs(0).serverWait(ServerWaitStrategy.SLEEP)
                .completionWait(CompletionWaitStrategy.SLEEP);
            final long startNs = System.nanoTime();
            final TestResult result = run(instance.sut(), instance, settings, engine, dir.resolve("failed"));
            assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(20), "the run went on after the error");
            final String errors = MlLogParser.parse(result.detailFile()).records().stream()
                .filter(MlLogParser.Record::isError).map(r -> String.valueOf(r.value())).toList().toString();
            assertTrue(errors.contains("server " + server.url() + " failed: " + expected), errors);
            assertTrue(errors.matches("(?s).*; when it failed: \\d+ sent to it, \\d+ answered, \\d+ failed, "
                + "\\d+ in flight.*"), errors);
            assertTrue(Files.readString(result.summaryFile()).contains("Result is : INVALID"));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndInvalidNamingAServerThatAnswersAnHttpError() throws Exception
    {
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null))
        {
            server.failOn(7, false);
            assertRunFails(server, "answered HTTP 500: {\"object\":\"error\",\"message\":\"the engine is out of KV "
                + "cache\"}");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndInvalidNamingAServerThatSendsAnErrorEvent() throws Exception
    {
        try (FakeLlmServer server = new FakeLlmServer(1_000_000, 1_000_000, null))
        {
            server.failOn(3, true);
            assertRunFails(server, "sent an error event: request cancelled by the scheduler");
        }
    }

    @Test
    void shouldRefuseAServerThatDoesNotServeTheModelOrIsNotThere() throws Exception
    {
        try (FakeLlmServer server = new FakeLlmServer(1, 1, null))
        {
            final Map<String, String> o = Map.of("url", server.url(), "model", "llama-70b", "dataset",
                prompts().toString());
            assertEquals("server " + server.url() + " does not serve model 'llama-70b'; it serves [tiny-llm]",
                assertThrows(IllegalArgumentException.class, () -> new OpenAiSutProvider().create(
                    new SutContext(TestScenario.SERVER, o, 1, 1))).getMessage());
        }
        final String down = assertThrows(IllegalArgumentException.class, () -> new OpenAiSutProvider().create(
            new SutContext(TestScenario.SERVER, Map.of("url", "http://127.0.0.1:1", "model", "m", "dataset",
                prompts().toString()), 1, 1))).getMessage();
        assertTrue(down.startsWith("server http://127.0.0.1:1 is not reachable: could not connect"), down);
    }

    /**
     * The SUT as the engine sees it, with a sink that tells the stepped server when the engine has taken each
     * timestamp, so the server moves the clock only afterwards.
     */
    private static final class Signalling implements SystemUnderTest, SutLogNotes
    {
        @Override
        public List<Note> notesAfterRun()
        {
            return sut instanceof final SutLogNotes notes ? notes.notesAfterRun() : List.of();
        }

        private final SystemUnderTest sut;
        private final FakeLlmServer server;

        Signalling(final SystemUnderTest sut, final FakeLlmServer server)
        {
            this.sut = sut;
            this.server = server;
        }

        @Override
        public String name()
        {
            return sut.name();
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            sut.issueQuery(samples, new SignallingSink(sink, server));
        }

        @Override
        public void flushQueries()
        {
            sut.flushQueries();
        }
    }

    private record SignallingSink(ResponseSink sink, FakeLlmServer server) implements ResponseSink
    {
        @Override
        public void complete(final long responseId)
        {
            sink.complete(responseId);
            server.completionRecorded();
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes,
            final long tokenCount)
        {
            sink.complete(responseId, dataAddress, dataBytes, tokenCount);
            server.completionRecorded();
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            sink.complete(responseId, data, offset, length, tokenCount);
            server.completionRecorded();
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            sink.complete(responses, count);
            server.completionRecorded();
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
        {
            sink.complete(responses, count, callback);
            server.completionRecorded();
        }

        @Override
        public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
        {
            sink.firstToken(responseId, dataAddress, dataBytes);
            server.firstTokenRecorded();
        }

        @Override
        public void firstToken(final QuerySampleResponses responses, final int count)
        {
            sink.firstToken(responses, count);
            server.firstTokenRecorded();
        }

        @Override
        public void failSample(final long responseId)
        {
            sink.failSample(responseId);
            server.completionRecorded();
        }

        @Override
        public void fail(final Throwable cause)
        {
            sink.fail(cause);
        }
    }
}
