package org.jloadgen.schedule;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.GrowableOffHeapArray;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * SyLT's warm-up period as queries: a Poisson stream at the series' target rate, issued just before the measured
 * queries with no pause between them, whose latencies are not measured. It has generators of its own, seeded from
 * the series' seeds through fixed offsets, so the measured trace draws exactly what LoadGen's would; it takes
 * sequence ids (the measured ids follow it) but no accuracy-log draws, and nothing of it is accuracy-logged.
 */
public final class WarmupQueries
{
    /** Added to {@code schedule_rng_seed} for the warm-up's arrival times (keeps them apart from the measured). */
    static final long SCHEDULE_SEED_OFFSET = 0x5359_4C54_5741_524DL;
    /** Added to {@code sample_index_rng_seed} for the warm-up's sample choice. */
    static final long SAMPLE_SEED_OFFSET = 0x5359_4C54_5341_4D50L;

    private WarmupQueries()
    {
    }

    /**
     * Generates the warm-up: queries of one sample at Poisson times from 0 while the time is below
     * {@code warmupNs}; the trace's duration is the time after its last query, where the measured queries start,
     * so the arrival process runs on unbroken. Samples are uniform with replacement over the loaded set.
     *
     * @param settings  the series' effective settings (Server: {@code target_qps} and the seeds are used).
     * @param set       the loaded set.
     * @param warmupNs  length of the warm-up period (positive).
     * @param sequence  the test's sequence ids; advanced by the warm-up's queries.
     * @param allocator memory for the trace.
     * @return the warm-up trace; the caller closes it.
     */
    public static Trace generate(final EffectiveSettings settings, final LoadableSet set, final long warmupNs,
        final SequenceGen sequence, final OffHeapAllocator allocator)
    {
        if (settings.scenario != TestScenario.SERVER)
        {
            throw new IllegalArgumentException("a warm-up period needs the Server scenario, not " + settings.scenario);
        }
        if (warmupNs <= 0)
        {
            throw new IllegalArgumentException("warm-up must be positive: " + warmupNs + " ns");
        }
        final double qps = settings.targetQps;
        final Mt19937 scheduleRng = new Mt19937(settings.scheduleRngSeed + SCHEDULE_SEED_OFFSET);
        final Mt19937 sampleRng = new Mt19937(settings.sampleIndexRngSeed + SAMPLE_SEED_OFFSET);
        final int end = set.sampleDistributionEnd();
        final long expected = (long)Math.min(qps * (warmupNs / 1e9) * 1.02 + 64, 1L << 40);
        try (GrowableOffHeapArray positions = new GrowableOffHeapArray(allocator, Trace.positionBytes(set.size()),
            expected);
            GrowableOffHeapArray offsets = new GrowableOffHeapArray(allocator, 8, expected))
        {
            long timestampNs = 0;
            long queries = 0;
            while (timestampNs < warmupNs)
            {
                Trace.addPosition(positions, (int)StdRandom.uniformInt(sampleRng, 0, end - 1));
                offsets.addLong(timestampNs);
                queries++;
                timestampNs += (long)(StdRandom.exponential(scheduleRng, qps) * 1e9);
            }
            final long firstQueryId = sequence.nextQueryId();
            final long firstSampleId = sequence.nextSampleId();
            sequence.advance(queries, queries);
            return new Trace(TestScenario.SERVER, TestMode.PERFORMANCE_ONLY, set, 1, queries, firstQueryId,
                firstSampleId, 0, timestampNs, false, positions.detach(), offsets.detach(), null, null, null);
        }
    }
}
