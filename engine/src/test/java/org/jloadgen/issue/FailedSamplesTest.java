package org.jloadgen.issue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.log.SummaryWriter;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.results.SeriesEnd;
import org.junit.jupiter.api.Test;

/**
 * Failed samples ({@link ResponseSink#failSample}, a SUT's {@code on-error=count}) through the real issue loop,
 * recorder and latency collection: counted apart, in no latency, the series goes on to its end and is INVALID with
 * the counts in JLoadGen's summary section; nothing allocated on the issuing and completing thread. And the rates of
 * a series cut short run to its last completion, not to 0 s.
 */
class FailedSamplesTest
{
    /** Completes every sample on the issuing thread, except those whose response id is a multiple of 40. */
    private static final class OneIn40Fails implements SystemUnderTest
    {
        @Override
        public String name()
        {
            return "one-in-40-fails";
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            for (int i = 0, n = samples.size(); i < n; i++)
            {
                final long id = samples.responseId(i);
                if (id % 40 == 0)
                {
                    sink.failSample(id);
                }
                else
                {
                    sink.complete(id);
                }
            }
        }

        @Override
        public void flushQueries()
        {
        }
    }

    private static long multiplesOf40(final long firstId, final long count)
    {
        long n = 0;
        for (long id = firstId; id < firstId + count; id++)
        {
            n += id % 40 == 0 ? 1 : 0;
        }
        return n;
    }

