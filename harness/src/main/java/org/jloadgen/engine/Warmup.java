package org.jloadgen.engine;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.LatencyIntervalLog;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;
import org.jloadgen.sut.synthetic.NullSut;

/**
 * Runs the engine's own issue and completion code on a throwaway trace against an internal null SUT before a
 * test's first series, so that class initialisation, call-site linkage and JIT compilation happen before the
 * clock starts instead of in the first measured queries. The user's SUT is never called and the test's
 * sequence ids and random draws are untouched (the warm-up has its own generators and sink).
 * <p>
 * What makes it work on two cores, measured with the Offline 3.3M-sample run (JFR compilation and
 * deoptimisation events): the trace is generated once and issued again and again, so the time goes to the
 * issue and completion loops; the completion path records into a histogram whenever the test does, because code
 * compiled without one was deoptimised by the test's first completion; Offline queries span several null-SUT
 * chunks, as the test's do; and after its budget the warm-up goes on while the JIT is still finishing
 * compilations (up to {@value WarmupClock#JIT_WAIT_BUDGETS} budgets in all, {@link WarmupClock}), because at
 * start-up the compiler threads are busy with the CLI's own code and the optimised loops otherwise arrived during
 * the measured run.
 */
final class Warmup
{
    private static final int QUERIES_PER_ROUND = 20_000;
    /** Offline rounds issue more samples than one null-SUT chunk, so the chunk loop is profiled as it runs. */
    private static final int OFFLINE_SAMPLES_PER_ROUND = 2 * NullSut.CHUNK + 1;

    private Warmup()
    {
    }

    /**
     * @param scenario the scenario the test will run.
     * @param options  the test's engine options (wait strategies are kept, the histogram is off).
     * @param budgetMs how long to keep warming up.
     * @return rounds run.
     */
    static int run(final TestScenario scenario, final EngineOptions options, final long budgetMs)
    {
        if (budgetMs <= 0)
        {
            return 0;
        }
        final TestSettings requested = new TestSettings().scenario(scenario).mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(0)
            .minQueryCount(scenario == TestScenario.OFFLINE ? OFFLINE_SAMPLES_PER_ROUND : QUERIES_PER_ROUND)
            .serverTargetQps(1e12).offlineExpectedQps(1).singleStreamExpectedLatencyNs(1)
            .multiStreamExpectedLatencyNs(1).multiStreamSamplesPerQuery(8);
        final EffectiveSettings settings = new EffectiveSettings(requested, 1024, 1024);
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, scenario, settings.samplesPerQuery, 0)
            .get(0);
        final EngineOptions quiet = options.copy().latencyHistogram(false).completionTimeoutMs(1_000);
        final CompletionErrors errors = new CompletionErrors();
        final EngineResponseSink sink = new EngineResponseSink(SeriesRecorder.retired(errors));
        final IssueLoop loop = new IssueLoop(quiet);
        // Completion code compiled without the histogram the test records into would be deoptimised by it.
        final org.HdrHistogram.Recorder histogram = options.latencyHistogram() ? LatencyIntervalLog.newRecorder()
            : null;
        final NullSut sut = new NullSut();
        final SequenceGen sequence = new SequenceGen();
        final WarmupClock clock = new WarmupClock(budgetMs);
        int rounds = 0;
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, sequence,
            QueryGenerator.AccuracyLogSelection.NONE, quiet.allocator());
            SeriesRecorder recorder = new SeriesRecorder(trace, false, errors, null, histogram,
                options.issueLateness(), quiet.allocator()))
        {
            do
            {
                recorder.reset();
                loop.run(trace, recorder, settings, TestMode.PERFORMANCE_ONLY, sut, sink);
                rounds++;
            }
            while (clock.another());
        }
        return rounds;
    }
}
