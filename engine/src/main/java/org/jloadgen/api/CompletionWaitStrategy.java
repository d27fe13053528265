package org.jloadgen.api;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How a thread waits for work another thread hands it: the issue thread for completions (SingleStream/MultiStream
 * between queries, every scenario at the end of a series) and the SUT toolkit's workers for samples. {@link #PARK} and
 * {@link #AUTO} need the handing thread's cooperation (it wakes a parked waiter), which the engine's completion path
 * and the toolkit's batcher give; the others are Agrona idle strategies that poll.
 */
public enum CompletionWaitStrategy
{
    /**
     * {@link #SPIN} where a CPU is free for every thread that would spin (the process's CPUs minus one for
     * everything else), else {@link #PARK}.
     */
    AUTO,
    /** Busy-spin: the work is taken within nanoseconds of its hand-off; one core fully used. */
    SPIN,
    /**
     * Spin for a short window, then park until the handing thread wakes the waiter: nothing is used while idle and a
     * busy waiter costs the handing thread one memory read; a parked one is woken in the kernel's wake-up time.
     */
    PARK,
    /** Yield between checks. */
    YIELD,
    /** Spin, then yield, then park with growing timeouts. */
    BACKOFF,
    /** Park 50 µs between checks. */
    SLEEP;

    /**
     * @return whether this strategy needs a wake-up from the thread that hands the work ({@link #PARK}, and
     *         {@link #AUTO}, which may resolve to it).
     */
    public boolean needsWakeUp()
    {
        return this == PARK || this == AUTO;
    }

    /**
     * @return a new idle strategy of this kind.
     * @throws IllegalStateException for {@link #AUTO} and {@link #PARK}, which are not polling strategies: resolve
     *                               {@code AUTO} first and park through the waker's parking lot.
     */
    public IdleStrategy newIdleStrategy()
    {
        return switch (this)
        {
            case SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(100, 10, 1_000, 100_000);
            case SLEEP -> new SleepingIdleStrategy(50_000);
            case AUTO, PARK -> throw new IllegalStateException(this + " is not a polling idle strategy");
        };
    }
}
