package org.jloadgen.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.random.Mt19937;
import org.junit.jupiter.api.Test;

/**
 * A trace generated while its series runs ({@link TraceFill}) holds LoadGen's draws, value for value, and leaves the
 * test's accuracy-log generator where up-front generation leaves it.
 */
class StreamedTraceTest
{
    private static final QueryGenerator.AccuracyLogSelection SELECTION =
        new QueryGenerator.AccuracyLogSelection(0.37, 0.001);

    @Test
    void shouldStreamLongSingleStreamTraceWithLoadGensDraws()
    {
        // 2 x 2.1 s at 1 us: 4.2M queries, past the head start, several chunks generated on a thread of the test's
        // (streamed on request: the engine streams from MIN_STREAMED_QUERIES).
        final EffectiveSettings settings = settings(TestScenario.SINGLE_STREAM, 1, 2_100);
        assertFalse(QueryGenerator.streams(settings, TestMode.PERFORMANCE_ONLY));
        final EffectiveSettings longer = settings(TestScenario.SINGLE_STREAM, 1, 16_800);
        assertTrue(QueryGenerator.streams(longer, TestMode.PERFORMANCE_ONLY));
        assertFalse(QueryGenerator.streams(longer, TestMode.ACCURACY_ONLY));
        compareWithUpFront(settings, 4_000_000, 1L << 22);
    }

    @Test
    void shouldStreamMultiStreamTraceWithLoadGensDraws()
    {
        // The warm-up's shape: a short trace streamed from the first query (minStreamedQueries 0), then another
        // series from the same sequence.
        final EffectiveSettings settings = settings(TestScenario.MULTI_STREAM, 8, 60);
        compareWithUpFront(settings, 100_000, 0);
    }

