package org.jloadgen.api;

/**
 * How the issue thread waits for a Server query's scheduled time. LoadGen sleeps in the kernel
 * ({@link #SLEEP}), which adds tens of microseconds of wake-up jitter to every latency; JLoadGen spins where a CPU is
 * free for it ({@link #AUTO}, the default) and can trade CPU for jitter.
 */
public enum ServerWaitStrategy
{
    /**
     * {@link #SPIN} where a CPU is free for the issue thread (the process's CPUs minus one for everything else minus
     * the SUT's registered threads), else {@link #SLEEP}, as LoadGen does: a thread that spins on a CPU it shares
     * leaves whatever else wakes (the kernel's millisecond-long threads) only the other CPU, where the issue thread
     * then waits for it.
     */
    AUTO,
    /** Busy-spin on the clock: lowest jitter, one core fully used. */
    SPIN,
    /** {@link Thread#yield()} between clock reads: lets another thread run on a busy core. */
    YIELD,
    /**
     * Park until the deadline, like LoadGen's {@code sleep_until} (with a 1 ns timer slack): least CPU, most jitter.
     */
    SLEEP,
    /**
     * Park until shortly before the deadline (with a 1 ns timer slack, so the kernel wakes the thread where asked),
     * then spin: the CPU is free between queries, the jitter is that of a spin when the wake-up is in time. The spin
     * window ({@link EngineOptions#hybridSpinNs()}) widens to twice the longest recent wake-up delay. Only on request:
     * {@link #AUTO} spins or sleeps.
     */
    HYBRID
}
