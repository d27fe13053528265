package org.jloadgen.api;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How the issue thread waits for completions (SingleStream/MultiStream between queries, every scenario at the
 * end of a series): Agrona idle strategies, none of which needs the completing thread to wake it.
 */
public enum CompletionWaitStrategy
{
    /** Busy-spin: the next query goes out within nanoseconds of the completion. */
    SPIN,
    /** Yield between checks. */
    YIELD,
    /** Spin, then yield, then park with growing timeouts. */
    BACKOFF,
    /** Park 50 µs between checks. */
    SLEEP;

    /**
     * @return a new idle strategy of this kind.
     */
    public IdleStrategy newIdleStrategy()
    {
        return switch (this)
        {
            case SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(100, 10, 1_000, 100_000);
            case SLEEP -> new SleepingIdleStrategy(50_000);
        };
    }
}
