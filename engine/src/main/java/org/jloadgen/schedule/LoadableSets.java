package org.jloadgen.schedule;

import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * LoadGen's {@code GenerateLoadableSets} (spec §5; loadgen/loadgen.cc): shuffle {@code [0, min(count, total))} with a
 * fresh {@code mt19937(qsl_rng_seed)}, cut it into sets of {@code performance_sample_count}, pad MultiStream sets.
 */
public final class LoadableSets
{
    private LoadableSets()
    {
    }

    /**
     * @param sampleCount            {@code performance_sample_count} (performance) or {@code accuracy_sample_count}.
     * @param qslTotalSampleCount    the QSL's total sample count.
     * @param performanceSampleCount effective {@code performance_sample_count}: the size of each set.
     * @param scenario               the scenario (MultiStream sets are padded).
     * @param samplesPerQuery        effective samples per query.
     * @param qslRngSeed             {@code qsl_rng_seed}.
     * @return the sets in order; performance runs use only the first.
     */
    public static List<LoadableSet> generate(
        final long sampleCount,
        final long qslTotalSampleCount,
        final long performanceSampleCount,
        final TestScenario scenario,
        final long samplesPerQuery,
        final long qslRngSeed)
    {
        final long n = Math.min(sampleCount, qslTotalSampleCount);
        if (n <= 0)
        {
            throw new IllegalArgumentException("no samples to load: sample count " + sampleCount
                + ", QSL total sample count " + qslTotalSampleCount);
        }
        if (n > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("too many samples for one loadable set list: " + n);
        }
        if (performanceSampleCount <= 0)
        {
            throw new IllegalArgumentException(
                "performance_sample_count must be positive to partition the loadable sets: " + performanceSampleCount);
        }
        final int[] samples = new int[(int)n];
        for (int i = 0; i < samples.length; i++)
        {
            samples[i] = i;
        }
        StdRandom.shuffle(samples, new Mt19937(qslRngSeed));

        final int padding = scenario == TestScenario.MULTI_STREAM ? (int)Math.max(0, samplesPerQuery - 1) : 0;
        final List<LoadableSet> sets = new ArrayList<>();
        for (long first = 0; first < n; first += performanceSampleCount)
        {
            final int end = (int)Math.min(n - first, performanceSampleCount);
            final long[] set = new long[end + padding];
            for (int i = 0; i < end; i++)
            {
                set[i] = samples[(int)first + i];
            }
            // LoadGen copies the first spq-1 entries; a set smaller than that would read past its end in C++,
            // here the padding wraps around the set instead.
            for (int i = 0; i < padding; i++)
            {
                set[end + i] = set[i % end];
            }
            sets.add(new LoadableSet(set, end));
        }
        return sets;
    }
}
