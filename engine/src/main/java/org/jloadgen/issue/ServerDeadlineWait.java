package org.jloadgen.issue;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.ServerWaitStrategy;

/**
 * The Server issue thread's wait for a query's scheduled time: LoadGen's
 * {@code QueryScheduler<TestScenario::Server>::Wait} ({@code loadgen/issue_query_controller.cc}), which sleeps with
 * {@code std::this_thread::sleep_until}, with the strategies of {@link ServerWaitStrategy}. HYBRID parks until
 * shortly before the deadline and spins the rest; its spin window ({@link HybridWindow}) is fitted to this
 * machine's wake-ups and reset once per run, so SyLT's warm-up queries and the measured ones after them share it.
 * Issue thread only; allocates nothing.
 */
final class ServerDeadlineWait
{
    private final NanoClock clock;
    private final HybridWindow hybridWindow = new HybridWindow();

    /**
     * @param clock the engine's clock.
     */
    ServerDeadlineWait(final NanoClock clock)
    {
        this.clock = clock;
    }

    /**
     * Starts a run: the HYBRID window starts at {@code minNs} and widens to {@code maxNs} at most.
     */
    void reset(final long minNs, final long maxNs)
    {
        hybridWindow.reset(minNs, maxNs);
    }

    /**
     * Waits until {@code deadlineNs} with the given strategy.
     *
     * @param deadlineNs a {@code clock.nanoTime()} reading.
     * @param strategy   how to wait.
     * @return the clock reading after the wait (at or after the deadline).
     */
    long waitUntil(final long deadlineNs, final ServerWaitStrategy strategy)
    {
        if (strategy == ServerWaitStrategy.HYBRID)
        {
            hybridWindow.decay();
        }
        long nowNs = clock.nanoTime();
        while (deadlineNs - nowNs > 0)
        {
            switch (strategy)
            {
                case SPIN -> Thread.onSpinWait();
                case YIELD -> Thread.yield();
                case SLEEP -> LockSupport.parkNanos(deadlineNs - nowNs);
                case HYBRID ->
                {
                    final long remainingNs = deadlineNs - nowNs;
                    final long windowNs = hybridWindow.windowNs();
                    if (remainingNs > windowNs)
                    {
                        final long wakeAtNs = deadlineNs - windowNs;
                        LockSupport.parkNanos(remainingNs - windowNs);
                        nowNs = clock.nanoTime();
                        hybridWindow.woke(nowNs - wakeAtNs);
                        continue;
                    }
                    Thread.onSpinWait();
                }
                default -> throw new IllegalStateException("unknown wait strategy " + strategy);
            }
            nowNs = clock.nanoTime();
        }
        return nowNs;
    }
}
