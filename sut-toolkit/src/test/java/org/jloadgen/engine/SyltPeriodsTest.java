package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.testing.ScriptedClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SyLT's start-up and warm-up periods ({@link EngineOptions#startupMs()}, {@link EngineOptions#warmupMs()}): the
 * warm-up's queries arrive at the target rate before the measured ones and their latencies are left out; the
 * measured trace is the one LoadGen generates; late warm-up completions are not mistakes; the start-up idles.
 */
class SyltPeriodsTest
{
    private static final long TICK_NS = 1_000;

    @TempDir
    Path dir;

    private static TestSettings server()
    {
        return new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
            .serverTargetQps(500).serverTargetLatencyNs(20_000_000).minDurationMs(2_000).minQueryCount(100);
    }

    /**
     * Inline on a scripted clock: the first {@code coldQueries} queries take {@code coldNs} each (a cold cache),
     * the rest {@code warmNs}.
     */
    private static final class ColdStartSut implements SystemUnderTest
    {
        private final ScriptedClock clock;
        private final int coldQueries;
        private final long coldNs;
        private final long warmNs;
        private final QuerySampleResponses responses = new QuerySampleResponses(16);
        private long queries;

        ColdStartSut(final ScriptedClock clock, final int coldQueries, final long coldNs, final long warmNs)
        {
            this.clock = clock;
            this.coldQueries = coldQueries;
            this.coldNs = coldNs;
            this.warmNs = warmNs;
        }

        @Override
        public String name()
        {
            return "ColdStartSUT";
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            clock.advance(queries++ < coldQueries ? coldNs : warmNs);
            for (int i = 0; i < samples.size(); i++)
            {
                responses.set(i, samples.responseId(i));
            }
            sink.complete(responses, samples.size());
        }

        @Override
        public void flushQueries()
        {
        }
    }

    private EngineFixture.Run runScripted(final String name, final SystemUnderTest sut, final ScriptedClock clock,
        final long warmupMs)
    {
        final EngineOptions options = EngineFixture.fastOptions().clock(clock).wallClock(clock)
            .latencyHistogram(false).warmupMs(warmupMs);
        return EngineFixture.run(dir.resolve(name), sut, new SyntheticQsl(1024, 1024), server(), options, null,
            List.of());
    }

    @Test
    void shouldLeaveTheColdStartOutOfTheMeasuredLatencies()
    {
        // 40 cold queries of 30 ms each at 500 QPS: a backlog of over a second, far above the 20 ms bound.
        final ScriptedClock coldClock = new ScriptedClock(1_000_000_000_000L, TICK_NS);
        final EngineFixture.Run cold = runScripted("cold", new ColdStartSut(coldClock, 40, 30_000_000, 100_000),
            coldClock, 0);
        final ScriptedClock warmClock = new ScriptedClock(1_000_000_000_000L, TICK_NS);
        final EngineFixture.Run warm = runScripted("warm", new ColdStartSut(warmClock, 40, 30_000_000, 100_000),
            warmClock, 5_000);

        assertEquals("INVALID", cold.detail().value("result_validity"), cold.summary());
        assertTrue(((Number)cold.detail().value("result_max_latency_ns")).longValue() > 500_000_000L);

        assertEquals("VALID", warm.detail().value("result_validity"), warm.summary());
        assertEquals(0, warm.detail().errorCount(), warm.summary());
        assertTrue(((Number)warm.detail().value("result_max_latency_ns")).longValue() < 20_000_000L,
            warm.summary());
        // The measured queries are LoadGen's trace: same count, same schedule length.
        assertEquals(cold.detail().value("generated_query_count"), warm.detail().value("generated_query_count"));
        assertEquals(cold.detail().value("generated_query_duration"),
            warm.detail().value("generated_query_duration"));
        assertEquals(cold.detail().value("result_query_count"), warm.detail().value("result_query_count"));
        final String message = messages(warm.detail()).stream().filter(m -> m.startsWith("SyLT warm-up: "))
            .findFirst().orElseThrow();
        // About 500 QPS x 5 s of warm-up queries.
        final long warmupQueries = Long.parseLong(message.split(" ")[2]);
        assertTrue(warmupQueries > 2_300 && warmupQueries < 2_700, message);
        assertTrue(messages(cold.detail()).stream().noneMatch(m -> m.startsWith("SyLT")));
    }

    @Test
    void shouldCountLateWarmupCompletionsInTheWarmupNotAsMistakes()
    {
        // Each query completes only when the next one arrives (or at the flush): the last warm-up query
        // completes after the measured series started.
        final ScriptedClock clock = new ScriptedClock(1_000_000_000_000L, TICK_NS);
        final EngineFixture.Run run = runScripted("deferred", new DeferredSut(), clock, 1_000);
        assertEquals(0, run.detail().errorCount(), run.summary());
        assertEquals("VALID", run.detail().value("result_validity"), run.summary());
    }

    /** Completes each query when the next one is issued, and the last one at the flush. */
    private static final class DeferredSut implements SystemUnderTest
    {
        private final QuerySampleResponses responses = new QuerySampleResponses(16);
        private final List<Long> pending = new ArrayList<>();

        @Override
        public String name()
        {
            return "DeferredSUT";
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            completePending(sink);
            for (int i = 0; i < samples.size(); i++)
            {
                pending.add(samples.responseId(i));
            }
            this.sink = sink;
        }

        private ResponseSink sink;

        private void completePending(final ResponseSink to)
        {
            for (int i = 0; i < pending.size(); i++)
            {
                responses.set(i, pending.get(i));
            }
            to.complete(responses, pending.size());
            pending.clear();
        }

        @Override
        public void flushQueries()
        {
            if (sink != null)
            {
                completePending(sink);
            }
        }
    }

    @Test
    void shouldIdleForTheStartupBeforeTheFirstQuery()
    {
        final TestSettings s = server().minDurationMs(100).minQueryCount(600).serverTargetQps(5_000);
        final long startNs = System.nanoTime();
        final EngineFixture.Run run = EngineFixture.run(dir, new NullSut(), new SyntheticQsl(1024, 1024), s,
            EngineFixture.fastOptions().startupMs(400), null, List.of());
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
        assertTrue(elapsedMs >= 400, "took " + elapsedMs + " ms");
        assertTrue(messages(run.detail()).contains("SyLT start-up: the SUT idles for 400 ms before the first query"));
        // The idle time is outside the run: every generated query is issued and measured (latencies on a busy
        // machine are not this test's business).
        assertEquals(run.detail().value("generated_query_count"), run.detail().value("result_query_count"));
        assertEquals(0, run.detail().errorCount(), run.summary());
        final List<String> keys = run.detail().records().stream().map(MlLogParser.Record::key).toList();
        assertTrue(keys.indexOf("loaded_qsl_set") < keys.indexOf("generated_query_count"));
    }

    @Test
    void shouldRefuseAWarmupOutsideServer()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE).mode(TestMode.PERFORMANCE_ONLY);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new TestRunner(
            new NullSut(), new SyntheticQsl(16, 16), s, new LogSettings().outputDirectory(dir),
            EngineFixture.fastOptions().warmupMs(1_000), null, List.of(), System.out));
        assertTrue(ex.getMessage().contains("needs the Server scenario, not Offline"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new EngineOptions().warmupMs(-1));
        assertThrows(IllegalArgumentException.class, () -> new EngineOptions().startupMs(-5));
    }

    private static List<String> messages(final MlLogParser detail)
    {
        return detail.records().stream().filter(r -> r.key().equals("generic_message"))
            .map(r -> (String)r.value()).toList();
    }
}
