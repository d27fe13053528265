package org.jloadgen.engine.official;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jloadgen.bindings.LoadGenBridge;

/**
 * The completion timeout under the official LoadGen, as under JLoadGen's engine ({@code --completion-timeout-ms}):
 * when samples are outstanding and none has completed for that long, the SUT has stopped and the test fails (LoadGen
 * itself would wait forever). Polls the bridge's counters from its own daemon thread, a few times per timeout.
 */
final class CompletionWatchdog implements AutoCloseable
{
    private static final long MAX_POLL_MS = 1_000;
    private static final long MIN_POLL_MS = 5;

    private final long timeoutMs;
    private final FailureLog failures;
    private final Thread thread;
    private volatile boolean stopped;

    /**
     * Starts watching.
     *
     * @param timeoutMs time without a completion, while samples are outstanding, after which the test fails.
     * @param failures  where the failure goes.
     */
    CompletionWatchdog(final long timeoutMs, final FailureLog failures)
    {
        this.timeoutMs = timeoutMs;
        this.failures = failures;
        this.thread = Thread.ofPlatform().name("jloadgen-completion-watchdog").daemon().start(this::watch);
    }

    private void watch()
    {
        final long pollNs = TimeUnit.MILLISECONDS.toNanos(Math.clamp(timeoutMs / 10, MIN_POLL_MS, MAX_POLL_MS));
        long lastCompleted = -1;
        long sinceNs = System.nanoTime();
        while (!stopped)
        {
            LockSupport.parkNanos(pollNs);
            final LoadGenBridge.Progress progress = LoadGenBridge.progress();
            final long nowNs = System.nanoTime();
            if (progress.failed())
            {
                return;
            }
            if (progress.outstanding() == 0 || progress.completed() != lastCompleted)
            {
                lastCompleted = progress.completed();
                sinceNs = nowNs;
                continue;
            }
            final long silentMs = TimeUnit.NANOSECONDS.toMillis(nowNs - sinceNs);
            if (silentMs >= timeoutMs)
            {
                failures.fail("no sample completed for " + silentMs + " ms while " + progress.outstanding()
                    + " samples were outstanding (--completion-timeout-ms " + timeoutMs + "): the SUT stopped", null);
                return;
            }
        }
    }

    @Override
    public void close()
    {
        stopped = true;
        LockSupport.unpark(thread);
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
