package org.jloadgen.issue;

import java.util.List;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.record.RetiredTarget;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.SeriesLatencies;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;
import org.jloadgen.schedule.WarmupQueries;

/**
 * Runs one series through the real generator, issue loop, completion path and latency collection, without the
 * logging around it, for tests of scenario semantics.
 */
final class SeriesFixture
{
    final CompletionErrors errors = new CompletionErrors();
    final EngineResponseSink sink = new EngineResponseSink(new RetiredTarget(errors));
    final SequenceGen sequence = new SequenceGen();
    final EngineOptions options;
    final IssueLoop loop;

    SeriesFixture(final EngineOptions options)
    {
        this.options = options;
        this.loop = new IssueLoop(options);
        sink.onFailure(t -> loop.abort("SUT failed: " + t));
    }

    SeriesFixture()
    {
        this(new EngineOptions().latencyHistogram(false).completionTimeoutMs(2_000));
    }

    record Result(IssueOutcome outcome, SeriesLatencies.Collected collected, Trace trace)
    {
    }

    /**
     * Runs one series; with {@link EngineOptions#issueLateness()} a Server series keeps its issue times, as the
     * engine does.
     */
    Result run(final TestSettings requested, final long qslTotal, final long qslPerformance,
        final TestMode seriesMode, final SystemUnderTest sut)
    {
        return run(requested, qslTotal, qslPerformance, seriesMode, sut, 0);
    }

    /**
     * @param warmupMs SyLT warm-up queries at the target rate before the measured ones (Server), 0 for none.
     */
    Result run(final TestSettings requested, final long qslTotal, final long qslPerformance,
        final TestMode seriesMode, final SystemUnderTest sut, final long warmupMs)
    {
        final EffectiveSettings settings = new EffectiveSettings(requested, qslTotal, qslPerformance);
        final long count = seriesMode == TestMode.ACCURACY_ONLY ? settings.accuracySampleCount
            : settings.performanceSampleCount;
        final List<LoadableSet> sets = LoadableSets.generate(count, qslTotal, settings.performanceSampleCount,
            settings.scenario, settings.samplesPerQuery, settings.qslRngSeed);
        final Trace trace = QueryGenerator.generate(settings, sets.get(0), seriesMode, sequence,
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
        try (Trace warmupTrace = warmupMs > 0 ? WarmupQueries.generate(settings, sets.get(0), warmupMs * 1_000_000L,
                sequence, OffHeapAllocator.arena()) : null;
            SeriesRecorder warmup = warmupTrace == null ? null : new SeriesRecorder(warmupTrace, false, errors, null,
                null, false, OffHeapAllocator.arena());
            SeriesRecorder recorder = new SeriesRecorder(trace, settings.useTokenLatencies, errors, null, null,
                options.issueLateness(), OffHeapAllocator.arena()))
        {
            final IssueOutcome outcome = loop.run(trace, recorder, settings, seriesMode, sut, sink, warmup);
            final SeriesLatencies.Collected collected = SeriesLatencies.collect(trace, recorder,
                outcome.queriesIssued(), outcome.samplesIssued(), outcome.lastQuery(),
                outcome.lastIssuedRelativeNs(), settings.useTokenLatencies, errors,
                SeriesLatencies.COUNTED_FROM_SAMPLES);
            // Copy what the tests read before the slots are freed.
            final long[] sorted = new long[(int)collected.result().sampleLatencies().count()];
            for (int i = 0; i < sorted.length; i++)
            {
                sorted[i] = collected.result().sampleLatencies().get(i);
            }
            final var r = collected.result();
            final SeriesLatencies.Collected copy = new SeriesLatencies.Collected(
                new org.jloadgen.record.PerformanceResult(
                    org.jloadgen.record.SortedLatencies.sortInPlace(sorted), r.queryLatencies(), r.queriesIssued(),
                    r.maxLatencySeconds(), r.finalQueryScheduledTimeSeconds(), r.finalQueryIssuedTimeSeconds(),
                    r.finalQueryAllSamplesDoneSeconds(), r.firstTokenLatencies(), r.timePerOutputTokens(),
                    r.tokenCount()),
                collected.missingSamples(), collected.firstMissingId(), collected.maxCompletionRelativeNs(),
                collected.failedSamples(), collected.firstFailedId());
            return new Result(outcome, copy, trace);
        }
    }
}
