package org.jloadgen.bindings;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs test code on a new platform thread that ends with it: affinity, timer slack and scheduling policy belong to one
 * kernel thread, so a test that changes them must not change the test runner's thread.
 */
final class FreshThread
{
    private FreshThread()
    {
    }

    /**
     * Runs the body on a new thread, waits for it, and rethrows what it threw.
     *
     * @param name the thread's name.
     * @param body the test code.
     */
    static void run(final String name, final ThrowingRunnable body) throws Exception
    {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread thread = Thread.ofPlatform().name(name).start(() ->
        {
            try
            {
                body.run();
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        });
        thread.join();
        if (failure.get() instanceof final Error error)
        {
            throw error;
        }
        if (failure.get() instanceof final Exception ex)
        {
            throw ex;
        }
    }

    /**
     * Test code that may throw.
     */
    @FunctionalInterface
    interface ThrowingRunnable
    {
        /**
         * @throws Exception anything.
         */
        void run() throws Exception;
    }
}
