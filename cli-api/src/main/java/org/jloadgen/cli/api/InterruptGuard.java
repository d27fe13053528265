package org.jloadgen.cli.api;

import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Makes Ctrl-C (SIGINT) or SIGTERM end a test cleanly: the signal aborts the test (the engine stops issuing, the
 * SUT drops its queue, the samples in flight get a short grace period, the logs are written and say why), and the
 * JVM's shutdown is held until the command has finished what it prints, so the summary and the line naming the
 * interrupt always reach the console. Use it around the test and everything printed after it:
 * <pre>{@code
 * InterruptGuard guard = InterruptGuard.install(runner::abort);
 * try {
 *     report(runner.run());
 * } finally {
 *     guard.close();
 * }
 * }</pre>
 * The JVM then exits with the signal's status (130 for SIGINT, 143 for SIGTERM). The hold is bounded by
 * {@value #HOLD_MS} ms, so a command that hangs after an interrupt still ends.
 * <p>
 * A shutdown hook, not a signal handler: Java has no supported API that names the signal, so the reason says
 * "SIGINT or SIGTERM".
 */
public final class InterruptGuard implements AutoCloseable
{
    /** The reason the engine is given, as the summary shows it after "aborted: ". */
    public static final String REASON = "interrupted by a signal (SIGINT or SIGTERM)";
    /** Longest time the JVM's shutdown waits for the command to finish after a signal. */
    public static final long HOLD_MS = 10_000;

    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean interrupted;
    private volatile Consumer<String> abort;

    private InterruptGuard()
    {
        this.hook = new Thread(() ->
        {
            interrupted = true;
            final Consumer<String> target = abort;
            if (target != null)
            {
                target.accept(REASON);
            }
            try
            {
                done.await(HOLD_MS, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "jloadgen-interrupt");
    }

    /**
     * Installs the guard.
     *
     * @param abort called once, on the shutdown hook's thread, with {@link #REASON} when a signal arrives (e.g.
     *              {@code TestRunner::abort}); must return promptly.
     * @return the guard; close it when the command has printed everything.
     */
    public static InterruptGuard install(final Consumer<String> abort)
    {
        final InterruptGuard guard = install();
        guard.abortWith(abort);
        return guard;
    }

    /**
     * Installs a guard with nothing to abort yet, for a command that runs several tests in turn
     * ({@link #abortWith}).
     *
     * @return the guard; close it when the command has printed everything.
     */
    public static InterruptGuard install()
    {
        final InterruptGuard guard = new InterruptGuard();
        Runtime.getRuntime().addShutdownHook(guard.hook);
        return guard;
    }

    /**
     * Makes a signal abort this test from now on; if a signal already arrived, aborts it at once.
     *
     * @param target called with {@link #REASON}, e.g. {@code TestRunner::abort}; must return promptly and may be
     *               called twice.
     */
    public void abortWith(final Consumer<String> target)
    {
        abort = Objects.requireNonNull(target, "target");
        if (interrupted)
        {
            target.accept(REASON);
        }
    }

    /**
     * @return whether a signal arrived while the guard was installed (the test was aborted; the JVM exits once the
     *         guard is closed).
     */
    public boolean interrupted()
    {
        return interrupted;
    }

    /**
     * Lets a shutdown in progress finish (the console streams are flushed first) or, without a signal, removes the
     * hook.
     */
    @Override
    public void close()
    {
        System.out.flush();
        System.err.flush();
        done.countDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // Shutting down: the hook is running and ends now that the latch is open.
        }
    }
}
