package org.jloadgen.analysis.peak;

/**
 * The seeds of each run of a search: the configured ones for every run when pinned, else fresh ones per run,
 * derived from a base so the whole search is reproducible ({@code mix(base, run, k)} with SplitMix64's finaliser,
 * a well-tested 64-bit mixer; a few lines do not justify a library).
 */
public final class RunSeeds
{
    private final ProbeRun.Seeds pinned;
    private final long base;

    private RunSeeds(final ProbeRun.Seeds pinned, final long base)
    {
        this.pinned = pinned;
        this.base = base;
    }

    /**
     * @param seeds the seeds every run uses.
     * @return pinned seeds.
     */
    public static RunSeeds pinned(final ProbeRun.Seeds seeds)
    {
        return new RunSeeds(seeds, 0);
    }

    /**
     * @param base the base every run's seeds derive from.
     * @return fresh seeds per run.
     */
    public static RunSeeds fresh(final long base)
    {
        return new RunSeeds(null, base);
    }

    /**
     * @return whether every run uses the same seeds.
     */
    public boolean isPinned()
    {
        return pinned != null;
    }

    /**
     * @return the base of fresh seeds (0 when pinned).
     */
    public long base()
    {
        return base;
    }

    /**
     * @param run run number, from 1.
     * @return its seeds.
     */
    public ProbeRun.Seeds forRun(final int run)
    {
        if (pinned != null)
        {
            return pinned;
        }
        return new ProbeRun.Seeds(mix(base, run, 1), mix(base, run, 2), mix(base, run, 3));
    }

    private static long mix(final long base, final long run, final long k)
    {
        long z = base + run * 0x9E3779B97F4A7C15L + k * 0xD1B54A32D192ED03L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
