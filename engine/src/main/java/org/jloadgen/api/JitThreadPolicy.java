package org.jloadgen.api;

/**
 * What the JVM's JIT compiler threads may take from the measured threads while a series runs. A compilation that
 * starts while the clock runs (a class of the SUT, a log thread's code reaching C2, a deoptimised method compiled
 * again) holds a CPU for milliseconds at the ordinary policy, and a woken issue or worker thread waits for it: on two
 * CPUs that was the Server worker case's millisecond tail (benchmarks/README.md, "Where the worker case's tail came
 * from"). At {@code SCHED_IDLE} a compilation still runs, on CPU time no measured thread wants, and a waking thread
 * takes the CPU from it at once.
 */
public enum JitThreadPolicy
{
    /**
     * {@link #IDLE} for the measured series of the latency-bound scenarios (Server, SingleStream, MultiStream) where
     * the process may put the threads back afterwards (a process without {@code CAP_SYS_NICE} and with an
     * {@code RLIMIT_NICE} below 20 may lower a thread's policy but not raise it again), else {@link #NORMAL}: an
     * Offline SUT keeps every CPU busy by design, and a compilation it still needs must not starve. Under the official
     * LoadGen ({@code --engine official}) for Server only: under the others LoadGen runs the Java path back to back
     * while it is still being compiled.
     */
    AUTO,
    /** {@code SCHED_IDLE} while each measured series runs, {@code SCHED_OTHER} again after it where allowed. */
    IDLE,
    /** Left as the JVM made them. */
    NORMAL
}
