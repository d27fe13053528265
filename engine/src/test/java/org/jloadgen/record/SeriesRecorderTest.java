package org.jloadgen.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jloadgen.api.QuerySampleResponses;
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

class SeriesRecorderTest
{
    private static Trace offlineTrace(final int samples)
    {
        final EffectiveSettings settings = new EffectiveSettings(new TestSettings().scenario(TestScenario.OFFLINE)
            .minDurationMs(0).minQueryCount(samples), 64, 64);
        return QueryGenerator.generate(settings, LoadableSets.generate(64, 64, 64, TestScenario.OFFLINE,
            settings.samplesPerQuery, 0).get(0), TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
    }

    @Test
    void shouldMakeEverySamplePendingAgainOnReset()
    {
        final CompletionErrors errors = new CompletionErrors();
        try (Trace trace = offlineTrace(100);
            SeriesRecorder recorder = new SeriesRecorder(trace, false, errors, null, null, false,
                OffHeapAllocator.arena()))
        {
            recorder.origin(1_000);
            final QuerySampleResponses responses = new QuerySampleResponses(100);
            for (int i = 0; i < 100; i++)
            {
                responses.set(i, trace.firstSampleId() + 1 + i);
            }
            recorder.completeBatch(responses, 100, 1_500, null);
            assertEquals(100, recorder.completedSamples());
            assertEquals(500, recorder.completionRelativeNs(99));

            recorder.reset();
            assertEquals(0, recorder.completedSamples());
            assertEquals(-1, recorder.completionRelativeNs(0));
            assertEquals(-1, recorder.completionRelativeNs(99));

            // The same ids complete again without being counted as duplicates.
            recorder.completeBatch(responses, 100, 1_700, null);
            assertEquals(100, recorder.completedSamples());
            assertEquals(700, recorder.completionRelativeNs(42));
            assertEquals(0, errors.count(Kind.DUPLICATE));
            recorder.completeBatch(responses, 1, 1_800, null);
            assertEquals(1, errors.count(Kind.DUPLICATE));
        }
    }

    @Test
    void shouldRecordAnOfflineBatchAsOneHistogramValueWithItsCount()
    {
        final CompletionErrors errors = new CompletionErrors();
        final org.HdrHistogram.Recorder histogram = LatencyIntervalLog.newRecorder();
        try (Trace trace = offlineTrace(10);
            SeriesRecorder recorder = new SeriesRecorder(trace, false, errors, null, histogram, false,
                OffHeapAllocator.arena()))
        {
            recorder.origin(0);
            final QuerySampleResponses responses = new QuerySampleResponses(10);
            for (int i = 0; i < 10; i++)
            {
                responses.set(i, trace.firstSampleId() + 1 + i);
            }
            recorder.completeBatch(responses, 10, 2_000, null);
            final org.HdrHistogram.Histogram h = histogram.getIntervalHistogram();
            assertEquals(10, h.getTotalCount());
            assertEquals(10, h.getCountAtValue(2_000));
        }
    }

    @Test
    void shouldRecordEachQueryOfAMultiStreamBatchAsOneHistogramRun()
    {
        final EffectiveSettings settings = new EffectiveSettings(new TestSettings()
            .scenario(TestScenario.MULTI_STREAM).minDurationMs(0).minQueryCount(2), 64, 64);
        final org.HdrHistogram.Recorder histogram = LatencyIntervalLog.newRecorder();
        try (Trace trace = QueryGenerator.generate(settings, LoadableSets.generate(64, 64, 64,
                TestScenario.MULTI_STREAM, 8, 0).get(0), TestMode.PERFORMANCE_ONLY, new SequenceGen(),
                QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
            SeriesRecorder recorder = new SeriesRecorder(trace, false, new CompletionErrors(), null, histogram, false,
                OffHeapAllocator.arena()))
        {
            assertEquals(16, trace.sampleCount());
            recorder.origin(0);
            recorder.issueTimes().scheduled(0, 100);
            recorder.issueTimes().scheduled(1, 300);
            final QuerySampleResponses responses = new QuerySampleResponses(16);
            for (int i = 0; i < 16; i++)
            {
                responses.set(i, trace.firstSampleId() + 1 + i);
            }
            recorder.completeBatch(responses, 16, 1_000, null);
            final org.HdrHistogram.Histogram h = histogram.getIntervalHistogram();
            assertEquals(16, h.getTotalCount());
            assertEquals(8, h.getCountAtValue(900));
            assertEquals(8, h.getCountAtValue(700));
            assertEquals(1_000, recorder.completionRelativeNs(15));
        }
    }
}
