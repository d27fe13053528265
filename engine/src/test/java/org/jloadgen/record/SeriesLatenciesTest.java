package org.jloadgen.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.record.CompletionErrors.Kind;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A series' latencies counted ({@link CountedLatencies}, large series) give what they give sorted: every rank, the
 * sum, the maximum, the missing, failed and never-issued samples, from the same completion slots; and queries of one
 * sample each (their own loop) give what the definition of a latency gives.
 */
class SeriesLatenciesTest
{
    private static final int SAMPLES = 100_000;
    private static final int ISSUED = SAMPLES - 500;

    @Test
    void shouldCollectTheSameResultCountedAsSorted()
    {
        final CompletionErrors sortedErrors = new CompletionErrors();
        final CompletionErrors countedErrors = new CompletionErrors();
        try (Trace trace = singleStreamTrace(SAMPLES);
            SeriesRecorder sorting = new SeriesRecorder(trace, false, sortedErrors, null, null, false,
                OffHeapAllocator.arena());
            SeriesRecorder counting = new SeriesRecorder(trace, false, countedErrors, null, null, false,
                OffHeapAllocator.arena()))
        {
            final long generated = trace.sampleCount();
            assertEquals(true, generated > ISSUED + 100, "queries generated: " + generated);
            final SplittableRandom random = new SplittableRandom(7);
            final MemorySegment slots = sorting.completionSlots();
            for (long s = 0; s < ISSUED; s++)
            {
                final int kind = random.nextInt(100);
                final long slot = switch (kind)
                {
                    case 0 -> 0;                                             // never completed
                    case 1 -> -1;                                            // failed
                    case 2, 3, 4 -> 1 + random.nextLong(4_194_304, 60_000_000); // past the counted range
                    default -> 1 + random.nextLong(20_000, 400_000);
                };
                slots.set(ValueLayout.JAVA_LONG, s << 3, slot);
            }
            // Two completions of response ids never issued, 8 slots apart, inside and at the end of the rest.
            slots.set(ValueLayout.JAVA_LONG, (ISSUED + 100L) << 3, 5_000);
            slots.set(ValueLayout.JAVA_LONG, (generated - 1) << 3, 6_000);
            MemorySegment.copy(slots, 0, counting.completionSlots(), 0, generated << 3);

            final SeriesLatencies.Collected bySort = SeriesLatencies.collect(trace, sorting, ISSUED, ISSUED,
                ISSUED - 1, 0, false, sortedErrors, Long.MAX_VALUE);
            final SeriesLatencies.Collected byCount = SeriesLatencies.collect(trace, counting, ISSUED, ISSUED,
                ISSUED - 1, 0, false, countedErrors, 0);

            final SortedLatencies expected = bySort.result().sampleLatencies();
            final SortedLatencies actual = byCount.result().sampleLatencies();
            assertEquals(CountedLatencies.class, actual.getClass());
            assertEquals(expected.count(), actual.count());
            assertEquals(expected.sum(), actual.sum());
            for (long i = 0; i < expected.count(); i++)
            {
                assertEquals(expected.get(i), actual.get(i), "rank " + i);
            }
            assertEquals(bySort.missingSamples(), byCount.missingSamples());
            assertEquals(bySort.firstMissingId(), byCount.firstMissingId());
            assertEquals(bySort.failedSamples(), byCount.failedSamples());
            assertEquals(bySort.firstFailedId(), byCount.firstFailedId());
            assertEquals(bySort.maxCompletionRelativeNs(), byCount.maxCompletionRelativeNs());
            assertEquals(bySort.result().maxLatencySeconds(), byCount.result().maxLatencySeconds());
            assertEquals(bySort.result().finalQueryAllSamplesDoneSeconds(),
                byCount.result().finalQueryAllSamplesDoneSeconds());
            assertEquals(2, sortedErrors.count(Kind.NOT_ISSUED));
            assertEquals(2, countedErrors.count(Kind.NOT_ISSUED));
            assertEquals(ISSUED, bySort.missingSamples() + bySort.failedSamples() + expected.count());
            assertEquals(true, bySort.missingSamples() > 0 && bySort.failedSamples() > 0);
        }
    }

