package org.jloadgen.benchmarks;

import java.util.concurrent.TimeUnit;

import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.issue.TraceQuerySamples;
import org.jloadgen.schedule.Trace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SUT-facing flyweight ({@link TraceQuerySamples}, the {@link QuerySamples} every {@code issueQuery}
 * receives): re-wrapping it for the next query and reading what a SUT reads of each sample (response id, QSL
 * index, loaded position), against the same numbers read from plain heap arrays, which is what a SUT handed a
 * materialised {@code long[]} per query would read at best (without the cost of materialising it). A query is
 * one sample (SingleStream, Server) or eight contiguous ones (MultiStream); queries advance through
 * {@value #QUERIES} of them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class FlyweightBenchmark
{
    /** Queries in the trace (a power of two). */
    static final int QUERIES = 1 << 16;

    /** Samples per query: SingleStream (1) or MultiStream (8). */
    @Param({"SingleStream", "MultiStream"})
    String scenario;

    private Trace trace;
    private TraceQuerySamples flyweight;
    private long[] ids;
    private long[] indices;
    private int[] positions;
    private int samplesPerQuery;
    private int query;

    /**
     * Generates the trace and copies its samples into the heap arrays of the baseline.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final EffectiveSettings settings = Traces.settings(TestScenario.fromLogName(scenario), QUERIES);
        trace = Traces.generate(settings, Traces.loadableSet(settings));
        flyweight = new TraceQuerySamples(trace);
        samplesPerQuery = trace.samplesPerQuery();
        final int samples = (int)trace.sampleCount();
        ids = new long[samples];
        indices = new long[samples];
        positions = new int[samples];
        for (int s = 0; s < samples; s++)
        {
            ids[s] = trace.firstSampleId() + 1 + s;
            indices[s] = trace.sampleIndex(s);
            positions[s] = trace.position(s);
        }
    }

    /**
     * Frees the trace.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        trace.close();
    }

    private int nextQuery()
    {
        final int q = query;
        query = (q + 1) & (QUERIES - 1);
        return q;
    }

    /**
     * @return a checksum of the query's samples read from heap arrays.
     */
    @Benchmark
    public long baselineArrays()
    {
        final int first = nextQuery() * samplesPerQuery;
        long sum = 0;
        for (int i = first, end = first + samplesPerQuery; i < end; i++)
        {
            sum += ids[i] + indices[i] + positions[i];
        }
        return sum;
    }

    /**
     * @return the same checksum read through the re-wrapped flyweight.
     */
    @Benchmark
    public long flyweight()
    {
        final TraceQuerySamples samples = flyweight;
        samples.wrap((long)nextQuery() * samplesPerQuery, samplesPerQuery);
        return read(samples);
    }

    private static long read(final QuerySamples samples)
    {
        long sum = 0;
        for (int i = 0, n = samples.size(); i < n; i++)
        {
            sum += samples.responseId(i) + samples.sampleIndex(i) + samples.loadedPosition(i);
        }
        return sum;
    }
}
