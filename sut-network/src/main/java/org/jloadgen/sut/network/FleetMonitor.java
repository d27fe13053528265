package org.jloadgen.sut.network;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jloadgen.api.ResponseSink;

/**
 * Watches the servers of a network SUT and fails the run once, clearly: the first failed request (or a request
 * unanswered for the time limit, found by a watchdog thread) goes to the engine's {@link ResponseSink#fail} with
 * the server's name, what it answered and how many samples were lost on it; later failures are only counted. The
 * engine then stops issuing and ends the run INVALID instead of waiting for samples that will not complete.
 */
public final class FleetMonitor implements AutoCloseable
{
    /**
     * One server as the monitor sees it.
     */
    public interface Member
    {
        /**
         * @return e.g. {@code node 'node-a' (10.0.0.2:8001)} or {@code server http://10.0.0.2:8000}.
         */
        String describe();

        /**
         * @return its request slots and counters.
         */
        SlotPool<?> pool();
    }

    private final List<? extends Member> members;
    private final long timeoutMs;
    private final AtomicBoolean failed = new AtomicBoolean();
    private final Thread watchdog;
    private volatile ResponseSink sink;
    private volatile String failure;
    private volatile boolean closed;

    /**
     * Starts the watchdog.
     *
     * @param members    the servers.
     * @param timeoutMs  how long a request may stay unanswered.
     * @param threadName the watchdog thread's name.
     */
    public FleetMonitor(final List<? extends Member> members, final long timeoutMs, final String threadName)
    {
        this.members = List.copyOf(members);
        this.timeoutMs = timeoutMs;
        this.watchdog = new Thread(this::watch, threadName);
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * @param value the engine's sink, from {@code issueQuery}.
     */
    public void sink(final ResponseSink value)
    {
        if (sink != value)
        {
            sink = value;
            final String earlier = failure;
            if (earlier != null)
            {
                // A server failed before the run began (a stream that closed): the engine hears of it now.
                value.fail(new ServerFailureException(earlier));
            }
        }
    }

    /**
     * @return the engine's sink.
     */
    public ResponseSink sink()
    {
        return sink;
    }

    /**
     * @return the first failure's message, or {@code null} while all is well.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * Counts a failed request and fails the run if it is the first failure. Transport threads.
     *
     * @param member the server.
     * @param reason what it answered or did.
     */
    public void requestFailed(final Member member, final String reason)
    {
        member.pool().failed();
        // This request is counted as failed already; the server's other requests in flight are lost with it.
        report(member, reason, member.pool().inFlight() + 1);
    }

    /**
     * Fails the run if this is the first failure, without counting a failed request: the server broke something
     * shared (a stream), and every request in flight on it is lost.
     *
     * @param member the server.
     * @param reason what happened.
     */
    public void serverFailed(final Member member, final String reason)
    {
        report(member, reason, member.pool().inFlight());
    }

    private void report(final Member member, final String reason, final long lost)
    {
        if (failed.compareAndSet(false, true))
        {
            final SlotPool<?> pool = member.pool();
            final String message = member.describe() + " failed: " + reason + "; " + lost + " sample"
                + (lost == 1 ? "" : "s") + " in flight on it lost (" + pool.sent() + " sent to it, "
                + pool.answeredCount() + " answered)";
            failure = message;
            final ResponseSink s = sink;
            if (s != null)
            {
                s.fail(new ServerFailureException(message));
            }
        }
    }

    /**
     * @param notSent samples the engine issued after the failure, which were not sent.
     * @return one line of totals that add up with the engine's counts: issued = sent + not sent, and the samples
     *         that never completed = failed + in flight + not sent; e.g.
     *         {@code 43 samples issued: 42 sent, 34 answered, 8 failed, 0 in flight, 1 not sent (issued after the
     *         failure)}.
     */
    public String describeTotals(final long notSent)
    {
        long sent = 0;
        long answered = 0;
        long failedRequests = 0;
        for (final Member m : members)
        {
            sent += m.pool().sent();
            answered += m.pool().answeredCount();
            failedRequests += m.pool().failedCount();
        }
        return (sent + notSent) + " samples issued: " + sent + " sent, " + answered + " answered, " + failedRequests
            + " failed, " + (sent - answered - failedRequests) + " in flight" + (notSent > 0 ? ", " + notSent
            + " not sent (issued after the failure)" : "");
    }

    /**
     * @return one line per server: sent, answered, failed.
     */
    public String describeMembers()
    {
        final StringBuilder b = new StringBuilder();
        for (final Member m : members)
        {
            b.append(b.isEmpty() ? "" : "\n").append(m.describe()).append(": ").append(m.pool().describeCounts());
        }
        return b.toString();
    }

    private void watch()
    {
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final long periodMs = Math.max(1, Math.min(100, timeoutMs / 4));
        while (!closed && !failed.get())
        {
            try
            {
                Thread.sleep(periodMs);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            final long nowNs = System.nanoTime();
            for (final Member m : members)
            {
                if (m.pool().anyOlderThan(nowNs, timeoutNs))
                {
                    report(m, "no answer within " + timeoutMs + " ms (timeout-ms)", m.pool().inFlight());
                }
            }
        }
    }

    /**
     * @param t a failure.
     * @return its class and message, and its root cause's.
     */
    public static String describe(final Throwable t)
    {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root)
        {
            root = root.getCause();
        }
        final String self = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        return root == t ? self : self + " (" + root.getClass().getSimpleName()
            + (root.getMessage() == null ? "" : ": " + root.getMessage()) + ")";
    }

    /**
     * Stops the watchdog.
     */
    @Override
    public void close()
    {
        closed = true;
        watchdog.interrupt();
    }

    /**
     * A server failed: the message names it and what was lost.
     */
    public static final class ServerFailureException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        ServerFailureException(final String message)
        {
            super(message, null, false, false);
        }

        /**
         * @return the message alone: the user reads what failed, not a class name.
         */
        @Override
        public String toString()
        {
            return getMessage();
        }
    }
}
