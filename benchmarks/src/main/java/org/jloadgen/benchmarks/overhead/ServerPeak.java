package org.jloadgen.benchmarks.overhead;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jloadgen.analysis.peak.PeakSearch;
import org.jloadgen.analysis.peak.ProbeRun;

/**
 * The overhead runner's Server peak: the highest target QPS that is VALID in every one of its repeats, found by
 * {@code jloadgen peak}'s search ({@link PeakSearch}: doubling from the start while single runs pass, halving while
 * they fail, then bisecting to the resolution, every target near the boundary and the peak itself run
 * {@code repeats} times), with each run a fresh child JVM. Kept as the runs per target for the report.
 *
 * @param peakQps highest target that passed in every repeat, or 0 if none did.
 * @param failQps lowest target that failed, or +infinity if none did (the search hit the maximum).
 * @param targets every target tried, in the order first tried, with its runs.
 */
public record ServerPeak(double peakQps, double failQps, List<Target> targets)
{
    /** Doubling and halving while bracketing, as the overhead runner always did. */
    static final double STEP = 2;

    /**
     * The runs at one target.
     *
     * @param targetQps the target.
     * @param runs      its runs, in order.
     * @param passed    whether every run was VALID.
     */
    public record Target(double targetQps, List<RunResult> runs, boolean passed)
    {
    }

    /**
     * Runs one child at a target.
     */
    @FunctionalInterface
    interface Runner
    {
        /**
         * @param targetQps the target.
         * @param repeat    repeat at this target, from 1.
         * @return the run.
         */
        RunResult run(double targetQps, int repeat);
    }

    /**
     * @param minQps     give up below this target.
     * @param maxQps     never probe above this target.
     * @param resolution stop when {@code (fail - pass) <= resolution * pass}.
     * @param repeats    runs a target needs, all VALID, to pass.
     * @param maxTargets most targets, counted as {@code repeats} runs each.
     * @return the search's limits.
     * @throws IllegalArgumentException naming the overhead option that is out of range.
     */
    static PeakSearch.Limits limits(final double minQps, final double maxQps, final double resolution,
        final int repeats, final int maxTargets)
    {
        if (maxTargets < 1)
        {
            throw new IllegalArgumentException("--peak-max-probes must be at least 1, got " + maxTargets);
        }
        try
        {
            return new PeakSearch.Limits(minQps, maxQps, resolution, repeats, STEP,
                Math.multiplyExact(maxTargets, repeats));
        }
        catch (final IllegalArgumentException ex)
        {
            // The search names jloadgen peak's options; the overhead runner's have a prefix.
            throw new IllegalArgumentException("peak search: " + ex.getMessage().replace("--", "--peak-"), ex);
        }
    }

    /**
     * Searches.
     *
     * @param limits   the search's limits.
     * @param startQps the first target.
     * @param runner   runs one child.
     * @return the peak and every run.
     */
    static ServerPeak find(final PeakSearch.Limits limits, final double startQps, final Runner runner)
    {
        final Map<Double, List<RunResult>> runs = new LinkedHashMap<>();
        final PeakSearch.Result result = new PeakSearch(limits).run(startQps, (number, targetQps, repeat) ->
        {
            final RunResult run = runner.run(targetQps, repeat);
            runs.computeIfAbsent(targetQps, q -> new ArrayList<>()).add(run);
            return probeRun(number, targetQps, repeat, run);
        }, (run, all) -> { });
        final List<Target> targets = new ArrayList<>();
        runs.forEach((qps, of) -> targets.add(
            new Target(qps, List.copyOf(of), of.stream().allMatch(RunResult::valid))));
        return new ServerPeak(Double.isNaN(result.peakQps()) ? 0 : result.peakQps(),
            Double.isNaN(result.failQps()) ? Double.POSITIVE_INFINITY : result.failQps(), List.copyOf(targets));
    }

    /**
     * @return the target at the peak, or {@code null} if nothing passed.
     */
    public Target peakTarget()
    {
        for (final Target t : targets)
        {
            if (t.passed() && t.targetQps() == peakQps)
            {
                return t;
            }
        }
        return null;
    }

    /**
     * One child run as the search sees it: VALID or not (a child that wrote no detail log, killed or failed, is
     * INVALID, so the search goes on below it); the figures the search itself does not read stay empty.
     */
    private static ProbeRun probeRun(final int number, final double targetQps, final int repeat, final RunResult run)
    {
        return new ProbeRun(number, targetQps, repeat, run.runDir(),
            run.valid() ? ProbeRun.Verdict.VALID : ProbeRun.Verdict.INVALID, null, null, Double.NaN, 0, run.valid(),
            run.valid(), run.valid(), run.valid(), 0, run.valid() ? "" : run.problem(), run.wallNs() / 1_000_000);
    }
}
