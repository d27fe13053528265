package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.results.EarlyStopping;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.sut.synthetic.SyntheticSut;
import org.jloadgen.testing.RecordingSut;
import org.jloadgen.testing.ScriptedClock;
import org.jloadgen.testing.ScriptedSut;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TestRunnerTest
{
    private static final Pattern ENTRY = Pattern.compile(
        "\\{ \"seq_id\" : (\\d+), \"qsl_idx\" : (\\d+), \"data\" : \"([0-9A-F]*)\" }");

    /** A Server latency bound for real-clock runs that check files and flow: 30 s. */
    private static final long GENEROUS_LATENCY_NS = 30_000_000_000L;

    @TempDir
    Path dir;

    private static TestSettings performance(final TestScenario scenario)
    {
        final TestSettings s = new TestSettings().scenario(scenario).mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(300).minQueryCount(100);
        return switch (scenario)
        {
            // The expected latency is the SUT's 20 us service time: LoadGen generates twice min_duration's worth at
            // it, and no query can take less, so the run always lasts its min_duration (at 50 us it ran out of
            // queries after 0.26 s once the hand-off took under 5 us, INVALID).
            case SINGLE_STREAM -> s.singleStreamExpectedLatencyNs(20_000);
            case MULTI_STREAM -> s.multiStreamExpectedLatencyNs(50_000).minQueryCount(662);
            // These runs are on the real clock and check files and flow, not speed: a bound no stall of a loaded
            // machine reaches keeps their validity about durations, counts and errors.
            case SERVER -> s.serverTargetQps(2_000).serverTargetLatencyNs(GENEROUS_LATENCY_NS);
            case OFFLINE -> s.offlineExpectedQps(100_000);
        };
    }

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldWriteLogsTheSubmissionCheckerAcceptsInEveryScenario(final TestScenario scenario)
    {
        try (SyntheticSut sut = EngineFixture.synthetic("service", "fixed:20us", "workers", "1"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir, sut, performance(scenario));
            run.detail().requireCheckerKeys(scenario, false, false);
            assertEquals(0, run.detail().errorCount(), run.summary());
            assertTrue(run.summary().startsWith("================================================\n"
                + "MLPerf Results Summary\n"), run.summary());
            assertTrue(run.summary().contains("Scenario : " + scenario.logName() + "\n"));
            assertTrue(run.summary().contains("Result is : VALID\n"), run.summary());
            assertTrue(run.summary().endsWith("No errors encountered during test.\n"));
            assertEquals("VALID", run.detail().value("result_validity"));
            assertEquals(0L, ((Number)run.detail().value("num_errors")).longValue());
            assertEquals("[\n]\n", run.accuracy(), "performance mode with probability 0 logs nothing");
            assertTrue(run.result().valid());
            // Order of the first records, as LoadGen writes them.
            final List<String> keys = run.detail().records().stream().map(MlLogParser.Record::key).toList();
            assertEquals("loadgen_version", keys.get(0));
            assertTrue(keys.indexOf("sut_name") < keys.indexOf("requested_scenario"));
            assertTrue(keys.indexOf("effective_sample_concatenate_permutation") < keys.indexOf("loaded_qsl_set"));
            assertTrue(keys.indexOf("generated_query_count") < keys.indexOf("power_begin"));
            assertTrue(keys.indexOf("power_end") < keys.indexOf("result_validity"));
            assertEquals("num_errors", keys.get(keys.size() - 1));
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldGenerateALongSingleStreamTraceWhileTheSeriesRunsUnlessAskedNotTo(final boolean ahead)
    {
        // 2 x 1.7 s at 100 ns: 34M queries generated, past QueryGenerator.MIN_STREAMED_QUERIES; the null SUT
        // issues a few million in the run's 1.7 s.
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
            .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(1_700).minQueryCount(100)
            .singleStreamExpectedLatencyNs(100);
        final EngineFixture.Run run = EngineFixture.run(dir, new NullSut(), new SyntheticQsl(1024, 1024), s,
            EngineFixture.fastOptions().generateAhead(ahead), null, List.of());
        assertEquals(34_000_001L, ((Number)run.detail().value("generated_query_count")).longValue());
        assertEquals(0, run.detail().errorCount(), run.summary());
        final long issued = ((Number)run.detail().value("result_query_count")).longValue();
        assertTrue(issued >= 100, run.summary());
        // Early stopping's discards, searched in steps on the filling thread when streamed, are LoadGen's loop's.
        final Matcher discarded = Pattern.compile("Would discard (\\d+) highest")
            .matcher(String.valueOf(run.detail().value("early_stopping_result")));
        assertTrue(discarded.find(), String.valueOf(run.detail().value("early_stopping_result")));
        assertEquals(EarlyStopping.discards(TestScenario.SINGLE_STREAM, 0.9, issued)
            .discardedPlusOne() - 1, Long.parseLong(discarded.group(1)));
        final List<String> fills = run.detail().records().stream()
            .filter(r -> r.key().equals("generic_message") && String.valueOf(r.value()).startsWith("Generated "))
            .map(r -> String.valueOf(r.value())).toList();
        if (ahead)
        {
            assertEquals(List.of(), fills);
        }
        else
        {
            assertEquals(1, fills.size(), run.summary());
            final Matcher m = Pattern.compile("Generated (\\d+) of 34000001 queries while the series ran, from a "
                + "head start of 1048576; the issue thread waited for them (\\d+) times").matcher(fills.get(0));
            assertTrue(m.find(), fills.get(0));
            // The filling thread published at least every query the run issued, and no more than it had.
            assertTrue(Long.parseLong(m.group(1)) >= issued, fills.get(0) + " / " + issued);
            assertTrue(Long.parseLong(m.group(1)) <= 34_000_001L, fills.get(0));
        }
    }

    @Test
    void shouldLogEveryAccuracySampleOnceOverEveryLoadableSet() throws IOException
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
            .mode(TestMode.ACCURACY_ONLY);
        try (SyntheticSut sut = EngineFixture.synthetic("inline", "true"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir, sut, new SyntheticQsl(300, 128), s,
                EngineFixture.fastOptions(), null, List.of());
            // LoadGen's AccuracyOnly summary holds only the trailer.
            assertEquals("\nNo warnings encountered during test.\n\nNo errors encountered during test.\n",
                run.summary());
            assertEquals(3, run.result().accuracySeries());
            final Set<Long> qsl = new HashSet<>();
            final Set<Long> seq = new HashSet<>();
            final Matcher m = ENTRY.matcher(run.accuracy());
            while (m.find())
            {
                final long index = Long.parseLong(m.group(2));
                assertTrue(qsl.add(index), "qsl_idx " + index + " logged twice");
                assertTrue(seq.add(Long.parseLong(m.group(1))));
                final byte[] data = HexFormat.of().parseHex(m.group(3));
                assertEquals(index, ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt());
            }
            assertEquals(300, qsl.size());
            assertEquals(3, run.detail().records().stream().filter(r -> r.key().equals("loaded_qsl_set")).count());
            assertTrue(run.accuracy().startsWith("[\n{ \"seq_id\" : "));
            assertTrue(run.accuracy().endsWith(" }\n]\n"));
        }
    }

    @Test
    void shouldRunAccuracyThenPerformanceInSubmissionRun()
    {
        final TestSettings s = performance(TestScenario.OFFLINE).mode(TestMode.SUBMISSION_RUN);
        try (SyntheticSut sut = EngineFixture.synthetic("inline", "true", "batch", "64"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir, sut, new SyntheticQsl(500, 200), s,
                EngineFixture.fastOptions(), null, List.of());
            final List<String> messages = run.detail().records().stream()
                .filter(r -> r.key().equals("generic_message")).map(r -> (String)r.value()).toList();
            assertEquals("Starting accuracy mode", messages.get(0));
            assertTrue(messages.contains("Starting performance mode"));
            assertTrue(messages.indexOf("Starting accuracy mode") < messages.indexOf("Starting performance mode"));
            assertTrue(run.summary().contains("Scenario : Offline"));
            assertEquals(500, ENTRY.matcher(run.accuracy()).results().count());
            assertEquals(1, run.result().performance().size());
        }
    }

    @Test
    void shouldFindThePeakOfASutWithAKnownCapacity()
    {
        // On a scripted clock an inline SUT that takes exactly 1 ms per query serves at most 1000 QPS; the 10 ms
        // p99 bound breaks somewhere below that as the queue grows. The search is deterministic.
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER)
            .mode(TestMode.FIND_PEAK_PERFORMANCE).serverTargetQps(200).serverTargetLatencyNs(10_000_000)
            .minDurationMs(2_000).minQueryCount(100).serverFindPeakQpsDecimalsOfPrecision(0)
            .serverFindPeakQpsBoundaryStepSize(1);
        final List<String> first = findPeakMessages(s, dir.resolve("a"));
        assertEquals("Starting FindPeakPerformance mode", first.get(0));
        assertTrue(first.contains("FindBoundaries: Checking fields [200.000000, 400.000000)"), first.toString());
        assertTrue(first.contains("FindBoundaries: Checking fields [400.000000, 800.000000)"), first.toString());
        final String found = first.stream().filter(m -> m.startsWith(
            "FindPeakPerformance: Found peak performance field: ")).findFirst().orElseThrow();
        final double peak = Double.parseDouble(found.substring(found.lastIndexOf(' ') + 1));
        assertTrue(peak >= 400 && peak < 1000, "peak " + peak);
        assertTrue(first.stream().anyMatch(m
            -> m.startsWith("FindPeakPerformanceBinarySearch: Testing the mid value")));
        assertEquals(first, findPeakMessages(s, dir.resolve("b")), "the same search twice");
    }

    private static List<String> findPeakMessages(final TestSettings s, final Path out)
    {
        final ScriptedClock clock = new ScriptedClock(1_000_000_000_000L, 1_000);
        final EngineFixture.Run run = EngineFixture.run(out, new ScriptedSut(clock, 1_000_000),
            new SyntheticQsl(1024, 1024), s,
            EngineFixture.fastOptions().clock(clock).wallClock(clock).latencyHistogram(false), null, List.of());
        assertEquals(1, run.result().performance().size());
        assertTrue(run.result().performance().get(0).perfConstraintsMet());
        assertTrue(run.summary().contains("Scenario : Server"));
        return run.detail().records().stream()
            .filter(r -> r.key().equals("generic_message")).map(r -> (String)r.value()).toList();
    }

    @Test
    void shouldRefuseFindPeakOutsideServer()
    {
        final TestSettings s = performance(TestScenario.OFFLINE).mode(TestMode.FIND_PEAK_PERFORMANCE);
        final EngineFixture.Run run = EngineFixture.run(dir, new NullSut(), s);
        final MlLogParser.Record error = run.detail().first("error_invalid_config");
        assertNotNull(error);
        assertEquals("Finding peak performance is only supported in Server scenarios.", error.value());
        assertTrue(run.summary().endsWith("1 ERROR encountered. See detailed log.\n"), run.summary());
    }

    @Test
    void shouldApplyTheOfficialTest01AuditConfigAndLogSampledResponses() throws IOException
    {
        final Path audit = dir.resolve("audit.config");
        Files.copy(SharedData.data("audit/TEST01-resnet50/audit.config"), audit);
        final Path out = Files.createDirectories(dir.resolve("out"));
        // TEST01 sets mode=2 and accuracy_log_sampling_target=4096: with ~1000 samples everything is logged.
        final TestSettings s = performance(TestScenario.SERVER).mode(TestMode.ACCURACY_ONLY);
        try (SyntheticSut sut = EngineFixture.synthetic("inline", "true"))
        {
            final EngineFixture.Run run = EngineFixture.run(out, sut, new SyntheticQsl(1024, 1024), s,
                EngineFixture.fastOptions(), audit, List.of());
            assertEquals("PerformanceOnly", run.detail().value("effective_test_mode"));
            assertEquals(4096L, ((Number)run.detail().value("effective_accuracy_log_sampling_target")).longValue());
            assertEquals("720381539243781796", run.detail().first("effective_accuracy_log_rng_seed").valueText());
            assertEquals("Found Audit Config file (audit.config). Overriding TestSettings from audit.config file.",
                run.detail().first("warning_generic_message").value());
            assertTrue(run.summary().contains("1 warning encountered. See detailed log."), run.summary());
            final long queries = ((Number)run.detail().value("result_query_count")).longValue();
            assertTrue(ENTRY.matcher(run.accuracy()).results().count() > queries / 2,
                "sampling target 4096 > queries " + queries + " logs most responses");
        }
    }

    @Test
    void shouldIssueTheSameSampleUnderTheOfficialTest04AuditConfig() throws IOException
    {
        final Path audit = dir.resolve("audit.config");
        Files.copy(SharedData.data("audit/TEST04/audit.config"), audit);
        final Path out = Files.createDirectories(dir.resolve("out"));
        final RecordingSut recording = new RecordingSut();
        final EngineFixture.Run run = EngineFixture.run(out, recording, new SyntheticQsl(1024, 1024),
            performance(TestScenario.SINGLE_STREAM), EngineFixture.fastOptions(), audit, List.of());
        assertEquals(Boolean.TRUE, run.detail().value("effective_performance_issue_same"));
        assertEquals(3L, ((Number)run.detail().value("effective_performance_issue_same_index")).longValue());
        final Set<Long> issued = new HashSet<>();
        recording.queries().forEach(q -> issued.add(q.sampleIndices()[0]));
        assertEquals(1, issued.size(), "every query issues loaded-set position 3");
        @SuppressWarnings("unchecked")
        final List<Object> loaded = (List<Object>)run.detail().value("loaded_qsl_set");
        assertEquals(((Number)loaded.get(3)).longValue(), issued.iterator().next());
    }

    @Test
    void shouldEndInvalidWithTheReasonWhenTheSutNeverCompletes()
    {
        final TestSettings s = performance(TestScenario.SERVER);
        try (SyntheticSut sut = EngineFixture.synthetic("inline", "true", "misbehave", "never",
            "misbehave-after", "10"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir, sut, new SyntheticQsl(1024, 1024), s,
                EngineFixture.fastOptions().completionTimeoutMs(300), null, List.of());
            final List<String> errors = errors(run);
            assertTrue(errors.stream().anyMatch(e -> e.startsWith("The SUT completed no sample for 300 ms")),
                errors.toString());
            assertTrue(errors.stream().anyMatch(e -> e.contains("issued samples never completed")), errors.toString());
            assertTrue(run.summary().contains("ERRORS encountered. See detailed log."), run.summary());
            assertFalse(run.result().valid());
        }
    }

    @Test
    void shouldReportSamplesCompletedTwiceAndUnknownIds()
    {
        try (SyntheticSut twice = EngineFixture.synthetic("inline", "true", "misbehave", "twice",
            "service", "fixed:50us"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir.resolve("twice"), twice,
                performance(TestScenario.SINGLE_STREAM));
            assertTrue(errors(run).stream().anyMatch(e -> e.startsWith("Attempted to complete a sample twice.")),
                errors(run).toString());
            assertTrue(run.summary().contains("1 ERROR encountered"), run.summary());
        }
        try (SyntheticSut unknown = EngineFixture.synthetic("inline", "true", "misbehave", "unknown",
            "service", "fixed:50us"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir.resolve("unknown"), unknown,
                performance(TestScenario.SINGLE_STREAM));
            assertTrue(errors(run).stream().anyMatch(e -> e.startsWith(
                "Received completion for an unknown response id.")), errors(run).toString());
        }
    }

    @Test
    void shouldStopAndSayWhyWhenTheSutThrowsOrFails()
    {
        try (SyntheticSut throwing = EngineFixture.synthetic("inline", "true", "misbehave", "throw",
            "misbehave-after", "5"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir.resolve("throw"), throwing,
                performance(TestScenario.SERVER));
            assertTrue(errors(run).stream().anyMatch(e -> e.startsWith("The SUT failed: "
                + "java.lang.IllegalStateException: synthetic SUT misbehaving on purpose")), errors(run).toString());
            assertEquals("INVALID", run.detail().value("result_validity"));
        }
        try (SyntheticSut failing = EngineFixture.synthetic("workers", "2", "misbehave", "fail"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir.resolve("fail"), failing,
                performance(TestScenario.OFFLINE));
            assertTrue(errors(run).stream().anyMatch(e -> e.contains("inference failed")), errors(run).toString());
        }
        try (SyntheticSut flush = EngineFixture.synthetic("inline", "true", "misbehave", "throw-flush"))
        {
            final EngineFixture.Run run = EngineFixture.run(dir.resolve("flush"), flush,
                performance(TestScenario.SINGLE_STREAM));
            assertTrue(errors(run).stream().anyMatch(e -> e.startsWith("The SUT threw from FlushQueries")),
                errors(run).toString());
        }
    }

    @Test
    void shouldFinishEveryLogWhenAborted() throws Exception
    {
        final TestSettings s = performance(TestScenario.SERVER).minDurationMs(60_000);
        final java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        final TestRunner runner = new TestRunner(new NullSut(), new SyntheticQsl(1024, 1024), s,
            new org.jloadgen.api.LogSettings().outputDirectory(dir), EngineFixture.fastOptions(), null, List.of(),
            new java.io.PrintStream(console));
        final Thread aborter = new Thread(() ->
        {
            try
            {
                Thread.sleep(500);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            runner.abort("operator pressed Ctrl-C");
        });
        aborter.start();
        final long t0 = System.nanoTime();
        final TestResult result = runner.run();
        aborter.join();
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L);
        final EngineFixture.Run run = EngineFixture.read(result, dir, console);
        assertTrue(errors(run).contains("Test aborted: operator pressed Ctrl-C"), errors(run).toString());
        assertTrue(run.summary().contains("Result is : INVALID"), run.summary());
        assertTrue(run.summary().contains("1 ERROR encountered"), run.summary());
    }

    @Test
    void shouldMeasureTokenLatencies()
    {
        // On a scripted clock the SUT sends every query's first token 50 us after it takes it and its 11 tokens end
        // 150 us later, so TPOT is 150 / 10 = 15 us and every latency is its TTFT plus 150 us, give or take the
        // clock's ticks. (TTFT itself also holds the time a query queued behind the one before.)
        final TestSettings s = performance(TestScenario.SERVER).useTokenLatencies(true)
            .serverTtftLatencyNs(50_000_000).serverTpotLatencyNs(50_000_000);
        final ScriptedClock clock = new ScriptedClock(1_000_000_000_000L, 100);
        final EngineFixture.Run run = EngineFixture.run(dir, new TokenSut(clock, 50_000, 200_000, 11),
            new SyntheticQsl(1024, 1024), s, EngineFixture.fastOptions().clock(clock).wallClock(clock), null,
            List.of());
        run.detail().requireCheckerKeys(TestScenario.SERVER, true, false);
        assertEquals(0, run.detail().errorCount(), errors(run).toString());
        final long ttft = ((Number)run.detail().value("result_first_token_99.00_percentile_latency_ns")).longValue();
        assertTrue(ttft >= 50_000, "ttft " + ttft);
        final long latency = ((Number)run.detail().value("result_99.00_percentile_latency_ns")).longValue();
        assertEquals(150_000, latency - ttft, 1_000, "latency " + latency + ", ttft " + ttft);
        final long tpot = ((Number)run.detail().value("result_time_per_output_token_99.00_percentile_ns")).longValue();
        assertTrue(tpot >= 15_000 && tpot < 15_500, "tpot " + tpot);
        assertEquals("VALID", run.detail().value("result_validity"), run.summary());
    }

    /**
     * An inline SUT on a {@link ScriptedClock} that sends every query's first token after {@code firstTokenNs}
     * and completes it with {@code tokens} tokens after {@code serviceNs}.
     */
    private static final class TokenSut implements org.jloadgen.api.SystemUnderTest
    {
        private final ScriptedClock clock;
        private final long firstTokenNs;
        private final long serviceNs;
        private final long tokens;
        private final java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofAuto();
        private final java.lang.foreign.MemorySegment payload = arena.allocate(4);

        TokenSut(final ScriptedClock clock, final long firstTokenNs, final long serviceNs, final long tokens)
        {
            this.clock = clock;
            this.firstTokenNs = firstTokenNs;
            this.serviceNs = serviceNs;
            this.tokens = tokens;
        }

        @Override
        public String name()
        {
            return "TokenSUT";
        }

        @Override
        public void issueQuery(final org.jloadgen.api.QuerySamples samples, final org.jloadgen.api.ResponseSink sink)
        {
            final org.jloadgen.api.QuerySampleResponses responses =
                new org.jloadgen.api.QuerySampleResponses(Math.max(1, samples.size()));
            for (int i = 0; i < samples.size(); i++)
            {
                responses.set(i, samples.responseId(i), payload.address(), 4, tokens);
            }
            clock.advance(firstTokenNs);
            sink.firstToken(responses, samples.size());
            clock.advance(serviceNs - firstTokenNs);
            sink.complete(responses, samples.size());
        }

        @Override
        public void flushQueries()
        {
        }
    }

    @Test
    void shouldReplayATraceAtItsRecordedTimes() throws IOException
    {
        final Path trace = dir.resolve("trace.txt");
        final StringBuilder text = new StringBuilder("# three queries, the second with two samples\n");
        text.append("Q 0 5\nQ 20000000 7 9\nQ 40000000 11\n");
        // Server early stopping needs at least 459 queries even when none is late.
        for (int i = 3; i < 600; i++)
        {
            text.append("Q ").append(40_000_000L + i * 500_000L).append(' ').append(i % 100).append('\n');
        }
        Files.writeString(trace, text);
        final RecordingSut recording = new RecordingSut();
        final Path out = Files.createDirectories(dir.resolve("out"));
        final java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        // A scripted clock (1 us a reading) keeps the verdict off the machine's load: the trace's times are whole
        // microseconds, so every query goes out on time and the 100 ms default bound holds.
        final ScriptedClock clock = new ScriptedClock(1_000_000_000_000L, 1_000);
        final TestRunner runner = new TestRunner(recording, new SyntheticQsl(1024, 1024),
            new TestSettings().scenario(TestScenario.SERVER).minDurationMs(100).minQueryCount(10),
            new org.jloadgen.api.LogSettings().outputDirectory(out),
            EngineFixture.fastOptions().clock(clock).wallClock(clock), null, List.of(),
            new java.io.PrintStream(console));
        runner.replay(org.jloadgen.schedule.ReplayQueries.read(trace));
        final EngineFixture.Run run = EngineFixture.read(runner.run(), out, console);
        assertEquals(601L, ((Number)run.detail().value("generated_query_count")).longValue());
        final List<Integer> sizes = recording.queries().stream().map(RecordingSut.Query::size).toList();
        assertEquals(2, sizes.get(1), "the two samples of the second query go out together");
        assertEquals(600, sizes.size());
        assertEquals("VALID", run.detail().value("result_validity"), run.summary());
    }

    private static List<String> errors(final EngineFixture.Run run)
    {
        return run.detail().records().stream().filter(MlLogParser.Record::isError).map(r -> String.valueOf(r.value()))
            .toList();
    }

    @Test
    void shouldLogFirstTokensAndCountsUnderTheOfficialTest06AuditConfig() throws IOException
    {
        final Path audit = dir.resolve("audit.config");
        Files.copy(SharedData.data("audit/TEST06/audit.config"), audit);
        final Path out = Files.createDirectories(dir.resolve("out"));
        final TestSettings s = performance(TestScenario.SERVER).useTokenLatencies(true).minDurationMs(2_000)
            .sampleConcatenatePermutation(true);
        try (SyntheticSut sut = EngineFixture.synthetic("service", "fixed:100us", "first-token", "20us",
            "tokens", "7", "workers", "1"))
        {
            final EngineFixture.Run run = EngineFixture.run(out, sut, new SyntheticQsl(1024, 1024), s,
                EngineFixture.fastOptions(), audit, List.of());
            // TEST06: min_duration 0, min_query_count 100, equal issue off, sampling target 100.
            assertEquals(0L, ((Number)run.detail().value("effective_min_duration_ms")).longValue());
            assertEquals(Boolean.FALSE, run.detail().value("effective_sample_concatenate_permutation"));
            final Matcher m = Pattern.compile("\\{ \"seq_id\" : \\d+, \"qsl_idx\" : (\\d+), \"data\" : "
                + "\"([0-9A-F]*)\", \"token_data\" : \"([0-9A-F]*)\", \"token_count\" : (\\d+) }")
                .matcher(run.accuracy());
            int entries = 0;
            while (m.find())
            {
                entries++;
                // The synthetic SUT's first-token payload is its response: TEST06 checks it is a prefix of data.
                assertTrue(m.group(2).startsWith(m.group(3)), m.group());
                assertEquals("7", m.group(4));
            }
            assertTrue(entries > 0, run.accuracy());
        }
    }

    @Test
    void shouldNameFilesWithPrefixSuffixAndDatetime() throws IOException
    {
        final java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        final TestRunner runner = new TestRunner(new NullSut(), new SyntheticQsl(64, 64),
            performance(TestScenario.OFFLINE),
            new org.jloadgen.api.LogSettings().outputDirectory(dir).prefix("run7_").suffix("_x")
                .prefixWithDatetime(true).copySummaryToStdout(true),
            EngineFixture.fastOptions(), null, List.of(), new java.io.PrintStream(console));
        final TestResult result = runner.run();
        final String name = result.summaryFile().getFileName().toString();
        assertTrue(name.matches("run7_\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z_summary_x\\.txt"), name);
        assertTrue(Files.exists(dir.resolve(name.replace("summary_x.txt", "detail_x.txt"))));
        assertTrue(Files.exists(dir.resolve(name.replace("summary_x.txt", "accuracy_x.json"))));
        assertTrue(console.toString().contains("MLPerf Results Summary"), "copy_summary_to_stdout");
    }

    @Test
    void shouldWriteAChromeTraceWithOneSamplePairPerCompletion() throws IOException
    {
        final java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        final TestRunner runner = new TestRunner(new NullSut(), new SyntheticQsl(64, 64),
            performance(TestScenario.SERVER).serverTargetQps(1_000),
            new org.jloadgen.api.LogSettings().outputDirectory(dir).enableTrace(true),
            EngineFixture.fastOptions(), null, List.of(), new java.io.PrintStream(console));
        final TestResult result = runner.run();
        final String trace = Files.readString(result.traceFile());
        final long queries = ((Number)EngineFixture.read(result, dir, console).detail()
            .value("result_query_count")).longValue();
        assertTrue(trace.startsWith("{\"traceEvents\":[\n"), trace.substring(0, 40));
        assertTrue(trace.endsWith("\"version\":\"MLPerf LoadGen v1.0\"\n}\n}\n"));
        assertEquals(queries, trace.split("\"ph\":\"b\"", -1).length - 1L, "one begin per sample");
        assertEquals(queries, trace.split("\"ph\":\"e\"", -1).length - 1L, "one end per sample");
        assertEquals(queries, trace.split("\"name\":\"Latency\"", -1).length - 1L, "Server latency counters");
    }
}
