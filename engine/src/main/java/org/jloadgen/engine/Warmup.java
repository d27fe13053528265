package org.jloadgen.engine;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.api.WarmupSuts;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.concurrent.ParkingLot;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.issue.IssueWaits;
import org.jloadgen.record.RetiredTarget;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.LatencyIntervalLog;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;

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
 * chunks, as the test's do; and after its budget the warm-up goes on until its rounds stop getting faster or the
 * JIT finishes no compilation for a while (up to {@value WarmupClock#JIT_WAIT_BUDGETS} budgets in all,
 * {@link WarmupClock}), because at start-up the compiler threads are busy with the CLI's own code and the
 * optimised loops otherwise arrived during the measured run.
 * <p>
 * What it added for a SUT that completes from a worker thread, measured with the {@code null-worker} Server run
 * ({@code -Xlog:deoptimization}): the test's first queries deoptimised the issue loop three ways, and for a while it
 * ran interpreted and then in profiling C1 code, with millisecond lateness: the SUT call site had seen only the null
 * SUT's class, the park branch of the Server wait had never been taken (every warm-up query was due at once), and
 * the toolkit's hand-off had never run. So the warm-up rotates three SUTs of different classes (the inline null SUT,
 * one completing sample by sample, and the toolkit's one-worker null SUT), which makes the issue loop's SUT call
 * site megamorphic before the test's SUT class arrives; issues a paced Server trace every few rounds, so that the
 * Server wait's loop and its park branch are profiled (a spinning wait whose loop the warm-up never entered was
 * deoptimised by the measured run's first query); runs with the waits the test will run (its {@code AUTO}
 * resolved first, the warm-up's own worker registered with a private CPU budget); and writes interval histograms
 * when the test will, so that the {@code .hlog} writer is compiled too. The parking lot's race outcomes, which no
 * warm-up round can be sure to meet, are taken on purpose first ({@link ParkingLot#exerciseRareOutcomes}).
 */
final class Warmup
{
    private static final int QUERIES_PER_ROUND = 20_000;
    /** Without the toolkit's null SUTs, Offline rounds issue this many samples. */
    private static final int OFFLINE_SAMPLES_WITHOUT_TOOLKIT = 2 * 1024 + 1;
    /** The paced Server trace: about half of its gaps are longer than the default hybrid spin window. */
    private static final double PACED_QPS = 20_000;
    private static final int PACED_QUERIES = 1_000;
    /** Every this many rounds, a Server warm-up whose wait parks issues the paced trace. */
    private static final int PACED_EVERY = 4;
    /** Times the parking lot's race outcomes are taken, so that C2 compiles them instead of trapping. */
    private static final int RARE_OUTCOME_ROUNDS = 20_000;
    /** A {@code max_duration_ms} no warm-up round reaches (its nanoseconds still fit a long). */
    private static final long UNREACHED_MS = Long.MAX_VALUE / 1_000_000L;
    /** Interval histograms the .hlog writer's warm-up writes. */
    private static final int HLOG_INTERVALS = 30;

    private Warmup()
    {
    }

    /**
     * @param test     the test's settings: its scenario, and which of LoadGen's end conditions it has.
     * @param options  the test's engine options (wait strategies are kept, the histogram is off).
     * @param budgetMs how long to keep warming up, at least ({@link WarmupClock}).
     * @param testSut  the test's SUT, only to compare its class with the warm-up's own inline SUT's ({@code null}:
     *                 unknown); it is never called.
     * @param keepsIssueTimes whether the test's series keep issue times per query (a Chrome trace, Server's
     *                 issue-lateness log): the warm-up's recorders do too, so that they take the test's branches (a
     *                 SingleStream recorder without them keeps latencies in its slots, {@code SeriesRecorder}).
     * @return what ran.
     */
    static Warmed run(final EffectiveSettings test, final EngineOptions options, final long budgetMs,
        final SystemUnderTest testSut, final boolean keepsIssueTimes)
    {
        return run(test, options, budgetMs, testSut, keepsIssueTimes, null);
    }

    /**
     * @param test     the test's settings: its scenario, and which of LoadGen's end conditions it has.
     * @param options  the test's engine options (wait strategies are kept, the histogram is off).
     * @param budgetMs how long to keep warming up, at least ({@link WarmupClock}).
     * @param testSut  the test's SUT, only to compare its class with the warm-up's own inline SUT's ({@code null}:
     *                 unknown); it is never called.
     * @param keepsIssueTimes whether the test's series keep issue times per query.
     * @param prepare  work for the test done inside the budget before the rounds, or {@code null}; not run when the
     *                 warm-up is off. Its time, like that of the warm-up's own work before its rounds (the
     *                 {@code .hlog} writer's warm-up, the parking lot's rare outcomes), counts towards the budget,
     *                 down to half of it ({@link WarmupClock#afterPreparation}).
     * @return what ran.
     */
    static Warmed run(final EffectiveSettings test, final EngineOptions options, final long budgetMs,
        final SystemUnderTest testSut, final boolean keepsIssueTimes, final Runnable prepare)
    {
        if (budgetMs <= 0)
        {
            return Warmed.NONE;
        }
        final long warmupStartNs = System.nanoTime();
        final TestScenario scenario = test.scenario;
        final WarmupSuts provided = WarmupSuts.installed();
        final TestSettings requested = endConditionsOf(test, new TestSettings().scenario(scenario)
            .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(0)
            .minQueryCount(scenario == TestScenario.OFFLINE ? offlineSamplesPerRound(provided) : QUERIES_PER_ROUND)
            .serverTargetQps(1e12).offlineExpectedQps(1).singleStreamExpectedLatencyNs(1)
            .multiStreamExpectedLatencyNs(1).multiStreamSamplesPerQuery(8));
        final EffectiveSettings settings = new EffectiveSettings(requested, 1024, 1024);
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, scenario, settings.samplesPerQuery, 0)
            .get(0);
        final IssueWaits waits = IssueWaits.resolve(options, scenario == TestScenario.SERVER ? test.targetQps : 0);
        final CpuBudget privateBudget = new CpuBudget(options.cpuBudget().cpus());
        final EngineOptions quiet = options.copy().latencyHistogram(false).completionTimeoutMs(1_000)
            .serverWait(waits.server()).hybridSpinNs(waits.server() == ServerWaitStrategy.HYBRID ? waits.hybridMinNs()
                : options.hybridSpinNs()).completionWait(waits.completion()).cpuBudget(privateBudget);
        final CompletionErrors errors = new CompletionErrors();
        final EngineResponseSink sink = new EngineResponseSink(new RetiredTarget(errors));
        final IssueLoop loop = new IssueLoop(quiet);
        // Completion code compiled without the histogram the test records into would be deoptimised by it.
        final org.HdrHistogram.Recorder histogram = options.latencyHistogram() ? LatencyIntervalLog.newRecorder()
            : null;
        if (options.latencyHistogram())
        {
            LatencyIntervalLog.warmUpWriter(HLOG_INTERVALS);
        }
        // Every Server wait, spinning ones too: a wait whose loop the warm-up never entered (every query due at once)
        // was deoptimised by the measured run's first query.
        final boolean paced = scenario == TestScenario.SERVER;
        final EffectiveSettings pacedSettings = paced ? pacedSettings(test) : null;
        final SequenceGen sequence = new SequenceGen();
        int rounds = 0;
        // A test whose trace is generated while it runs takes a branch of the issue loop to the filling thread's
        // progress, and its completions read the accuracy-log selection from the generation: the warm-up's trace has
        // the same shape, or the test's first query and completion sprang the traps C2 left there
        // (-Xlog:jit+compilation, uncommon trap).
        final long minStreamedQueries = !options.generateAhead() && QueryGenerator.streams(test,
            TestMode.PERFORMANCE_ONLY) ? 0 : Long.MAX_VALUE;
        // A test of the warm-up's own inline SUT runs no worker: worker rounds would only keep C2 busy with the
        // toolkit's hand-off, and the inline loops the test runs arrived later (an Offline 3.3M-sample null-SUT
        // process: its rounds at their compiled speed after 0.25-0.35 s without worker rounds, 0.9-1.0 s with them).
        final SystemUnderTest inline = provided == null ? null : provided.inlineSut();
        final boolean inlineTest = provided != null && testSut != null && testSut.getClass() == inline.getClass();
        final boolean workerRounds = provided != null && !inlineTest;
        if (!inlineTest)
        {
            // Only a test whose completions may come from another thread parks in a ParkingLot: the inline null SUT's
            // does not (these rounds were 30 ms of a 1.2 s SingleStream null-SUT process, async-profiler).
            ParkingLot.exerciseRareOutcomes(RARE_OUTCOME_ROUNDS);
        }
        long preparedNs = -1;
        if (prepare != null)
        {
            final long prepareStartNs = System.nanoTime();
            prepare.run();
            preparedNs = System.nanoTime() - prepareStartNs;
        }
        SystemUnderTest worker = workerRounds ? provided.workerSut(privateBudget) : null;
        final long beforeRoundsNs = System.nanoTime() - warmupStartNs;
        final WarmupClock clock = WarmupClock.afterPreparation(budgetMs, beforeRoundsNs);
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, sequence,
                QueryGenerator.AccuracyLogSelection.NONE, quiet.allocator(), minStreamedQueries);
            SeriesRecorder recorder = new SeriesRecorder(trace, false, errors, null, histogram, keepsIssueTimes,
                quiet.allocator());
            Trace pacedTrace = paced ? pacedTrace(pacedSettings, set, sequence, quiet) : null;
            SeriesRecorder pacedRecorder = paced ? new SeriesRecorder(pacedTrace, false, errors, null, histogram,
                keepsIssueTimes, quiet.allocator()) : null)
        {
            final SystemUnderTest[] suts = provided == null ? new SystemUnderTest[] {new SampleBySampleSut()}
                : workerRounds ? new SystemUnderTest[] {inline, new SampleBySampleSut(), worker}
                : new SystemUnderTest[] {inline, new SampleBySampleSut()};
            boolean another;
            do
            {
                final SystemUnderTest sut = suts[rounds % suts.length];
                if (paced && rounds % PACED_EVERY == 1)
                {
                    pacedRecorder.reset();
                    loop.run(pacedTrace, pacedRecorder, pacedSettings, TestMode.PERFORMANCE_ONLY, sut, sink);
                    // Its time is the schedule's.
                    another = clock.another();
                }
                else
                {
                    final long roundStartNs = System.nanoTime();
                    recorder.reset();
                    loop.run(trace, recorder, settings, TestMode.PERFORMANCE_ONLY, sut, sink);
                    another = clock.another(rounds % suts.length, System.nanoTime() - roundStartNs);
                }
                if (sut == worker)
                {
                    // A worker's loop ends when its SUT closes, so each worker round closes its SUT and the next opens
                    // a new one: the loop's exit is then compiled in (once it sprang the trap C2 had left there, the
                    // next rounds run the recompiled loop), and the test's worker enters compiled code. With one
                    // worker for the whole warm-up, its close at the end sprang the trap and threw away the compiled
                    // loop the test's worker was about to run (OSR, unstable_if): the test's first 35 ms ran in the
                    // interpreter and C1.
                    closeQuietly(worker);
                    worker = provided.workerSut(privateBudget);
                    suts[rounds % suts.length] = worker;
                }
                rounds++;
            }
            while (another);
        }
        finally
        {
            closeQuietly(worker);
        }
        return new Warmed(rounds, clock.elapsedNs() / 1_000_000L, clock.ending(), workerRounds,
            beforeRoundsNs / 1_000_000L, preparedNs < 0 ? -1 : preparedNs / 1_000_000L);
    }

    /**
     * What a warm-up ran, for the detail log ({@code jloadgen_warmup}).
     *
     * @param rounds       rounds run.
     * @param elapsedMs    how long.
     * @param ending       why it ended ({@code null} when it did not run).
     * @param workerRounds whether rounds with a worker SUT ran.
     * @param beforeRoundsMs how long the work before the rounds took, the test's first trace included.
     * @param traceMs      how long the test's first trace took to generate ({@code prepare}), or -1 when it was not.
     */
    record Warmed(int rounds, long elapsedMs, WarmupClock.Ending ending, boolean workerRounds, long beforeRoundsMs,
        long traceMs)
    {
        static final Warmed NONE = new Warmed(0, 0, null, false, 0, -1);

        /**
         * @return e.g. {@code 412 ms, 1234 rounds, no worker rounds (the test's SUT is the warm-up's inline null SUT);
         *         ended: its rounds settled (...); before its rounds, 118 ms (the test's first trace generated in
         *         58 ms)}.
         */
        String describe()
        {
            return elapsedMs + " ms, " + rounds + " rounds, " + (workerRounds ? "with worker rounds"
                : "no worker rounds (the test's SUT is the warm-up's inline null SUT, or no worker SUT is installed)")
                + "; ended: " + ending.reason() + "; before its rounds, " + beforeRoundsMs + " ms"
                + (traceMs < 0 ? "" : " (the test's first trace generated in " + traceMs + " ms)");
        }
    }

    private static int offlineSamplesPerRound(final WarmupSuts provided)
    {
        // More samples than two of the null SUT's completion chunks, so its chunk loop is profiled as it runs.
        return provided == null ? OFFLINE_SAMPLES_WITHOUT_TOOLKIT : 2 * provided.inlineChunk() + 1;
    }

    private static void closeQuietly(final SystemUnderTest sut)
    {
        if (sut instanceof AutoCloseable closeable)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("the warm-up's worker SUT failed to close: " + ex.getMessage(), ex);
            }
        }
    }

    private static EffectiveSettings pacedSettings(final EffectiveSettings test)
    {
        return new EffectiveSettings(endConditionsOf(test, new TestSettings().scenario(TestScenario.SERVER)
            .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(0).minQueryCount(PACED_QUERIES)
            .serverTargetQps(PACED_QPS)), 1024, 1024);
    }

    private static Trace pacedTrace(final EffectiveSettings paced, final LoadableSet set, final SequenceGen sequence,
        final EngineOptions options)
    {
        return QueryGenerator.generate(paced, set, TestMode.PERFORMANCE_ONLY, sequence,
            QueryGenerator.AccuracyLogSelection.NONE, options.allocator());
    }

    /**
     * Gives the warm-up's settings the test's end conditions, set or not, at limits no warm-up round reaches: each
     * condition is a branch of the issue loop's end check ({@code IssuePolicy.ended}), and a branch the warm-up never
     * took was compiled as a trap that the test's first query sprang (with {@code max_duration_ms} set, the issue loop
     * then ran as profiled C1 code for most of a 5 s Server run; -Xlog:deoptimization, unstable_if).
     */
    static TestSettings endConditionsOf(final EffectiveSettings test, final TestSettings warmup)
    {
        return warmup.maxDurationMs(test.maxDurationMs != 0 ? UNREACHED_MS : 0)
            .maxQueryCount(test.maxQueryCount != 0 ? Long.MAX_VALUE : 0)
            .serverMaxAsyncQueries(test.maxAsyncQueries != 0 && test.scenario == TestScenario.SERVER
                ? Long.MAX_VALUE : 0);
    }

    /**
     * A third inline SUT class, completing sample by sample: with the inline null SUT and the worker SUT it makes the
     * issue loop's SUT call site megamorphic, so that the test's own SUT class does not deoptimise it.
     */
    private static final class SampleBySampleSut implements SystemUnderTest
    {
        @Override
        public String name()
        {
            return "WarmupSampleBySampleSUT";
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            for (int i = 0, n = samples.size(); i < n; i++)
            {
                sink.complete(samples.responseId(i));
            }
        }

        @Override
        public void flushQueries()
        {
        }
    }
}
