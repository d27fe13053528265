package org.jloadgen.log;

import java.io.Flushable;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jloadgen.bindings.ThreadScheduling;

/**
 * One daemon thread, {@value #THREAD_NAME}, that flushes open log writers every {@value #INTERVAL_MS} ms, so that
 * a process that dies (a crash in native code, SIGKILL, the OOM killer) leaves its logs on disk up to its last
 * second instead of up to its last full buffer. The flush is the log side's work: the threads that write records
 * only fill a buffer, and nothing here runs on the issue or completion threads.
 * <p>
 * Flushing hands the bytes to the operating system, which keeps them when the process dies; it does not
 * {@code fsync} (a power loss is not what this guards against, and a sync every second would cost the run).
 */
public final class PeriodicFlush
{
    /** Longest time a logged record stays in a writer's buffer. */
    public static final long INTERVAL_MS = 1_000;
    /** The flushing thread's name. */
    public static final String THREAD_NAME = "jloadgen-log-flush";

    private static final ScheduledExecutorService FLUSHER = Executors.newSingleThreadScheduledExecutor(task ->
    {
        // SCHED_IDLE like the other log threads: a flush must not take a CPU from the issue or SUT threads.
        final Thread t = new Thread(() ->
        {
            ThreadScheduling.tryRunOnlyWhenIdle();
            task.run();
        }, THREAD_NAME);
        t.setDaemon(true);
        return t;
    });

    private PeriodicFlush()
    {
    }

    /**
     * Flushes {@code writer} every {@value #INTERVAL_MS} ms until the returned handle is closed. The writer must
     * allow a flush from another thread while it is written to (a {@code BufferedWriter} does: it locks).
     *
     * @param writer  what to flush.
     * @param onError told once, on the flushing thread, if a flush fails; flushing then stops (the writer's owner
     *                meets the same error at its next write or at close and reports it there).
     * @return closing it stops the flushes (and waits for one in progress).
     */
    public static Handle every(final Flushable writer, final Consumer<IOException> onError)
    {
        final Handle handle = new Handle(writer, onError);
        synchronized (handle)
        {
            handle.future = FLUSHER.scheduleWithFixedDelay(handle, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
        }
        return handle;
    }

    /**
     * The periodic flush of one writer.
     */
    public static final class Handle implements Runnable, AutoCloseable
    {
        private final Flushable writer;
        private final Consumer<IOException> onError;
        private ScheduledFuture<?> future;
        private boolean closed;

        private Handle(final Flushable writer, final Consumer<IOException> onError)
        {
            this.writer = writer;
            this.onError = onError;
        }

        /**
         * One flush; the flushing thread only.
         */
        @Override
        public synchronized void run()
        {
            if (closed)
            {
                return;
            }
            try
            {
                writer.flush();
            }
            catch (final IOException ex)
            {
                closed = true;
                future.cancel(false);
                onError.accept(ex);
            }
        }

        /**
         * Stops the flushes; returns after a flush in progress.
         */
        @Override
        public synchronized void close()
        {
            closed = true;
            future.cancel(false);
        }
    }
}
