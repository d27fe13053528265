package org.jloadgen.benchmarks.overhead;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The search for the highest Server target QPS that is VALID in every one of its repeats: double from a start
 * value until a target fails (halve while even the start fails), then bisect between the highest passing and the
 * lowest failing target until they are within a relative resolution. A target fails at its first INVALID repeat,
 * so failing targets cost one run.
 */
public final class PeakSearch
{
    /** Targets are rounded to multiples of this many QPS. */
    static final double GRANULE_QPS = 1_000;

    private final double startQps;
    private final double minQps;
    private final double maxQps;
    private final double resolution;
    private final int maxProbes;

    /**
     * @param startQps   first target.
     * @param minQps     give up below this target (nothing passes).
     * @param maxQps     never probe above this target.
     * @param resolution stop when {@code (fail - pass) <= resolution * pass}.
     * @param maxProbes  stop after this many targets.
     */
    public PeakSearch(final double startQps, final double minQps, final double maxQps, final double resolution,
        final int maxProbes)
    {
        if (!(startQps >= minQps && startQps <= maxQps && minQps >= GRANULE_QPS))
        {
            throw new IllegalArgumentException("need " + GRANULE_QPS + " <= min <= start <= max QPS; got min "
                + minQps + ", start " + startQps + ", max " + maxQps);
        }
        if (!(resolution > 0) || maxProbes < 1)
        {
            throw new IllegalArgumentException("resolution must be positive and at least one probe allowed");
        }
        this.startQps = startQps;
        this.minQps = minQps;
        this.maxQps = maxQps;
        this.resolution = resolution;
        this.maxProbes = maxProbes;
    }

    /**
     * The runs at one target.
     *
     * @param targetQps the target.
     * @param runs      its runs, stopped at the first INVALID one.
     * @param passed    whether every repeat was VALID.
     */
    public record Probe(double targetQps, List<RunResult> runs, boolean passed)
    {
    }

    /**
     * What the search found.
     *
     * @param peakQps highest target that passed, or 0 if none did.
     * @param failQps lowest target that failed, or +infinity if none did (the search hit the maximum).
     * @param probes  every probe in the order run.
     */
    public record Result(double peakQps, double failQps, List<Probe> probes)
    {
        /**
         * @return the probe at the peak, or {@code null} if nothing passed.
         */
        public Probe peakProbe()
        {
            for (final Probe p : probes)
            {
                if (p.passed() && p.targetQps() == peakQps)
                {
                    return p;
                }
            }
            return null;
        }
    }

    /**
     * @param probe runs one target and says whether all its repeats were VALID.
     * @return the result.
     */
    public Result run(final DoubleFunction<Probe> probe)
    {
        final List<Probe> probes = new ArrayList<>();
        double pass = 0;
        double fail = Double.POSITIVE_INFINITY;
        double next = round(startQps);
        while (probes.size() < maxProbes)
        {
            final Probe p = probe.apply(next);
            probes.add(p);
            if (p.passed())
            {
                pass = Math.max(pass, next);
            }
            else
            {
                fail = Math.min(fail, next);
            }
            if (pass > 0 && fail - pass <= resolution * pass)
            {
                break;
            }
            if (fail == Double.POSITIVE_INFINITY)
            {
                if (pass >= maxQps)
                {
                    break;
                }
                next = Math.min(round(pass * 2), maxQps);
            }
            else if (pass == 0)
            {
                if (fail <= minQps)
                {
                    break;
                }
                next = Math.max(round(fail / 2), minQps);
            }
            else
            {
                next = round(pass + (fail - pass) / 2);
                if (next <= pass || next >= fail)
                {
                    break;
                }
            }
        }
        return new Result(pass, fail, List.copyOf(probes));
    }

    private static double round(final double qps)
    {
        return Math.max(GRANULE_QPS, Math.round(qps / GRANULE_QPS) * GRANULE_QPS);
    }
}
