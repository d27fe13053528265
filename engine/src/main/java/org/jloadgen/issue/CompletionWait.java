package org.jloadgen.issue;

import java.util.function.BooleanSupplier;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.concurrent.ParkingIdleStrategy;
import org.jloadgen.concurrent.ParkingLot;
import org.jloadgen.record.SeriesRecorder;

/**
 * The issue thread's wait for one series' completions: before the next SingleStream or MultiStream query
 * (LoadGen's {@code QueryScheduler<SingleStream>::Wait}, which waits for the previous query,
 * {@code loadgen/issue_query_controller.cc}) and for the last completions after the last query. It spins, polls or
 * parks in the recorder's {@link ParkingLot}, which the completing thread wakes ({@code PARK}); the drain after the
 * last query always parks, because no latency depends on how soon it notices the last completions (they carry their
 * own timestamps) and it must not take a CPU from the SUT's threads meanwhile. Issue thread only; a wait allocates
 * nothing (the target it re-checks before it parks is mutable and reused).
 */
final class CompletionWait implements BooleanSupplier
{
    /** Longest single park while waiting for completions: how late a timeout or deadline is noticed at worst. */
    private static final long MAX_PARK_NS = 50_000_000L;

    private final SeriesRecorder recorder;
    private final IssueLoop loop;
    private final NanoClock clock;
    private final long timeoutNs;
    /** How the issue thread waits between queries (SingleStream, MultiStream). */
    private final IdleStrategy betweenQueries;
    /** How it waits after the last query: parked until a completion wakes it. */
    private final IdleStrategy drain;
    private long targetSamples;
    private boolean stopOnAbort;

    /**
     * @param recorder   the series' completion slots, whose parking lot the completing thread wakes.
     * @param loop       the issue loop, whose abort ends a wait that stops on abort.
     * @param clock      the engine's clock.
     * @param strategy   how to wait between queries (resolved: not {@code AUTO}).
     * @param parkSpinNs how long PARK spins before it parks.
     * @param timeoutNs  a wait gives up when no completion arrived for this long.
     */
    CompletionWait(final SeriesRecorder recorder, final IssueLoop loop, final NanoClock clock,
        final CompletionWaitStrategy strategy, final long parkSpinNs, final long timeoutNs)
    {
        this.recorder = recorder;
        this.loop = loop;
        this.clock = clock;
        this.timeoutNs = timeoutNs;
        this.betweenQueries = strategy == CompletionWaitStrategy.PARK
            ? new ParkingIdleStrategy(recorder.completionWaiter(), 0, parkSpinNs, MAX_PARK_NS, this)
            : strategy.newIdleStrategy();
        this.drain = new ParkingIdleStrategy(recorder.completionWaiter(), 0, 0, MAX_PARK_NS, this);
    }

    /**
     * @return the series' recorder.
     */
    SeriesRecorder recorder()
    {
        return recorder;
    }

    /**
     * Waits, between queries, until {@code target} samples have completed.
     *
     * @return whether they did: false when no completion arrived for the timeout, or the test was aborted.
     */
    boolean awaitBetweenQueries(final long target)
    {
        return await(target, betweenQueries, 0, false, true);
    }

    /**
     * Waits, after the last query, until {@code target} samples have completed.
     *
     * @param target     the samples issued.
     * @param deadlineNs when to give up (a clock reading), if {@code bounded}.
     * @param bounded    whether the deadline applies (a failed, silent or aborted series gets a grace period).
     * @param stopOnAbort whether an abort ends the wait.
     * @return whether they did.
     */
    boolean drain(final long target, final long deadlineNs, final boolean bounded, final boolean stopOnAbort)
    {
        return await(target, drain, deadlineNs, bounded, stopOnAbort);
    }

    /**
     * What a parked issue thread re-checks before it parks: the completions reached the number it waits for, or the
     * test was aborted.
     */
    @Override
    public boolean getAsBoolean()
    {
        return recorder.completedSamplesVolatile() >= targetSamples || stopOnAbort && loop.abortRequested();
    }

    private boolean await(final long target, final IdleStrategy idle, final long deadlineNs, final boolean bounded,
        final boolean stopOnAbort)
    {
        long seen = recorder.completedSamples();
        if (seen >= target)
        {
            return true;
        }
        this.targetSamples = target;
        this.stopOnAbort = stopOnAbort;
        idle.reset();
        long lastProgressNs = clock.nanoTime();
        while (true)
        {
            idle.idle();
            final long done = recorder.completedSamples();
            if (done >= target)
            {
                return true;
            }
            final long nowNs = clock.nanoTime();
            if (done != seen)
            {
                seen = done;
                lastProgressNs = nowNs;
                idle.reset();
            }
            else if (nowNs - lastProgressNs > timeoutNs)
            {
                return false;
            }
            if (bounded && nowNs - deadlineNs > 0)
            {
                return false;
            }
            if (stopOnAbort && loop.abortRequested())
            {
                return false;
            }
        }
    }
}