    @Test
    void shouldCountFailedSamplesApartAndGoOnWithoutAllocating()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(20_000)
            .minDurationMs(200).minQueryCount(100);
        final SeriesFixture fixture = new SeriesFixture(new EngineOptions().completionTimeoutMs(2_000)
            .latencyHistogram(false));
        final OneIn40Fails sut = new OneIn40Fails();
        int clean = 0;
        SeriesFixture.Result last = null;
        for (int run = 0; run < 10 && clean < 3; run++)
        {
            final SeriesFixture.Result r = fixture.run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, sut);
            final long issued = r.outcome().samplesIssued();
            assertTrue(issued > 3_000, "issued " + issued);
            assertEquals(null, r.outcome().stoppedBecause(), "the series ran to its end");
            final long failed = multiplesOf40(r.trace().firstSampleId() + 1, issued);
            assertEquals(failed, r.collected().failedSamples());
            assertEquals(0, r.collected().missingSamples());
            assertEquals(issued - failed, r.collected().result().sampleLatencies().count(),
                "a failed sample is in no latency");
            clean = r.outcome().issueAllocatedBytes() == 0 ? clean + 1 : 0;
            last = r;
        }
        assertEquals(3, clean, "the issuing and completing thread allocated while failing samples");
        assertEquals(0, fixture.errors.total(), fixture.errors.describe().toString());

        final long issued = last.outcome().samplesIssued();
        final long failed = last.collected().failedSamples();
        final SeriesEnd end = new SeriesEnd(issued, last.collected().missingSamples(), null, failed);
        final PerformanceSummary summary = new PerformanceSummary("one-in-40-fails",
            new EffectiveSettings(s, 1024, 1024), last.collected().result(), end);
        assertFalse(summary.valid(), "a series with failed samples is INVALID");
        assertEquals(issued - failed, end.samplesCompleted());
        final double goodput = (issued - failed) / last.collected().result().finalQueryAllSamplesDoneSeconds();
        assertEquals(goodput, summary.goodputSamplesPerSecond(), 1e-9);
        final String text = SummaryWriter.performanceSection(summary);
        assertTrue(text.contains("Result is : INVALID\n"), text);
        assertTrue(text.contains("  All issued samples completed : NO (" + failed + " of " + issued + " failed)\n"),
            text);
        assertTrue(text.contains(" * " + failed + " of " + issued + " issued samples failed (the SUT counted them "
            + "and went on); the latencies and rates above cover the " + (issued - failed)
            + " completed samples only.\n"), text);
        // JLoadGen's section comes after LoadGen's last lines.
        final int parameters = text.indexOf("accuracy_sample_count : ");
        final int section = text.indexOf("JLoadGen: failed samples\n");
        assertTrue(parameters > 0 && section > parameters, text);
        assertTrue(text.endsWith("Failed samples : " + failed + " of " + issued + " issued (never completed: in no "
            + "latency or rate above)\nCompleted samples : " + (issued - failed) + "\nGoodput (completed samples per "
            + "second) : " + String.format(Locale.ROOT, "%.2f", goodput) + "\n"), text);
    }

    @Test
    void shouldKeepFailedAndUnansweredSamplesApartInTheSeriesEnd()
    {
        final SeriesEnd end = new SeriesEnd(100, 2, null, 3);
        assertEquals(95, end.samplesCompleted());
        assertFalse(end.allCompleted());
        assertFalse(end.noneFailed());
        assertFalse(end.normal());
        assertEquals("2 of 100 issued samples never completed.\n3 of 100 issued samples failed (the SUT counted them "
            + "and went on); the latencies and rates above cover the 95 completed samples only.", end.explanation());
        assertTrue(new SeriesEnd(100, 0, null, 0).normal());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> new SeriesEnd(10, 5, null, 6));
    }

    @Test
    void shouldCountAFailureOfACompletedSampleAsADuplicate()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(0)
            .minQueryCount(10).maxQueryCount(10).singleStreamExpectedLatencyNs(100_000);
        final SeriesFixture fixture = new SeriesFixture();
        final SeriesFixture.Result r = fixture.run(s, 64, 64, TestMode.PERFORMANCE_ONLY, new SystemUnderTest()
        {
            @Override
            public String name()
            {
                return "completes-then-fails";
            }

            @Override
            public void issueQuery(final QuerySamples samples, final ResponseSink sink)
            {
                sink.complete(samples.responseId(0));
                sink.failSample(samples.responseId(0));
            }

            @Override
            public void flushQueries()
            {
            }
        });
        assertEquals(0, r.collected().failedSamples());
        assertEquals(10, r.collected().result().sampleLatencies().count());
        assertEquals(10, fixture.errors.count(CompletionErrors.Kind.DUPLICATE));
    }

    @Test
    void shouldRateACutShortSeriesToItsLastCompletion()
    {
        // The SUT completes the first 100 samples only; the engine stops waiting after the completion timeout. The
        // last query never completed, so "Completed samples per second" ran to 0 s (0.00 printed beside real
        // percentiles); it now runs to the last completion.
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(2_000)
            .minDurationMs(200).minQueryCount(100);
        final SeriesFixture fixture = new SeriesFixture(new EngineOptions().completionTimeoutMs(300)
            .latencyHistogram(false));
        final SeriesFixture.Result r = fixture.run(s, 1024, 1024, TestMode.PERFORMANCE_ONLY, new SystemUnderTest()
        {
            private long completed;

            @Override
            public String name()
            {
                return "stops-after-100";
            }

            @Override
            public void issueQuery(final QuerySamples samples, final ResponseSink sink)
            {
                for (int i = 0; i < samples.size(); i++)
                {
                    if (completed++ < 100)
                    {
                        sink.complete(samples.responseId(i));
                    }
                }
            }

            @Override
            public void flushQueries()
            {
            }
        });
        assertEquals(100, r.collected().result().sampleLatencies().count());
        assertTrue(r.collected().missingSamples() > 0);
        final double lastCompletionS = r.collected().maxCompletionRelativeNs() / 1e9;
        assertEquals(lastCompletionS, r.collected().result().finalQueryAllSamplesDoneSeconds(), 1e-12);
        final PerformanceSummary summary = new PerformanceSummary("stops-after-100",
            new EffectiveSettings(s, 1024, 1024), r.collected().result(),
            new SeriesEnd(r.outcome().samplesIssued(), r.collected().missingSamples(), r.outcome().stoppedBecause()));
        assertEquals(99 / lastCompletionS, summary.completedSamplesPerSecond(), 1e-6);
        assertTrue(summary.completedSamplesPerSecond() > 0);
        assertFalse(SummaryWriter.performanceSection(summary).contains("Completed samples per second    : 0.00"));
    }
}
