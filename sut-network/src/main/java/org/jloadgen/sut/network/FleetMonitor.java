package org.jloadgen.sut.network;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.api.ResponseSink;

/**
 * Watches the servers of a network SUT and applies its {@link FailurePolicy}. Under {@code on-error=fail} (LoadGen's)
 * it fails the run once, clearly: the first failed request (or a request unanswered for the time limit, found by a
 * watchdog thread) goes to the engine's {@link ResponseSink#fail} with the server's name, what it answered and how
 * many samples were lost on it; later failures are only counted. The engine then stops issuing and ends the run
 * INVALID instead of waiting for samples that will not complete. Under {@code on-error=count} each failed request
 * goes to the engine as a failed sample ({@link ResponseSink#failSample}) and the run goes on; a request unanswered
 * for the time limit is failed alone and its exchange cancelled. Either way failures are counted by cause, with the
 * first message of each cause, and a request may be sent again up to {@code retries} times first.
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
    private final FailurePolicy policy;
    /** Failures and retries by cause ({@code HTTP 429}, {@code UNAVAILABLE}...); a new cause allocates its entry. */
    private final ConcurrentHashMap<String, CauseCount> causes = new ConcurrentHashMap<>();
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
        this(members, timeoutMs, threadName, FailurePolicy.FAIL);
    }

    /**
     * Starts the watchdog.
     *
     * @param members    the servers.
     * @param timeoutMs  how long a request may stay unanswered.
     * @param threadName the watchdog thread's name.
     * @param policy     what a failed request does.
     */
    public FleetMonitor(final List<? extends Member> members, final long timeoutMs, final String threadName,
        final FailurePolicy policy)
    {
        this.members = List.copyOf(members);
        this.timeoutMs = timeoutMs;
        this.policy = policy;
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
     * @return the failure policy.
     */
    public FailurePolicy policy()
    {
        return policy;
    }

    /**
     * Whether a failed request is sent again: it has had fewer than {@code retries} retries and the run has not
     * failed. Counts the retry under its cause. Transport threads.
     *
     * @param retriesSoFar the request's retries so far.
     * @param cause        the failure's cause, e.g. {@code HTTP 429}.
     * @return whether to send it again.
     */
    public boolean retry(final int retriesSoFar, final String cause)
    {
        if (retriesSoFar >= policy.retries() || failed.get())
        {
            return false;
        }
        causes.computeIfAbsent(cause, CauseCount::new).retried.incrementAndGet();
        return true;
    }

    /**
     * Counts a failed request under its cause; under {@code on-error=count} the engine hears of it as a failed
     * sample and the run goes on, else the run fails if this is the first failure. Transport threads.
     *
     * @param member     the server.
     * @param cause      the failure's cause, short, for counting: {@code HTTP 429}, {@code UNAVAILABLE}...
     * @param reason     what it answered or did.
     * @param responseId the sample's response id.
     */
    public void requestFailed(final Member member, final String cause, final String reason, final long responseId)
    {
        member.pool().failed();
        final CauseCount count = causes.computeIfAbsent(cause, CauseCount::new);
        count.failed.incrementAndGet();
        if (count.first == null)
        {
            count.first = member.describe() + " " + reason;
        }
        if (policy.count())
        {
            final ResponseSink s = sink;
            if (s != null)
            {
                s.failSample(responseId);
            }
            return;
        }
        // This request is counted as failed already; the server's other requests in flight are lost with it.
        report(member, reason, member.pool().inFlight() + 1);
    }

    /**
     * @return one line per failure cause, most frequent first, e.g. {@code HTTP 429: 3 failed, 2 retried (first:
     *         server http://h:8000 answered HTTP 429: rate limited)}; empty when nothing failed or was retried.
     */
    public List<String> describeCauses()
    {
        final List<CauseCount> all = new ArrayList<>(causes.values());
        all.sort(Comparator.comparingLong((final CauseCount c) -> -c.failed.get() - c.retried.get())
            .thenComparing(c -> c.cause));
        final List<String> lines = new ArrayList<>();
        for (final CauseCount c : all)
        {
            lines.add(c.cause + ": " + c.failed.get() + " failed" + (c.retried.get() > 0 ? ", " + c.retried.get()
                + " retried" : "") + (c.first != null ? " (first: " + c.first + ")" : ""));
        }
        return lines;
    }

    /**
     * Forgets the failures counted so far (after a warm-up, whose counts are not the run's).
     */
    public void resetCauses()
    {
        causes.clear();
    }

    /**
     * @return failed requests and retries by cause, as one detail-log value: {@code HTTP 429=3 (2 retried), ...}, or
     *         {@code none}.
     */
    public String causesValue()
    {
        final StringBuilder b = new StringBuilder();
        for (final CauseCount c : causes.values().stream().sorted(Comparator.comparing(c -> c.cause)).toList())
        {
            b.append(b.isEmpty() ? "" : ", ").append(c.cause).append('=').append(c.failed.get())
                .append(c.retried.get() > 0 ? " (" + c.retried.get() + " retried)" : "");
        }
        return b.isEmpty() ? "none" : b.toString();
    }

    /**
     * @return requests sent again, over every cause.
     */
    public long retries()
    {
        long n = 0;
        for (final CauseCount c : causes.values())
        {
            n += c.retried.get();
        }
        return n;
    }

    /**
     * @return requests failed, over every server.
     */
    public long failedRequests()
    {
        long n = 0;
        for (final Member m : members)
        {
            n += m.pool().failedCount();
        }
        return n;
    }

    /** One cause's counts. */
    private static final class CauseCount
    {
        final String cause;
        final AtomicLong failed = new AtomicLong();
        final AtomicLong retried = new AtomicLong();
        volatile String first;

        CauseCount(final String cause)
        {
            this.cause = cause;
        }
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
            // A snapshot: requests in flight then may still be answered; the totals after the run say which were.
            final SlotPool<?> pool = member.pool();
            final String message = member.describe() + " failed: " + reason + "; when it failed: " + pool.sent()
                + " sent to it, " + pool.answeredCount() + " answered, " + pool.failedCount() + " failed, "
                + Math.max(0, lost) + " in flight";
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
                if (policy.count() && m.pool().timeOutOlderThan(nowNs, timeoutNs, TIMEOUT_REASON_PREFIX + timeoutMs
                    + " ms (timeout-ms)"))
                {
                    continue;
                }
                if (m.pool().anyOlderThan(nowNs, timeoutNs))
                {
                    report(m, TIMEOUT_REASON_PREFIX + timeoutMs + " ms (timeout-ms)", m.pool().inFlight());
                }
            }
        }
    }

    /** How a request unanswered for {@code timeout-ms} is described; its cause is {@link #TIMEOUT_CAUSE}. */
    public static final String TIMEOUT_REASON_PREFIX = "no answer within ";
    /** The cause a timed-out request is counted under. */
    public static final String TIMEOUT_CAUSE = "timeout";

    /**
     * @param t a failure.
     * @return its message, and its root cause's, in words, without class names: e.g. {@code connection refused} or
     *         {@code HTTP/1.1 header parser received no bytes (connection reset)}.
     */
    public static String describe(final Throwable t)
    {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root)
        {
            root = root.getCause();
        }
        final String self = words(t);
        final String rootWords = words(root);
        return root == t || self.contains(rootWords) ? self : self + " (" + rootWords + ")";
    }

    /**
     * @return a failure's message, or where it has none its kind in words ({@code ClosedChannelException} ->
     *         {@code closed channel}).
     */
    private static String words(final Throwable t)
    {
        if (t.getMessage() != null && !t.getMessage().isBlank())
        {
            return t.getMessage().strip();
        }
        if (t instanceof java.net.ConnectException)
        {
            return "could not connect";
        }
        final String name = t.getClass().getSimpleName().replaceAll("(Exception|Error)$", "");
        return name.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
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
