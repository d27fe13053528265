package org.jloadgen.benchmarks;

import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.results.EarlyStopping;
import org.jloadgen.record.SortedLatencies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * SingleStream early stopping after a run of {@code queries} queries, as {@code PerformanceSummary} runs it once per
 * run: LoadGen's loop over i = 2.. at p = 0.9 (one finder call per i, about Q / 10 calls) and again at the
 * hard-coded p = 0.99. 5.7M queries is a 10 s run of a 1.7 µs SUT, 71M a 10 s run with the null SUT. One invocation
 * is one whole evaluation on a fresh finder (its cache lives only for that call, as LoadGen's does), so the score
 * is wall time per evaluation in single-shot mode; LoadGen's own series would cost minutes at 71M.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class EarlyStoppingBenchmark
{
    /** Queries issued (and latencies recorded). */
    @Param({"5730734", "20000000", "71000000"})
    long queries;

    private SortedLatencies latencies;

    /**
     * Latencies of rank i = i ns: the evaluation reads only their count and two ranks, so no 71M-entry array.
     */
    @Setup
    public void setUp()
    {
        final long count = queries;
        latencies = new SortedLatencies()
        {
            @Override
            public long count()
            {
                return count;
            }

            @Override
            public long get(final long i)
            {
                return i;
            }

            @Override
            public long sum()
            {
                return count * (count - 1) / 2;
            }
        };
    }

    /**
     * @return the evaluation's outcome (its two estimates and recommendation).
     */
    @Benchmark
    public EarlyStopping.Result singleStream()
    {
        return EarlyStopping.evaluate(TestScenario.SINGLE_STREAM, 0.9, queries, latencies, latencies, 0, 0, 0);
    }
}
