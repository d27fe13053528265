package org.jloadgen.api;

/**
 * How the issue thread waits for a Server query's scheduled time. LoadGen sleeps in the kernel
 * ({@link #SLEEP}), which adds tens of microseconds of wake-up jitter to every latency; JLoadGen spins by
 * default and can trade CPU for jitter.
 */
public enum ServerWaitStrategy
{
    /** Busy-spin on the clock: lowest jitter, one core fully used. */
    SPIN,
    /** {@link Thread#yield()} between clock reads: lets another thread run on a busy core. */
    YIELD,
    /** Park until the deadline, like LoadGen's {@code sleep_until}: least CPU, most jitter. */
    SLEEP,
    /** Park until shortly before the deadline, then spin: little CPU, low jitter. */
    HYBRID
}
