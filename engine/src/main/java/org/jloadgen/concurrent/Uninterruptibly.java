package org.jloadgen.concurrent;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Waits for work another thread does on the engine's behalf (after a series, where the results need it) without
 * giving up when interrupted: the interrupt is kept for the caller to see afterwards.
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
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return task.get();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
                catch (final ExecutionException ex)
                {
                    throw new IllegalStateException(what + " failed: " + ex.getCause(), ex.getCause());
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
