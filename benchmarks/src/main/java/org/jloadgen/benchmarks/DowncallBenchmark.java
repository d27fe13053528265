package org.jloadgen.benchmarks;

import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

import org.jloadgen.bindings.FfmBaseline;
import org.jloadgen.bindings.JniBaseline;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.bindings.internal.JlgNative;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one call into {@code libjlg_native.so}: the same C function ({@code value + 1}) through a critical FFM
 * downcall ({@code Linker.Option.critical}: no thread-state transition, what the bindings use for short calls),
 * an ordinary FFM downcall, and JNI, against the same work in Java.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class DowncallBenchmark
{
    /** The same function without {@code Linker.Option.critical}: the transition to native and back is paid. */
    private static final MethodHandle NON_CRITICAL = Linker.nativeLinker().downcallHandle(
        JlgNative.jlg_baseline_increment$address(), JlgNative.jlg_baseline_increment$descriptor());

    private long value = 41;

    /**
     * @return the increment done in Java: the floor of the other two.
     */
    @Benchmark
    public long baseline()
    {
        return value + 1;
    }

    /**
     * @return the increment done in C through FFM ({@code Linker.Option.critical}).
     */
    @Benchmark
    public long ffmCritical()
    {
        return FfmBaseline.increment(value);
    }

    /**
     * @return the increment done in C through an ordinary (non-critical) FFM downcall.
     * @throws Throwable never (the handle's signature matches).
     */
    @Benchmark
    public long ffmNonCritical() throws Throwable
    {
        return (long)NON_CRITICAL.invokeExact(value);
    }

    /**
     * @return the increment done in C through JNI.
     */
    @Benchmark
    public long jni()
    {
        return JniBaseline.increment(value);
    }
}
