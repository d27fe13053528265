package org.jloadgen.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.IssueLoop;
import org.jloadgen.issue.IssueOutcome;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.record.RetiredTarget;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.Trace;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.sut.synthetic.NullWorkerSut;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue-to-completion through the real engine: one invocation is a whole series of {@value #QUERIES} queries run
 * by {@link IssueLoop#run} exactly as a test runs it (the flyweight, the SUT call, the response sink, the
 * completion slots, the wait for completions), so the score is the engine's cost per query.
 * <ul>
 * <li>{@code SingleStream}: a query is issued when the previous one completed, so the score is the round trip
 * (issue → complete → observe → issue). Inline its floor is two clock reads; with a worker it is a cross-core
 * hand-off each way (compare {@link PingPongBenchmark}).</li>
 * <li>{@code Server} with every query already due: issue throughput, completions overlapping issue.</li>
 * </ul>
 * {@code sut=null} completes inline on the issue thread; {@code sut=null-worker} is the SUT toolkit's batching SUT
 * with one worker thread (busy-spinning, so on two cores it needs the second core to itself).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class DispatchBenchmark
{
    /** Queries per invocation. */
    static final int QUERIES = 100_000;

    /** The scenario, which decides when the next query goes out. */
    @Param({"SingleStream", "Server"})
    String scenario;

    /** Who completes: inline on the issue thread, or one worker thread. */
    @Param({"null", "null-worker"})
    String sut;

    private EffectiveSettings settings;
    private Trace trace;
    private SeriesRecorder recorder;
    private EngineResponseSink sink;
    private IssueLoop loop;
    private SutInstance worker;
    private SystemUnderTest target;

    /**
     * Generates the trace once and builds the engine pieces a test builds, histogram off.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        settings = Traces.settings(TestScenario.fromLogName(scenario), QUERIES);
        trace = Traces.generate(settings, Traces.loadableSet(settings));
        final CompletionErrors errors = new CompletionErrors();
        recorder = new SeriesRecorder(trace, false, errors, null, null, false, OffHeapAllocator.arena());
        sink = new EngineResponseSink(new RetiredTarget(errors));
        // Explicit busy-spin waits on both sides, as the figures in benchmarks/README.md were measured (AUTO would park
        // the issue thread for a worker SUT on two cores).
        loop = new IssueLoop(new EngineOptions().latencyHistogram(false).completionTimeoutMs(10_000)
            .serverWait(ServerWaitStrategy.SPIN).completionWait(CompletionWaitStrategy.SPIN));
        if (sut.equals(NullWorkerSut.NAME))
        {
            worker = new BuiltinSutProviders.NullWorker().create(new SutContext(settings.scenario,
                Map.of("wait", "spin"), Traces.QSL_SAMPLES, Traces.QSL_SAMPLES));
            target = worker.sut();
        }
        else
        {
            target = new NullSut();
        }
    }

    /**
     * Every sample pending again before each series (not timed).
     */
    @Setup(Level.Invocation)
    public void resetSlots()
    {
        recorder.reset();
    }

    /**
     * Stops the worker and frees the trace.
     *
     * @throws Exception if the SUT fails to close.
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        if (worker != null)
        {
            worker.close();
        }
        recorder.close();
        trace.close();
    }

    /**
     * @return the series' outcome; every query of it completed.
     */
    @Benchmark
    @OperationsPerInvocation(QUERIES)
    public IssueOutcome series()
    {
        final IssueOutcome outcome = loop.run(trace, recorder, settings, TestMode.PERFORMANCE_ONLY, target, sink);
        if (!outcome.allCompleted())
        {
            throw new IllegalStateException("a series did not complete: " + outcome.stopMessage());
        }
        return outcome;
    }
}
