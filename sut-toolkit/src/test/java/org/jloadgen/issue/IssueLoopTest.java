package org.jloadgen.issue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.record.CompletionErrors.Kind;
import org.jloadgen.sut.BatcherSettings;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.sut.synthetic.SyntheticSut;
import org.jloadgen.testing.RecordingSut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IssueLoopTest
{
    private static SyntheticSut synthetic(final String... kv)
    {
        final Map<String, String> options = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2)
        {
            options.put(kv[i], kv[i + 1]);
        }
        return new SyntheticSut(options, null);
    }

    @Test
    void shouldIssueSingleStreamBackToBackAndEndNaturally()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
            .singleStreamExpectedLatencyNs(200_000).minDurationMs(200).minQueryCount(100);
        try (SyntheticSut sut = synthetic("service", "fixed:200us", "inline", "true"))
        {
            final SeriesFixture.Result r = new SeriesFixture().run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(StopReason.NATURAL, r.outcome().stopReason());
            assertTrue(r.outcome().queriesIssued() >= 100);
            assertTrue(r.outcome().lastIssuedRelativeNs() >= 200_000_000L);
            final var lat = r.collected().result().sampleLatencies();
            assertEquals(r.outcome().queriesIssued(), lat.count());
            // Every latency includes the 200 us service time and SingleStream excludes the gap between queries.
            assertTrue(lat.get(0) >= 200_000, "min latency " + lat.get(0));
            assertTrue(lat.get(lat.count() / 2) < 50_000_000, "median latency " + lat.get(lat.count() / 2));
        }
    }

    @Test
    void shouldRunOutOfQueriesWhenTheSutIsFasterThanExpected()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
            .singleStreamExpectedLatencyNs(10_000_000).minDurationMs(100).minQueryCount(10);
        final SeriesFixture.Result r = new SeriesFixture().run(s, 64, 64, TestMode.PERFORMANCE_ONLY, new NullSut());
        // 2 * 100 ms at 10 ms per query = 21 queries, issued in microseconds: LoadGen's "ran out" error.
        assertEquals(21, r.trace().queryCount());
        assertEquals(21, r.outcome().queriesIssued());
        assertEquals(StopReason.RAN_OUT, r.outcome().stopReason());
    }

    @Test
    void shouldIssueMultiStreamQueriesAsContiguousLoadedPositions()
    {
        final RecordingSut recording = new RecordingSut();
        final TestSettings s = new TestSettings().scenario(TestScenario.MULTI_STREAM).minDurationMs(10)
            .minQueryCount(50).multiStreamExpectedLatencyNs(100_000);
        final SeriesFixture.Result r = new SeriesFixture().run(s, 100, 100, TestMode.PERFORMANCE_ONLY, recording);
        assertTrue(recording.queries().size() >= 50);
        for (final RecordingSut.Query query : recording.queries())
        {
            final int[] p = query.positions();
            assertEquals(8, p.length);
            for (int i = 1; i < p.length; i++)
            {
                assertEquals(p[0] + i, p[i]);
            }
            assertTrue(p[0] < 100, "start inside the real samples, padding covers the tail");
        }
        assertEquals(recording.queries().size(), r.collected().result().queryLatencies().count());
    }

    @Test
    void shouldCompleteEveryServerQueryFromWorkerThreads()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(5_000)
            .minDurationMs(300).minQueryCount(100);
        try (SyntheticSut sut = synthetic("service", "fixed:50us", "workers", "2", "batch", "4"))
        {
            final SeriesFixture.Result r = new SeriesFixture().run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(StopReason.EXHAUSTED, r.outcome().stopReason());
            assertEquals(r.trace().queryCount(), r.outcome().queriesIssued());
            assertTrue(r.outcome().allCompleted());
            assertEquals(0, r.collected().missingSamples());
            assertTrue(r.collected().result().sampleLatencies().get(0) >= 50_000);
            // The last query is scheduled at or after min_duration.
            assertTrue(r.collected().result().finalQueryScheduledTimeSeconds() >= 0.3);
        }
    }

    @Test
    void shouldCoalesceQueriesThatAreAlreadyDue()
    {
        final RecordingSut slow = new RecordingSut(2_000_000);
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(10_000)
            .minDurationMs(50).minQueryCount(10).serverCoalesceQueries(true);
        final SeriesFixture.Result r = new SeriesFixture().run(s, 64, 64, TestMode.PERFORMANCE_ONLY, slow);
        final List<Integer> sizes = slow.queries().stream().map(RecordingSut.Query::size).toList();
        assertEquals(r.trace().queryCount(), r.outcome().queriesIssued());
        assertTrue(sizes.size() < r.outcome().queriesIssued(), "calls " + sizes.size());
        assertTrue(sizes.stream().anyMatch(n -> n > 1));
        assertEquals(r.outcome().queriesIssued(), sizes.stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void shouldStopServerWhenTooManyQueriesAreOutstanding()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(20_000)
            .minDurationMs(200).minQueryCount(10).serverMaxAsyncQueries(5);
        try (SyntheticSut sut = synthetic("service", "fixed:5ms", "workers", "1"))
        {
            final SeriesFixture.Result r = new SeriesFixture().run(s, 64, 64, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(StopReason.TOO_MANY_OUTSTANDING, r.outcome().stopReason());
            assertTrue(r.outcome().stopMessage().startsWith(
                "IssueQueryThread 0 Ending early: Too many outstanding queries. issued "));
        }
    }

    @Test
    void shouldIssueOfflineAsOneQueryOfEverySample()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(1000)
            .minDurationMs(1000).minQueryCount(100);
        final SeriesFixture.Result r = new SeriesFixture().run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY,
            new NullSut());
        // 1.1 * 1 s * 1000 qps = 1100 samples in one query.
        assertEquals(1, r.outcome().queriesIssued());
        assertEquals(1100, r.outcome().samplesIssued());
        assertEquals(StopReason.NATURAL, r.outcome().stopReason());
        assertEquals(1100, r.collected().result().sampleLatencies().count());
    }

    @Test
    void shouldEndWithAnErrorWhenTheSutNeverCompletes()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(1000)
            .minDurationMs(50).minQueryCount(10);
        try (SyntheticSut sut = synthetic("misbehave", "never", "misbehave-after", "5", "inline", "true"))
        {
            final SeriesFixture fixture = new SeriesFixture(
                new EngineOptions().latencyHistogram(false).completionTimeoutMs(300));
            final long t0 = System.nanoTime();
            final SeriesFixture.Result r = fixture.run(s, 64, 64, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(StopReason.SUT_SILENT, r.outcome().stopReason());
            assertTrue(r.collected().missingSamples() > 0);
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "ends, does not hang");
        }
    }

    @Test
    void shouldCountSamplesCompletedTwice()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(10)
            .minQueryCount(20).singleStreamExpectedLatencyNs(100_000);
        try (SyntheticSut sut = synthetic("misbehave", "twice", "inline", "true"))
        {
            final SeriesFixture fixture = new SeriesFixture();
            final SeriesFixture.Result r = fixture.run(s, 64, 64, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(r.outcome().samplesIssued(), fixture.errors.count(Kind.DUPLICATE));
        }
    }

    @Test
    void shouldCountUnknownResponseIds()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(10)
            .minQueryCount(20).singleStreamExpectedLatencyNs(100_000);
        try (SyntheticSut sut = synthetic("misbehave", "unknown", "inline", "true"))
        {
            final SeriesFixture fixture = new SeriesFixture();
            fixture.run(s, 64, 64, TestMode.PERFORMANCE_ONLY, sut);
            assertTrue(fixture.errors.count(Kind.UNKNOWN_ID) >= 20);
        }
    }

    @Test
    void shouldStopWhenTheSutThrowsFromIssueQuery()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(1000)
            .minDurationMs(100).minQueryCount(10);
        try (SyntheticSut sut = synthetic("misbehave", "throw", "misbehave-after", "3", "inline", "true"))
        {
            final SeriesFixture.Result r = new SeriesFixture().run(s, 64, 64, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(StopReason.SUT_FAILED, r.outcome().stopReason());
            assertEquals(3, r.outcome().queriesIssued());
            assertNotNull(r.outcome().sutFailure());
            assertTrue(r.outcome().stopMessage().contains("throw from issueQuery"));
        }
    }

    @Test
    void shouldStopWhenAWorkerReportsAFailure()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(10_000)
            .minDurationMs(100);
        try (SyntheticSut sut = synthetic("misbehave", "fail", "workers", "2", "batch", "8"))
        {
            final SeriesFixture fixture = new SeriesFixture(
                new EngineOptions().latencyHistogram(false).completionTimeoutMs(30_000));
            final long t0 = System.nanoTime();
            final SeriesFixture.Result r = fixture.run(s, 64, 64, TestMode.PERFORMANCE_ONLY, sut);
            assertEquals(StopReason.SUT_FAILED, r.outcome().stopReason());
            assertTrue(String.valueOf(r.outcome().sutFailure()).contains("inference failed"));
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "no wait for the completion timeout");
        }
    }

    @Test
    void shouldAllocateNothingOnTheIssueThreadDuringAServerRunWithIssueLatenessRecorded()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(50_000)
            .minDurationMs(300).minQueryCount(100);
        // Issue lateness on: the issue thread also stores every query's issue time.
        final SeriesFixture fixture = new SeriesFixture(new EngineOptions().completionTimeoutMs(2_000)
            .issueLateness(true));
        final NullSut sut = new NullSut();
        // The first series of a JVM initialises classes and links call sites (about 11 KB, once; the engine's
        // warm-up does this before a test's clock starts). Then the steady state must allocate nothing: three
        // consecutive runs of 15k queries each.
        int clean = 0;
        for (int run = 0; run < 10 && clean < 3; run++)
        {
            final SeriesFixture.Result r = fixture.run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut);
            assertTrue(r.outcome().queriesIssued() > 10_000);
            clean = r.outcome().issueAllocatedBytes() == 0 ? clean + 1 : 0;
        }
        assertEquals(3, clean, "the issue thread kept allocating while issuing");
    }

    @ParameterizedTest
    @CsvSource({"SERVER, 10000, HYBRID", "SERVER, 50000, SLEEP", "SINGLE_STREAM, 20000, SLEEP"})
    void shouldAllocateNothingOnTheIssueThreadWhileItParksForAWorkerSut(final TestScenario scenario, final double qps,
        final ServerWaitStrategy serverWait)
    {
        // Two CPUs and a one-worker SUT: AUTO makes the issue thread park (Server: HYBRID, parked until a quarter of
        // the gap before each query, or SLEEP where that is shorter than a wake-up; SingleStream: PARK until the
        // worker's completion wakes it), and the toolkit's worker parks too. Parking and being woken must allocate
        // nothing either.
        final CpuBudget budget = new CpuBudget(2);
        final TestSettings s = new TestSettings().scenario(scenario).serverTargetQps(qps)
            .singleStreamExpectedLatencyNs(50_000).minDurationMs(300).minQueryCount(100);
        final SeriesFixture fixture = new SeriesFixture(new EngineOptions().completionTimeoutMs(2_000)
            .cpuBudget(budget).parkSpinNs(0));
        try (BatchingSut sut = new BatchingSut("worker", new BatcherSettings(1, 0, 1, 1 << 12,
            CompletionWaitStrategy.AUTO, new int[0]), new SutStatistics("worker", 1, List.of()),
            worker -> (batch, responses, sink) -> sink.complete(responses, batch.size()), null, budget))
        {
            final IssueWaits waits = IssueWaits.resolve(fixture.options, scenario == TestScenario.SERVER ? qps : 0);
            assertEquals(serverWait, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            int clean = 0;
            for (int run = 0; run < 10 && clean < 3; run++)
            {
                final SeriesFixture.Result r = fixture.run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut);
                assertTrue(r.outcome().queriesIssued() > 1_000, "" + r.outcome().queriesIssued());
                assertEquals(0, r.collected().missingSamples());
                clean = r.outcome().issueAllocatedBytes() == 0 ? clean + 1 : 0;
            }
            assertEquals(3, clean, "the issue thread kept allocating while parking (" + scenario + ")");
        }
    }

    @Test
    void shouldAllocateNothingOnTheIssueThreadWhileIssuingWarmupAndMeasuredQueries()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(50_000)
            .minDurationMs(200).minQueryCount(100);
        final SeriesFixture fixture = new SeriesFixture(new EngineOptions().completionTimeoutMs(2_000));
        final NullSut sut = new NullSut();
        int clean = 0;
        for (int run = 0; run < 10 && clean < 3; run++)
        {
            final SeriesFixture.Result r = fixture.run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut, 100);
            assertTrue(r.outcome().warmupQueriesIssued() > 3_000, "warm-up " + r.outcome().warmupQueriesIssued());
            assertTrue(r.outcome().queriesIssued() > 7_000);
            assertEquals(0, r.outcome().warmupSamplesMissing());
            clean = r.outcome().issueAllocatedBytes() == 0 ? clean + 1 : 0;
        }
        assertEquals(3, clean, "the issue thread kept allocating while issuing");
        assertEquals(0, fixture.errors.total(), fixture.errors.describe().toString());
    }

    @Test
    void shouldRecordWarmupCompletionsThatArriveDuringTheMeasuredQueries()
    {
        // A worker thread completes: warm-up samples still queued when the measured queries start complete into
        // the warm-up's slots, not as mistakes, and the measured series counts only its own.
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(20_000)
            .minDurationMs(200).minQueryCount(100);
        final SeriesFixture fixture = new SeriesFixture(new EngineOptions().completionTimeoutMs(5_000)
            .latencyHistogram(false));
        try (org.jloadgen.sut.BatchingSut sut = org.jloadgen.sut.synthetic.NullWorkerSut.create(
            org.jloadgen.api.CompletionWaitStrategy.BACKOFF))
        {
            final SeriesFixture.Result r = fixture.run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut, 200);
            assertEquals(0, fixture.errors.total(), fixture.errors.describe().toString());
            assertEquals(0, r.outcome().warmupSamplesMissing());
            assertTrue(r.outcome().warmupQueriesIssued() > 2_000);
            assertEquals(r.trace().sampleCount(), r.collected().result().sampleLatencies().count());
            assertEquals(0, r.collected().missingSamples());
        }
    }

    @Test
    void shouldSeeAllocationsOfASutThatAllocatesOnTheIssueThread()
    {
        // The measurement itself must be able to fail: a SUT that boxes per query is caught.
        final List<Object> sink = new ArrayList<>();
        final SystemUnderTest allocating = new SystemUnderTest()
        {
            @Override
            public String name()
            {
                return "allocating";
            }

            @Override
            public void issueQuery(final QuerySamples samples, final ResponseSink responses)
            {
                sink.add(new long[] {samples.responseId(0)});
                responses.complete(samples.responseId(0));
            }

            @Override
            public void flushQueries()
            {
            }
        };
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(20_000)
            .minDurationMs(50).minQueryCount(100);
        final SeriesFixture.Result r = new SeriesFixture().run(s, 64, 64, TestMode.PERFORMANCE_ONLY, allocating);
        assertTrue(r.outcome().issueAllocatedBytes() >= 16 * r.outcome().queriesIssued());
    }
}
