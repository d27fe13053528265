package org.jloadgen.issue;

/**
 * The spin window of the {@code HYBRID} Server wait, fitted to how late this machine wakes a parked thread. The issue
 * thread parks until {@code window} before a query's scheduled time and spins the rest; a park that ends later than
 * asked (the kernel's wake-up time: an idle virtual CPU's exit, a busy CPU's scheduler) eats into the window, and one
 * that overshoots it makes the query late. So the window is twice the longest recent overshoot, never below the
 * configured window ({@code --hybrid-spin-ns}) and never above {@value #MAX_WIDENING} times it (a late wake-up caused
 * by a busy CPU is not cured by spinning longer, which would only make the CPU busier); the longest overshoot
 * decays by 1/1024 per query (half-life about 700 queries, 70 ms at 10k QPS), so one stall widens the window for a
 * while and then lets it shrink back even when the wide window leaves no gap long enough to park in. Issue thread
 * only; nothing here allocates.
 */
final class HybridWindow
{
    /** The window widens to at most this many times the configured window. */
    static final int MAX_WIDENING = 4;
    private static final int DECAY_SHIFT = 10;

    private long minWindowNs;
    private long maxWindowNs;
    private long longestOvershootNs;
    private long windowNs;

    /**
     * Starts a run with the narrowest window and no overshoot seen.
     *
     * @param minNs the spin window to start with, and the narrowest.
     * @param maxNs the widest the window may widen to.
     */
    void reset(final long minNs, final long maxNs)
    {
        minWindowNs = Math.max(0, minNs);
        maxWindowNs = Math.max(minWindowNs, maxNs);
        longestOvershootNs = 0;
        windowNs = minWindowNs;
    }

    /**
     * @param configuredNs the configured spin window.
     * @return the widest window it may widen to.
     */
    static long maxWindowNs(final long configuredNs)
    {
        return MAX_WIDENING * Math.max(0, configuredNs);
    }

    /**
     * @return the spin window to use now.
     */
    long windowNs()
    {
        return windowNs;
    }

    /**
     * Ages the longest overshoot by one query. Called once per query waited for.
     */
    void decay()
    {
        if (longestOvershootNs > 0)
        {
            longestOvershootNs -= longestOvershootNs >> DECAY_SHIFT;
            windowNs = Math.min(maxWindowNs, Math.max(minWindowNs, 2 * longestOvershootNs));
        }
    }

    /**
     * Records how much later than asked a park ended.
     *
     * @param overshootNs wake-up time minus the time the park was asked to end (negative: early).
     */
    void woke(final long overshootNs)
    {
        if (overshootNs > longestOvershootNs)
        {
            longestOvershootNs = overshootNs;
            windowNs = Math.min(maxWindowNs, Math.max(minWindowNs, 2 * longestOvershootNs));
        }
    }
}
