package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.testing.RecordingSut;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A plain performance test's first trace, generated inside the engine's warm-up ({@code SeriesRunner
 * .prepareFirstTrace}), is the trace the test would have generated after it: the same loaded set, the same queries in
 * the same order with the same samples and ids, the same accuracy-log selection; and a test of another mode generates
 * nothing ahead.
 */
class PreparedTraceTest
{
    @TempDir
    Path dir;

    /**
     * @return every sample the SUT was given, in issue order: its QSL index, then its response id.
     */
    private static List<Long> issued(final RecordingSut sut)
    {
        final List<Long> issued = new ArrayList<>();
        for (final RecordingSut.Query query : sut.queries())
        {
            for (int i = 0; i < query.size(); i++)
            {
                issued.add(query.sampleIndices()[i]);
                issued.add(query.responseIds()[i]);
            }
        }
        return issued;
    }

    private static TestSettings settings(final TestScenario scenario, final TestMode mode)
    {
        // A sampled accuracy log, so that the selection drawn with the trace is compared too.
        return new TestSettings().scenario(scenario).mode(mode).minDurationMs(0).minQueryCount(300)
            .serverTargetQps(20_000).offlineExpectedQps(3_000).singleStreamExpectedLatencyNs(100_000)
            .multiStreamExpectedLatencyNs(100_000).accuracyLogProbability(0.05).accuracyLogRngSeed(7)
            .qslRngSeed(11).sampleIndexRngSeed(13).scheduleRngSeed(17);
    }

    private EngineFixture.Run run(final String name, final RecordingSut sut, final TestSettings settings,
        final long warmupMs)
    {
        return EngineFixture.run(dir.resolve(name), sut, new SyntheticQsl(1024, 512), settings,
            EngineFixture.fastOptions().jitWarmupMs(warmupMs), null, List.of());
    }

    @ParameterizedTest
    @EnumSource(value = TestScenario.class, names = {"SINGLE_STREAM", "MULTI_STREAM", "SERVER", "OFFLINE"})
    void shouldIssueTheTraceTheTestGeneratesAfterTheWarmup(final TestScenario scenario)
    {
        final RecordingSut after = new RecordingSut();
        final EngineFixture.Run plain = run("after", after, settings(scenario, TestMode.PERFORMANCE_ONLY), 0);
        final RecordingSut ahead = new RecordingSut();
        final EngineFixture.Run prepared = run("ahead", ahead, settings(scenario, TestMode.PERFORMANCE_ONLY), 20);

        final String warmup = String.valueOf(prepared.detail().value("jloadgen_warmup"));
        assertTrue(warmup.matches(".*; before its rounds, \\d+ ms \\(the test's first trace generated in \\d+ ms\\)"),
            warmup);
        for (final String key : List.of("loaded_qsl_set", "generated_query_count", "generated_samples_per_query",
            "generated_query_duration", "result_validity"))
        {
            assertEquals(plain.detail().value(key), prepared.detail().value(key), key);
        }
        assertTrue(issued(after).size() >= 600, "issued " + issued(after).size() / 2);
        assertEquals(issued(after), issued(ahead), "the issued samples and ids, in order");
        assertEquals(plain.accuracy(), prepared.accuracy(), "the sampled accuracy log");
        assertFalse(plain.accuracy().strip().equals("[]") || plain.accuracy().strip().equals("[\n]"),
            "no sample was logged, so the selection was not compared: " + plain.accuracy());
    }

    @ParameterizedTest
    @EnumSource(value = TestMode.class, names = {"ACCURACY_ONLY", "SUBMISSION_RUN"})
    void shouldGenerateNothingAheadForATestThatStartsWithAnotherSeries(final TestMode mode)
    {
        final RecordingSut after = new RecordingSut();
        final EngineFixture.Run plain = run("after", after, settings(TestScenario.OFFLINE, mode), 0);
        final RecordingSut warmed = new RecordingSut();
        final EngineFixture.Run run = run("warmed", warmed, settings(TestScenario.OFFLINE, mode), 20);

        final String warmup = String.valueOf(run.detail().value("jloadgen_warmup"));
        assertFalse(warmup.contains("first trace generated"), warmup);
        assertTrue(warmup.matches(".*; before its rounds, \\d+ ms"), warmup);
        assertEquals(issued(after), issued(warmed));
        assertEquals(plain.accuracy(), run.accuracy());
    }
}
