package org.jloadgen.issue;

import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.IssueTimes;
import org.jloadgen.schedule.Trace;

/**
 * When a scenario's next query goes out and how many queries go with it: LoadGen's {@code QueryScheduler<scenario>}
 * specialisations ({@code loadgen/issue_query_controller.cc}) under the one loop of {@link IssueLoop} (LoadGen's
 * {@code IssueQueryController::IssueQueriesInternal}). SingleStream and MultiStream wait for the previous query's
 * completions, Server for each query's scheduled time, Offline for nothing. Issue thread only; nothing here
 * allocates, locks or logs.
 */
abstract class IssuePolicy
{
    private static final long NS_PER_MS = 1_000_000L;
    /** What {@link #awaitTurn} returns when the series stopped while it waited (its outcome says why). */
    static final long STOPPED = Long.MIN_VALUE;

    final IssueLoop loop;
    final NanoClock clock;

    IssuePolicy(final IssueLoop loop, final NanoClock clock)
    {
        this.loop = loop;
        this.clock = clock;
    }

    /**
     * @param scenario the test's scenario.
     * @param loop     the issue loop (its abort flag, stops and Server deadline wait).
     * @param clock    the engine's clock.
     * @param wait     how a Server series waits for each query's time.
     * @param timeoutNs a SUT that completes nothing for this long is silent.
     * @return the scenario's policy.
     */
    static IssuePolicy of(final TestScenario scenario, final IssueLoop loop, final NanoClock clock,
        final ServerWaitStrategy wait, final long timeoutNs)
    {
        return switch (scenario)
        {
            case SINGLE_STREAM, MULTI_STREAM -> new Sequential(loop, clock);
            case SERVER -> new Server(loop, clock, wait, timeoutNs);
            case OFFLINE -> new Offline(loop, clock);
        };
    }

    /**
     * LoadGen's end conditions after a query: {@code min_query_count} and the target duration reached (not Server),
     * too many samples in flight (Server), {@code max_query_count}, {@code max_duration}, an abort.
     *
     * @return whether the series ended (its outcome says why).
     */
    final boolean ended(final Series series, final long queriesIssued, final long relativeNs)
    {
        final EffectiveSettings settings = series.settings;
        final IssueOutcome outcome = series.outcome;
        if (endsAtTarget() && queriesIssued >= settings.minQueryCount
            && relativeNs >= settings.targetDurationMs * NS_PER_MS)
        {
            IssueLoop.stop(outcome, StopReason.NATURAL, relativeNs);
            return true;
        }
        if (limitsOutstanding() && settings.maxAsyncQueries != 0)
        {
            final long outstanding = queriesIssued - series.recorder.completedSamples();
            if (outstanding > settings.maxAsyncQueries)
            {
                IssueLoop.stop(outcome, StopReason.TOO_MANY_OUTSTANDING, relativeNs);
                outcome.stopArg0 = queriesIssued;
                outcome.stopArg1 = outstanding;
                return true;
            }
        }
        if (settings.maxQueryCount != 0 && queriesIssued >= settings.maxQueryCount)
        {
            IssueLoop.stop(outcome, StopReason.MAX_QUERY_COUNT, relativeNs);
            outcome.stopArg0 = queriesIssued;
            return true;
        }
        final long maxDurationNs = settings.maxDurationMs * NS_PER_MS;
        if (maxDurationNs != 0 && relativeNs > maxDurationNs)
        {
            IssueLoop.stop(outcome, StopReason.MAX_DURATION, relativeNs);
            outcome.stopArg0 = relativeNs;
            return true;
        }
        return loop.stopIfAborted(outcome, relativeNs);
    }

    /**
     * Called once before a series' first query.
     */
    void begin(final Series series)
    {
    }

    /**
     * Waits until query {@code query} may go out.
     *
     * @return the clock reading when it may, or {@link #STOPPED}.
     */
    abstract long awaitTurn(Series series, long query);

    /**
     * @return whether queries of this series may go out together ({@link #queriesDue}); if not, one at a time.
     *         Read once per series, after {@link #begin}.
     */
    boolean groupsQueries()
    {
        return false;
    }

    /**
     * @return how many queries from {@code query} on go out together now (at least one); called only when
     *         {@link #groupsQueries()}.
     */
    int queriesDue(final Series series, final long query, final long nowNs)
    {
        return 1;
    }

    /**
     * @return whether this series records when its queries went out ({@link #recordIssue}). Read once per series,
     *         after {@link #begin}.
     */
    boolean recordsIssue()
    {
        return true;
    }

    /**
     * Records when queries {@code [query, query + count)} went out, before they do; called only when
     * {@link #recordsIssue()}.
     */
    abstract void recordIssue(IssueTimes times, long query, int count, long relativeNs);

    /**
     * @return whether the series ends once {@code min_query_count} and the target duration are reached, and ran out
     *         of queries if it did not (SingleStream, MultiStream, Offline); a Server series ends with its schedule.
     */
    boolean endsAtTarget()
    {
        return true;
    }

    /**
     * @return whether {@code max_async_queries} bounds the samples in flight (Server).
     */
    boolean limitsOutstanding()
    {
        return false;
    }

