package org.jloadgen.benchmarks;

import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.Trace;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Generating a performance trace before the clock starts, per sample: LoadGen's {@code GenerateQueries} draw for
 * draw (mt19937, libstdc++'s distributions, glibc's {@code log} for Server's exponential gaps, one accuracy-log
 * draw per sample) written into off-heap arrays, including allocating and freeing them. One invocation generates
 * {@value #SAMPLES} samples: SingleStream and Server queries of one sample, MultiStream queries of eight, one
 * Offline query of all of them. This bounds the part of a run's wall time that grows with its length before
 * issuing starts.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class TraceGenerationBenchmark
{
    /** Samples per invocation. */
    static final int SAMPLES = 1 << 20;

    /** The scenario. */
    @Param({"SingleStream", "MultiStream", "Server", "Offline"})
    String scenario;

    private EffectiveSettings settings;
    private LoadableSet set;

    /**
     * Settings for a series of {@value #SAMPLES} samples.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final TestScenario s = TestScenario.fromLogName(scenario);
        settings = Traces.settings(s, s == TestScenario.MULTI_STREAM ? SAMPLES / 8 : SAMPLES);
        set = Traces.loadableSet(settings);
    }

    /**
     * @param blackhole receives the trace's size before it is freed.
     */
    @Benchmark
    @OperationsPerInvocation(SAMPLES)
    public void generate(final Blackhole blackhole)
    {
        try (Trace trace = Traces.generate(settings, set))
        {
            blackhole.consume(trace.sampleCount());
            blackhole.consume(trace.durationNs());
        }
    }
}