    /**
     * SingleStream (its slots holding latencies, or completion times where issue times are kept for a Chrome trace),
     * and MultiStream with one sample per query: each latency is the completion minus the query's scheduled time,
     * computed here sample by sample, with samples never completed and failed among them and the last query failed
     * (its end is then the latest completion). The samples complete and fail through the recorder, as a SUT's do.
     */
    @ParameterizedTest
    @CsvSource({"false, false", "false, true", "true, false"})
    void shouldComputeOneSampleQueriesAsTheDefinitionSays(final boolean multiStream, final boolean keepsIssueTimes)
    {
        final int queries = 20_000;
        final CompletionErrors errors = new CompletionErrors();
        final EffectiveSettings settings = new EffectiveSettings(new TestSettings()
            .scenario(multiStream ? TestScenario.MULTI_STREAM : TestScenario.SINGLE_STREAM)
            .multiStreamSamplesPerQuery(1).minDurationMs(0).minQueryCount(queries), 64, 64);
        try (Trace trace = QueryGenerator.generate(settings, LoadableSets.generate(64, 64, 64, settings.scenario,
                settings.samplesPerQuery, 0).get(0), TestMode.PERFORMANCE_ONLY, new SequenceGen(),
                QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
            SeriesRecorder recorder = new SeriesRecorder(trace, false, errors, null, null, keepsIssueTimes,
                OffHeapAllocator.arena()))
        {
            assertEquals(1, trace.samplesPerQuery());
            assertEquals(!multiStream && !keepsIssueTimes, recorder.latencySlots());
            assertEquals(!multiStream && !keepsIssueTimes, recorder.issueTimes().latestOnly());
            recorder.origin(0);
            final SplittableRandom random = new SplittableRandom(11);
            final List<Long> latencies = new ArrayList<>();
            long missing = 0;
            long failed = 0;
            long firstMissing = -1;
            long firstFailed = -1;
            long maxCompletionNs = 0;
            long scheduledNs = 0;
            for (int q = 0; q < queries; q++)
            {
                scheduledNs += random.nextLong(1, 5_000);
                recorder.issueTimes().scheduled(q, scheduledNs);
                final int kind = q == queries - 1 ? 1 : random.nextInt(50);
                final long id = trace.firstSampleId() + 1 + q;
                if (kind == 0)
                {
                    missing++;
                    firstMissing = firstMissing < 0 ? id : firstMissing;
                    continue;
                }
                if (kind == 1)
                {
                    failed++;
                    firstFailed = firstFailed < 0 ? id : firstFailed;
                    recorder.failSample(id, scheduledNs + 9);
                    continue;
                }
                final long completionNs = scheduledNs + random.nextLong(0, 3_000);
                recorder.completeOne(id, completionNs, 0L, 0L, 0L);
                latencies.add(completionNs - scheduledNs);
                maxCompletionNs = Math.max(maxCompletionNs, completionNs);
                scheduledNs = completionNs;
            }
            latencies.sort(null);

            final SeriesLatencies.Collected collected = SeriesLatencies.collect(trace, recorder, queries, queries,
                queries - 1, scheduledNs, false, errors, Long.MAX_VALUE);

            final SortedLatencies actual = collected.result().sampleLatencies();
            assertEquals(latencies.size(), actual.count());
            for (int i = 0; i < latencies.size(); i++)
            {
                assertEquals(latencies.get(i), actual.get(i), "rank " + i);
            }
            assertEquals(latencies.stream().mapToLong(Long::longValue).sum(), actual.sum());
            final SortedLatencies queryLatencies = collected.result().queryLatencies();
            assertEquals(multiStream ? latencies.size() : 0, queryLatencies.count());
            for (int i = 0; i < queryLatencies.count(); i++)
            {
                assertEquals(latencies.get(i), queryLatencies.get(i), "query rank " + i);
            }
            assertEquals(missing, collected.missingSamples());
            assertEquals(firstMissing, collected.firstMissingId());
            assertEquals(failed, collected.failedSamples());
            assertEquals(firstFailed, collected.firstFailedId());
            assertEquals(maxCompletionNs, collected.maxCompletionRelativeNs());
            assertEquals(maxCompletionNs / 1e9, collected.result().finalQueryAllSamplesDoneSeconds());
            assertEquals(latencies.get(latencies.size() - 1) / 1e9, collected.result().maxLatencySeconds());
        }
    }

    private static Trace singleStreamTrace(final int queries)
    {
        final EffectiveSettings settings = new EffectiveSettings(new TestSettings()
            .scenario(TestScenario.SINGLE_STREAM).minDurationMs(0).minQueryCount(queries), 64, 64);
        return QueryGenerator.generate(settings, LoadableSets.generate(64, 64, 64, TestScenario.SINGLE_STREAM,
            settings.samplesPerQuery, 0).get(0), TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
    }
}