    /** The next query goes out when the previous one completed. */
    private static final class Sequential extends IssuePolicy
    {
        Sequential(final IssueLoop loop, final NanoClock clock)
        {
            super(loop, clock);
        }

        @Override
        long awaitTurn(final Series series, final long query)
        {
            final IssueOutcome outcome = series.outcome;
            final long issuedSamples = outcome.samplesIssued;
            if (query > 0 && series.recorder.completedSamples() < issuedSamples
                && !series.completions.awaitBetweenQueries(issuedSamples))
            {
                final long relativeNs = clock.nanoTime() - outcome.startNs;
                if (!loop.stopIfAborted(outcome, relativeNs))
                {
                    loop.stopSilent(outcome, relativeNs, issuedSamples - series.recorder.completedSamples());
                }
                return STOPPED;
            }
            return clock.nanoTime();
        }

        @Override
        void recordIssue(final IssueTimes times, final long query, final int count, final long relativeNs)
        {
            times.scheduled(query, relativeNs);
        }
    }

    /** One query with every sample, at once. */
    private static final class Offline extends IssuePolicy
    {
        Offline(final IssueLoop loop, final NanoClock clock)
        {
            super(loop, clock);
        }

        @Override
        long awaitTurn(final Series series, final long query)
        {
            return clock.nanoTime();
        }

        @Override
        boolean recordsIssue()
        {
            return false;
        }

        @Override
        void recordIssue(final IssueTimes times, final long query, final int count, final long relativeNs)
        {
        }
    }

    /**
     * Each query at its scheduled time; a replayed trace's groups go out together, and with
     * {@code server_coalesce_queries} so does every query already due. While it issues it watches the completion
     * timeout: a SUT that stopped completing ends the series now instead of after the whole schedule. That check runs
     * every {@link #SILENCE_CHECK_INTERVAL_NS} on the clock already read: a compare per query and one counter read per
     * interval.
     */
    private static final class Server extends IssuePolicy
    {
        private static final long SILENCE_CHECK_INTERVAL_NS = 100_000_000L;

        private final ServerWaitStrategy wait;
        private final long timeoutNs;
        private Trace trace;
        private boolean replayGroups;
        private boolean coalesce;
        private boolean trackIssue;
        private long silenceCheckNs;
        private long seenCompleted;
        private long lastProgressNs;

        Server(final IssueLoop loop, final NanoClock clock, final ServerWaitStrategy wait, final long timeoutNs)
        {
            super(loop, clock);
            this.wait = wait;
            this.timeoutNs = timeoutNs;
        }

        @Override
        void begin(final Series series)
        {
            trace = series.trace;
            replayGroups = trace.hasContinuations();
            coalesce = series.settings.serverCoalesceQueries;
            trackIssue = series.issueTimes.tracksIssueTimes();
            // The first check runs at the first query, with "progress" seen: every series, the engine's warm-up
            // included, then takes the check's branches once, so the JIT compiles them instead of leaving a trap
            // that deoptimised the issue loop 100 ms into the measured run (-Xlog:deoptimization, unstable_if).
            silenceCheckNs = series.outcome.startNs;
            seenCompleted = -1;
            lastProgressNs = series.outcome.startNs;
        }

        @Override
        long awaitTurn(final Series series, final long query)
        {
            final long startNs = series.outcome.startNs;
            final long deadlineNs = startNs + trace.scheduledOffsetNs(query);
            // The silence check runs before the wait, on the query's scheduled time: after the wait, every
            // instruction up to the SUT's call counts into the query's latency.
            if (deadlineNs - silenceCheckNs >= 0)
            {
                silenceCheckNs = deadlineNs + SILENCE_CHECK_INTERVAL_NS;
                final long done = series.recorder.completedSamples();
                if (done != seenCompleted || done >= query)
                {
                    seenCompleted = done;
                    lastProgressNs = deadlineNs;
                }
                else if (deadlineNs - lastProgressNs > timeoutNs)
                {
                    loop.stopSilent(series.outcome, clock.nanoTime() - startNs, query - done);
                    return STOPPED;
                }
            }
            return loop.deadlineWait().waitUntil(deadlineNs, wait);
        }

        @Override
        boolean groupsQueries()
        {
            return replayGroups || coalesce;
        }

        @Override
        int queriesDue(final Series series, final long query, final long nowNs)
        {
            final long queryCount = trace.queryCount();
            int count = 1;
            if (replayGroups)
            {
                while (query + count < queryCount && trace.continuesPrevious(query + count))
                {
                    count++;
                }
            }
            if (coalesce)
            {
                final long startNs = series.outcome.startNs;
                while (query + count < queryCount && startNs + trace.scheduledOffsetNs(query + count) - nowNs <= 0
                    && count < Integer.MAX_VALUE - 1)
                {
                    count++;
                }
            }
            return count;
        }

        @Override
        boolean recordsIssue()
        {
            return trackIssue;
        }

        @Override
        void recordIssue(final IssueTimes times, final long query, final int count, final long relativeNs)
        {
            times.issued(query, count, relativeNs);
        }

        @Override
        boolean endsAtTarget()
        {
            return false;
        }

        @Override
        boolean limitsOutstanding()
        {
            return true;
        }
    }
}
