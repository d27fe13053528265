package org.jloadgen.benchmarks;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;

/**
 * Settings and traces the benchmarks share: a QSL of 1024/1024 samples (as the budget's null-SUT runs), no
 * minimum duration, so a series is exactly {@code min_query_count} queries (Offline: samples), and a Server
 * target so high that every query is due at once.
 */
final class Traces
{
    /** Samples in the QSL and the loaded set. */
    static final int QSL_SAMPLES = 1024;

    private Traces()
    {
    }

    /**
     * @param scenario the scenario.
     * @param count    queries (Offline: samples of its one query).
     * @return effective performance settings of a series of exactly that size.
     */
    static EffectiveSettings settings(final TestScenario scenario, final long count)
    {
        return new EffectiveSettings(new TestSettings().scenario(scenario).mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(0).minQueryCount(count).serverTargetQps(1e12).singleStreamExpectedLatencyNs(1)
            .multiStreamExpectedLatencyNs(1).multiStreamSamplesPerQuery(8), QSL_SAMPLES, QSL_SAMPLES);
    }

    /**
     * @param settings effective settings.
     * @return the first performance loadable set.
     */
    static LoadableSet loadableSet(final EffectiveSettings settings)
    {
        return LoadableSets.generate(QSL_SAMPLES, QSL_SAMPLES, QSL_SAMPLES, settings.scenario,
            settings.samplesPerQuery, settings.qslRngSeed).get(0);
    }

    /**
     * @param settings effective settings.
     * @param set      the loaded set.
     * @return a performance trace; the caller closes it.
     */
    static Trace generate(final EffectiveSettings settings, final LoadableSet set)
    {
        return QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
    }
}
