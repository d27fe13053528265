package org.jloadgen.concurrent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Waits for work other threads do on the engine's behalf (the trace's filling thread, the threads that fault memory
 * in, the searches beside a series' results) without giving up when interrupted: the engine needs that work done
 * before it goes on, and the interrupt is kept for the caller to see afterwards. Not for the timed path.
 */
public final class Uninterruptibly
{
    private Uninterruptibly()
    {
    }

    /**
     * @param task what to wait for.
     * @param what what it does, for the message if it failed ("early stopping's search").
     * @param <T>  its result.
     * @return its result.
     * @throws IllegalStateException if it threw; the cause is what it threw.
     */
    public static <T> T get(final Future<T> task, final String what)
    {
        return wait(() ->
        {
            try
            {
                return task.get();
            }
            catch (final ExecutionException ex)
            {
                throw new IllegalStateException(what + " failed: " + ex.getCause(), ex.getCause());
            }
        });
    }

    /**
     * @param latch what to wait for: until it counts down to zero.
     */
    public static void await(final CountDownLatch latch)
    {
        wait(() ->
        {
            latch.await();
            return null;
        });
    }

    /**
     * @param thread what to wait for: until it has ended.
     */
    public static void join(final Thread thread)
    {
        wait(() ->
        {
            thread.join();
            return null;
        });
    }

    /** A wait that an interrupt may cut short. */
    @FunctionalInterface
    private interface Wait<T>
    {
        T run() throws InterruptedException;
    }

    private static <T> T wait(final Wait<T> wait)
    {
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return wait.run();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