    @Test
    void shouldNotStreamShortOrAccuracyTraces()
    {
        final EffectiveSettings settings = settings(TestScenario.SINGLE_STREAM, 1, 100);
        assertFalse(QueryGenerator.streams(settings, TestMode.PERFORMANCE_ONLY));
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, settings.scenario, 1, 0).get(0);
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            SELECTION, OffHeapAllocator.arena(), QueryGenerator.MIN_STREAMED_QUERIES))
        {
            assertNull(trace.fill());
        }
        final EffectiveSettings server = new EffectiveSettings(new TestSettings().scenario(TestScenario.SERVER)
            .serverTargetQps(1e7).minDurationMs(1_000), 1024, 1024);
        assertFalse(QueryGenerator.streams(server, TestMode.PERFORMANCE_ONLY));
    }

    @Test
    void shouldSayWhyTheIssueThreadCannotGoOnWhenGenerationStopped()
    {
        final EffectiveSettings settings = settings(TestScenario.SINGLE_STREAM, 1, 2_100);
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, settings.scenario, 1, 0).get(0);
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            SELECTION, OffHeapAllocator.arena(), 1L << 22))
        {
            final TraceFill fill = trace.fill();
            assertNotNull(fill);
            assertEquals(TraceFill.HEAD_START_QUERIES, fill.readyQueries());
            fill.stopAndAwait();
            fill.run(); // returns at once after a stop
            assertEquals(TraceFill.HEAD_START_QUERIES, fill.readyQueries());
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> fill.awaitQueries(TraceFill.HEAD_START_QUERIES, TraceFill.HEAD_START_QUERIES + 1));
            assertTrue(e.getMessage().contains("stopped at query " + TraceFill.HEAD_START_QUERIES), e.getMessage());
        }
    }

    @Test
    void shouldDiscardLikeDrawing()
    {
        final Mt19937 drawn = new Mt19937(42);
        final Mt19937 skipped = new Mt19937(42);
        for (final long n : new long[] {0, 1, 623, 624, 625, 5000, 123_457})
        {
            for (long i = 0; i < n; i++)
            {
                drawn.nextInt();
            }
            skipped.discard(n);
            assertEquals(drawn.nextInt(), skipped.nextInt(), "after discarding " + n);
        }
        final Mt19937 copy = drawn.copy();
        assertEquals(drawn.nextInt(), copy.nextInt());
        assertThrows(IllegalArgumentException.class, () -> skipped.discard(-1));
    }

    private static EffectiveSettings settings(final TestScenario scenario, final int samplesPerQuery,
        final long minDurationMs)
    {
        final TestSettings requested = new TestSettings().scenario(scenario).minDurationMs(minDurationMs)
            .singleStreamExpectedLatencyNs(1_000).multiStreamExpectedLatencyNs(1_000)
            .multiStreamSamplesPerQuery(samplesPerQuery).minQueryCount(100).sampleIndexRngSeed(7);
        return new EffectiveSettings(requested, 1024, 1024);
    }

    /**
     * Generates the series up front and streamed (reading the streamed one as the issue loop does, while its fill
     * runs on another thread), then a second series from each sequence, and compares every draw.
     */
    private static void compareWithUpFront(final EffectiveSettings settings, final long expectedMinQueries,
        final long minStreamedQueries)
    {
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, settings.scenario,
            settings.samplesPerQuery, 0).get(0);
        final SequenceGen upFrontSequence = new SequenceGen();
        final SequenceGen streamedSequence = new SequenceGen();
        try (Trace upFront = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, upFrontSequence,
                SELECTION, OffHeapAllocator.arena());
            Trace streamed = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, streamedSequence,
                SELECTION, OffHeapAllocator.arena(), minStreamedQueries))
        {
            assertNull(upFront.fill());
            final TraceFill fill = streamed.fill();
            assertNotNull(fill);
            assertTrue(upFront.queryCount() >= expectedMinQueries, upFront.queryCount() + " queries");
            assertEquals(upFront.queryCount(), streamed.queryCount());
            assertEquals(upFront.durationNs(), streamed.durationNs());
            assertEquals(upFront.sampleCount(), streamed.sampleCount());
            assertEquals(upFront.firstSampleId(), streamed.firstSampleId());
            assertTrue(upFront.logsAnySample());
            final Thread filler = Thread.ofPlatform().name("test-trace-fill").start(fill);
            final int spq = streamed.samplesPerQuery();
            long readyQ = fill.awaitQueries(0, 1);
            long selected = 0;
            for (long q = 0; q < streamed.queryCount(); q++)
            {
                if (q + 1 > readyQ)
                {
                    readyQ = fill.awaitQueries(q, q + 1);
                }
                assertEquals(upFront.firstPosition(q), streamed.firstPosition(q), "query " + q);
                for (long s = q * spq; s < (q + 1) * spq; s++)
                {
                    if (upFront.position(s) != streamed.position(s)
                        || upFront.accuracyLogged(s) != streamed.accuracyLogged(s))
                    {
                        assertEquals(upFront.position(s), streamed.position(s), "sample " + s);
                        assertEquals(upFront.accuracyLogged(s), streamed.accuracyLogged(s), "sample " + s);
                    }
                    selected += upFront.accuracyLogged(s) ? 1 : 0;
                }
            }
            assertTrue(selected > 0, "the selection must pick some samples for the comparison to mean anything");
            assertTrue(streamed.logsAnySample());
            join(filler);
            assertNull(fill.failure());
        }
        // The next series draws from where LoadGen's would: the streamed trace's values were skipped lazily.
        final EffectiveSettings next = settings(settings.scenario, (int)settings.samplesPerQuery, 1);
        try (Trace a = QueryGenerator.generate(next, set, TestMode.PERFORMANCE_ONLY, upFrontSequence,
                new QueryGenerator.AccuracyLogSelection(0.0, 0.05), OffHeapAllocator.arena());
            Trace b = QueryGenerator.generate(next, set, TestMode.PERFORMANCE_ONLY, streamedSequence,
                new QueryGenerator.AccuracyLogSelection(0.0, 0.05), OffHeapAllocator.arena()))
        {
            assertEquals(a.firstSampleId(), b.firstSampleId());
            for (long s = 0; s < a.sampleCount(); s++)
            {
                assertEquals(a.accuracyLogged(s), b.accuracyLogged(s), "second series, sample " + s);
            }
        }
    }

    private static void join(final Thread thread)
    {
        try
        {
            thread.join();
        }
        catch (final InterruptedException e)
        {
            throw new AssertionError(e);
        }
    }
}
