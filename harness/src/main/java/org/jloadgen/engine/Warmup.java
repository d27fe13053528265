package org.jloadgen.engine;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;
import org.jloadgen.sut.synthetic.NullSut;

/**
 * Runs the engine's own issue and completion code on throwaway traces against an internal null SUT before a
 * test's first series, so that class initialisation, call-site linkage and JIT compilation happen before the
 * clock starts instead of in the first measured queries. The user's SUT is never called and the test's
 * sequence ids and random draws are untouched (the warm-up has its own generators and sink).
 */
final class Warmup
{
    private static final int QUERIES_PER_ROUND = 20_000;

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
            .minDurationMs(0).minQueryCount(QUERIES_PER_ROUND)
            .serverTargetQps(1e12).offlineExpectedQps(1).singleStreamExpectedLatencyNs(1)
            .multiStreamExpectedLatencyNs(1).multiStreamSamplesPerQuery(8);
        final EffectiveSettings settings = new EffectiveSettings(requested, 1024, 1024);
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, scenario, settings.samplesPerQuery, 0)
            .get(0);
        final EngineOptions quiet = options.copy().latencyHistogram(false).completionTimeoutMs(1_000);
        final CompletionErrors errors = new CompletionErrors();
        final EngineResponseSink sink = new EngineResponseSink(SeriesRecorder.retired(errors));
        final IssueLoop loop = new IssueLoop(quiet);
        final NullSut sut = new NullSut();
        final SequenceGen sequence = new SequenceGen();
        final long deadlineNs = System.nanoTime() + budgetMs * 1_000_000L;
        int rounds = 0;
        do
        {
            try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, sequence,
                QueryGenerator.AccuracyLogSelection.NONE, quiet.allocator());
                SeriesRecorder recorder = new SeriesRecorder(trace, false, errors, null, null, false,
                    quiet.allocator()))
            {
                loop.run(trace, recorder, settings, TestMode.PERFORMANCE_ONLY, sut, sink);
            }
            rounds++;
        }
        while (System.nanoTime() - deadlineNs < 0);
        return rounds;
    }
}
