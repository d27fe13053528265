package org.jloadgen.issue;

import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.IssueTimes;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.Trace;

/**
 * What issuing one series takes, built before the clock starts: its queries, where they complete, how the issue
 * thread waits for those completions, and what happened.
 */
final class Series
{
    final Trace trace;
    final SeriesRecorder recorder;
    final IssueTimes issueTimes;
    final EffectiveSettings settings;
    /** An accuracy series issues every query: LoadGen's end conditions are for performance series. */
    final boolean accuracy;
    /** False for SyLT's warm-up queries, which issue every query too. */
    final boolean measured;
    final SystemUnderTest sut;
    final EngineResponseSink sink;
    final TraceQuerySamples samples;
    final IssueOutcome outcome = new IssueOutcome();
    final CompletionWait completions;

    Series(final Trace trace, final SeriesRecorder recorder, final EffectiveSettings settings, final boolean accuracy,
        final boolean measured, final SystemUnderTest sut, final EngineResponseSink sink,
        final CompletionWait completions)
    {
        this.trace = trace;
        this.recorder = recorder;
        this.issueTimes = recorder.issueTimes();
        this.settings = settings;
        this.accuracy = accuracy;
        this.measured = measured;
        this.sut = sut;
        this.sink = sink;
        this.samples = new TraceQuerySamples(trace);
        this.completions = completions;
    }

    /**
     * @return whether LoadGen's end conditions apply: a measured performance series.
     */
    boolean endChecks()
    {
        return !accuracy && measured;
    }
}
