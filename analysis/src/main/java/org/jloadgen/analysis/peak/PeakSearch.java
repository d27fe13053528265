package org.jloadgen.analysis.peak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SyLT's search for the highest target QPS a system sustains under its latency bound, with the noise of real runs
 * in mind. From a start QPS it brackets the boundary with single runs (multiplying the target by {@code step} while
 * runs pass, dividing while they fail), then bisects between the highest passing and the lowest failing target
 * until they are within {@code resolution} of each other. Near the boundary a target passes only when every one
 * of its {@code repeats} runs is VALID (the repeats stop at the first INVALID run), and the final peak must have
 * passed all its repeats; a bracketing target that fails its confirmation becomes the new upper bound and the
 * search goes on below it. The answer is the highest target that passed in every repeat, the lowest target that
 * failed, and the pass rate of every target tried.
 * <p>
 * {@link #stop} ends the search after the current run (any thread); every finished run is kept.
 */
public final class PeakSearch
{
    /**
     * What bounds the search.
     *
     * @param minQps     never probe below this target (the search gives up there).
     * @param maxQps     never probe above this target ({@code Infinity} for no limit).
     * @param resolution stop bisecting when {@code (fail - pass) <= resolution * pass} (e.g. 0.01).
     * @param repeats    runs a target needs, all VALID, to pass near the boundary (at least 1).
     * @param step       bracketing factor (above 1; 2 doubles and halves).
     * @param maxRuns    most runs in all.
     */
    public record Limits(double minQps, double maxQps, double resolution, int repeats, double step, int maxRuns)
    {
        /**
         * @throws IllegalArgumentException naming the bad limit.
         */
        public Limits
        {
            if (!(minQps > 0) || !(maxQps >= minQps))
            {
                throw new IllegalArgumentException("need 0 < --min-qps <= --max-qps; got " + minQps + " and " + maxQps);
            }
            if (!(resolution > 0 && resolution < 1))
            {
                throw new IllegalArgumentException("--resolution must be between 0 and 1 (0.01 = 1%), got "
                    + resolution);
            }
            if (repeats < 1)
            {
                throw new IllegalArgumentException("--repeats must be at least 1, got " + repeats);
            }
            if (!(step > 1) || Double.isInfinite(step))
            {
                throw new IllegalArgumentException("--step must be a number above 1, got " + step);
            }
            if (maxRuns < 1)
            {
                throw new IllegalArgumentException("--max-runs must be at least 1, got " + maxRuns);
            }
        }
    }

    /**
     * Runs the engine at a target.
     */
    public interface Prober
    {
        /**
         * @param number    run number in the search, from 1.
         * @param targetQps the target.
         * @param repeat    repeat at this target, from 1.
         * @return the run.
         * @throws IllegalArgumentException when this target cannot be judged (the search ends with the message).
         */
        ProbeRun run(int number, double targetQps, int repeat);
    }

    /**
     * Hears about every finished run (to rewrite the report and print progress).
     */
    public interface Listener
    {
        /**
         * @param run  the run just finished.
         * @param runs every run so far, in order.
         */
        void finished(ProbeRun run, List<ProbeRun> runs);
    }

    /** How a search ended. */
    public enum Status
    {
        /** Still going (a report written between runs). */
        RUNNING("running"),
        /** Bisected to the resolution and the peak passed all its repeats. */
        FOUND("found"),
        /** Every target up to the maximum passed: the peak is at least the maximum. */
        ABOVE_MAX("every target up to --max-qps passed"),
        /** No target down to the minimum passed. */
        NONE_PASSED("no target down to --min-qps passed"),
        /** The user stopped it. */
        STOPPED("stopped"),
        /** It ran the most runs allowed. */
        RUN_LIMIT("reached --max-runs"),
        /** A target could not be judged (the message says why). */
        UNJUDGEABLE("a target could not be judged");

        private final String text;

        Status(final String text)
        {
            this.text = text;
        }

        /**
         * @return a few words for the report.
         */
        public String text()
        {
            return text;
        }
    }

    /**
     * What was found at one target.
     *
     * @param targetQps the target.
     * @param runs      counted runs.
     * @param passes    VALID runs.
     */
    public record Point(double targetQps, int runs, int passes)
    {
        /**
         * @return whether any run failed.
         */
        public boolean failed()
        {
            return passes < runs;
        }

        /**
         * @return passes / runs.
         */
        public double passRate()
        {
            return runs == 0 ? 0 : (double)passes / runs;
        }
    }

    /**
     * The answer.
     *
     * @param status      how the search ended.
     * @param message     more words on it (why it stopped, what a user can do), or empty.
     * @param peakQps     the highest target that passed in every one of its {@code repeats} runs and lies below
     *                    every failing target; NaN if none.
     * @param failQps     the lowest target that failed; NaN if none.
     * @param repeats     the repeats a target needed.
     * @param runs        every run in order (aborted ones included, not counted).
     * @param points      every target tried, ascending, with its pass rate.
     */
    public record Result(Status status, String message, double peakQps, double failQps, int repeats,
        List<ProbeRun> runs, List<Point> points)
    {
        /**
         * Sums up runs: the pass rate of every target, the lowest failing target and the peak.
         *
         * @param status  how the search ended (or {@link Status#RUNNING}).
         * @param message more words on it, or empty.
         * @param repeats runs a target needs to pass.
         * @param runs    the runs in order.
         * @return the result.
         */
        public static Result of(final Status status, final String message, final int repeats,
            final List<ProbeRun> runs)
        {
            final TreeMap<Double, int[]> counts = new TreeMap<>();
            for (final ProbeRun r : runs)
            {
                final int[] c = counts.computeIfAbsent(r.targetQps(), q -> new int[2]);
                if (r.counted())
                {
                    c[0]++;
                    c[1] += r.passed() ? 1 : 0;
                }
            }
            final List<Point> points = new ArrayList<>();
            double fail = Double.NaN;
            for (final Map.Entry<Double, int[]> e : counts.entrySet())
            {
                points.add(new Point(e.getKey(), e.getValue()[0], e.getValue()[1]));
                if (Double.isNaN(fail) && e.getValue()[1] < e.getValue()[0])
                {
                    fail = e.getKey();
                }
            }
            double peak = Double.NaN;
            for (final Point p : points)
            {
                if (p.runs() >= repeats && !p.failed() && (Double.isNaN(fail) || p.targetQps() < fail))
                {
                    peak = p.targetQps();
                }
            }
            return new Result(status, message, peak, fail, repeats, List.copyOf(runs), List.copyOf(points));
        }

        /**
         * @return the highest target whose counted runs all passed but that has fewer than {@code repeats} of them
         *         and lies above the peak (a candidate the search had no time to confirm); NaN if none.
         */
        public double unconfirmedQps()
        {
            double best = Double.NaN;
            for (final Point p : points)
            {
                if (p.runs() > 0 && !p.failed() && p.runs() < repeats && (Double.isNaN(peakQps)
                    || p.targetQps() > peakQps) && (Double.isNaN(failQps) || p.targetQps() < failQps))
                {
                    best = p.targetQps();
                }
            }
            return best;
        }
    }

    private final Limits limits;
    private volatile String stopReason;

    /**
     * @param limits what bounds the search.
     */
    public PeakSearch(final Limits limits)
    {
        this.limits = limits;
    }

    /**
     * @return the limits.
     */
    public Limits limits()
    {
        return limits;
    }

    /**
     * Ends the search after the current run. Any thread.
     *
     * @param reason why, for the report.
     */
    public void stop(final String reason)
    {
        stopReason = reason;
    }

    /**
     * @return whether {@link #stop} was called.
     */
    public boolean stopped()
    {
        return stopReason != null;
    }

    /**
     * Signals the end of the search from deep inside it.
     */
    private static final class Ended extends RuntimeException
    {
        private static final long serialVersionUID = 1L;
        private final Status status;

        Ended(final Status status, final String message)
        {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /**
     * One search's state.
     */
    private final class Run
    {
        private final Prober prober;
        private final Listener listener;
        private final List<ProbeRun> runs = new ArrayList<>();
        private final TreeMap<Double, int[]> points = new TreeMap<>();

        Run(final Prober prober, final Listener listener)
        {
            this.prober = prober;
            this.listener = listener;
        }

        /**
         * One more run at a target.
         *
         * @return whether it passed.
         */
        boolean once(final double qps)
        {
            if (stopReason != null)
            {
                throw new Ended(Status.STOPPED, stopReason);
            }
            if (runs.size() >= limits.maxRuns())
            {
                throw new Ended(Status.RUN_LIMIT, "the search ran " + runs.size() + " runs, the most --max-runs "
                    + "allows");
            }
            final int[] point = points.computeIfAbsent(qps, q -> new int[2]);
            final ProbeRun run;
            try
            {
                run = prober.run(runs.size() + 1, qps, point[0] + 1);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new Ended(Status.UNJUDGEABLE, ex.getMessage());
            }
            runs.add(run);
            if (run.counted())
            {
                point[0]++;
                point[1] += run.passed() ? 1 : 0;
            }
            listener.finished(run, List.copyOf(runs));
            if (!run.counted() || stopReason != null)
            {
                throw new Ended(Status.STOPPED, stopReason == null ? "the run was aborted" : stopReason);
            }
            return run.passed();
        }

        /**
         * Runs a target until it has {@code repeats} runs or one failed.
         *
         * @return whether all its runs passed.
         */
        boolean repeated(final double qps)
        {
            final int[] point = points.computeIfAbsent(qps, q -> new int[2]);
            while (point[1] == point[0] && point[0] < limits.repeats())
            {
                once(qps);
            }
            return point[1] == point[0];
        }

        /**
         * Steps down from a failing target until one passes.
         *
         * @return the passing target.
         */
        double downFrom(final double failing)
        {
            double q = failing;
            while (true)
            {
                if (q <= limits.minQps())
                {
                    throw new Ended(Status.NONE_PASSED, "");
                }
                q = Math.max(q / limits.step(), limits.minQps());
                if (once(q))
                {
                    return q;
                }
            }
        }

        void search(final double start)
        {
            double q = Math.min(Math.max(start, limits.minQps()), limits.maxQps());
            double lo;
            double hi;
            if (once(q))
            {
                lo = q;
                while (true)
                {
                    if (q >= limits.maxQps())
                    {
                        if (repeated(q))
                        {
                            throw new Ended(Status.ABOVE_MAX, "");
                        }
                        hi = q;
                        lo = highestCleanBelow(hi);
                        break;
                    }
                    q = Math.min(q * limits.step(), limits.maxQps());
                    if (!once(q))
                    {
                        hi = q;
                        break;
                    }
                    lo = q;
                }
            }
            else
            {
                lo = downFrom(q);
                hi = lowestFailedAbove(lo);
            }
            while (true)
            {
                if (Double.isNaN(lo))
                {
                    lo = downFrom(hi);
                    hi = lowestFailedAbove(lo);
                }
                if (hi - lo <= limits.resolution() * lo)
                {
                    if (repeated(lo))
                    {
                        throw new Ended(Status.FOUND, "");
                    }
                    // The candidate failed a repeat: it bounds the peak from above now.
                    hi = lo;
                    lo = highestCleanBelow(hi);
                    continue;
                }
                final double mid = lo + (hi - lo) / 2;
                if (repeated(mid))
                {
                    lo = mid;
                }
                else
                {
                    hi = mid;
                }
            }
        }

        /**
         * @return the lowest target above {@code limit} with a failed run (bracketing puts one there).
         */
        double lowestFailedAbove(final double limit)
        {
            for (final Map.Entry<Double, int[]> e : points.tailMap(limit, false).entrySet())
            {
                if (e.getValue()[1] < e.getValue()[0])
                {
                    return e.getKey();
                }
            }
            throw new IllegalStateException("no failing target above " + limit);
        }

        /**
         * @return the highest target below {@code limit} none of whose runs failed, or NaN.
         */
        double highestCleanBelow(final double limit)
        {
            for (final Map.Entry<Double, int[]> e : points.headMap(limit, false).descendingMap().entrySet())
            {
                if (e.getValue()[0] > 0 && e.getValue()[1] == e.getValue()[0])
                {
                    return e.getKey();
                }
            }
            return Double.NaN;
        }
    }

    /**
     * Runs the search.
     *
     * @param startQps the first target (clamped to the limits).
     * @param prober   runs the engine.
     * @param listener hears about every run.
     * @return the answer, also when the search was stopped or could not go on.
     */
    public Result run(final double startQps, final Prober prober, final Listener listener)
    {
        if (!(startQps > 0) || Double.isInfinite(startQps))
        {
            throw new IllegalArgumentException("the start QPS must be a positive number, got " + startQps);
        }
        final Run run = new Run(prober, listener);
        try
        {
            run.search(startQps);
            throw new IllegalStateException("the search ended without a result");
        }
        catch (final Ended end)
        {
            return Result.of(end.status, end.getMessage(), limits.repeats(), run.runs);
        }
    }
}
