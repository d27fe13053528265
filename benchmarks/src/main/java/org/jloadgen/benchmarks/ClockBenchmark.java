package org.jloadgen.benchmarks;

import java.util.concurrent.TimeUnit;

import org.jloadgen.bindings.JvmFlags;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The measurer's own cost (JMH's {@code NanoTimerBench} idea): the engine takes one {@code System.nanoTime()} per
 * completion call and per issued query, so the clock is the floor of every latency it reports. DESIGN.md quotes
 * about 25 ns on the development machine. {@code currentTimeMillis} (the detail log's power timestamps) and an
 * empty method are the comparisons.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class ClockBenchmark
{
    /**
     * An empty benchmark: JMH's own per-invocation floor.
     */
    @Benchmark
    public void baseline()
    {
    }

    /**
     * @return {@code System.nanoTime()}.
     */
    @Benchmark
    public long nanoTime()
    {
        return System.nanoTime();
    }

    /**
     * @return {@code System.currentTimeMillis()}.
     */
    @Benchmark
    public long currentTimeMillis()
    {
        return System.currentTimeMillis();
    }
}
