package org.jloadgen.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.junit.jupiter.api.Test;

class QueryGeneratorTest
{
    static final long QSL_SEED = Long.parseUnsignedLong("2085463073848966840");
    static final long SAMPLE_SEED = Long.parseUnsignedLong("2747215439041700203");
    static final long SCHEDULE_SEED = Long.parseUnsignedLong("16159082839903944936");

    static TestSettings officialSeeds(final TestScenario scenario)
    {
        return new TestSettings().scenario(scenario).qslRngSeed(QSL_SEED).sampleIndexRngSeed(SAMPLE_SEED)
            .scheduleRngSeed(SCHEDULE_SEED);
    }

    @Test
    void shouldMatchSpecEndToEndServerVector()
    {
        final TestSettings requested = officialSeeds(TestScenario.SERVER).serverTargetQps(100).minQueryCount(100)
            .minDurationMs(1000);
        final EffectiveSettings settings = new EffectiveSettings(requested, 50_000, 1024);
        final List<LoadableSet> sets = LoadableSets.generate(settings.performanceSampleCount, 50_000,
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed);
        assertEquals(1, sets.size());
        assertArrayEquals(new long[] {216, 267, 822, 906, 663, 580, 710, 908},
            Arrays.copyOf(sets.get(0).indices(), 8));

        try (Trace trace = QueryGenerator.generate(settings, sets.get(0), TestMode.PERFORMANCE_ONLY,
            new SequenceGen(), QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena()))
        {
            final long[] expectedIndex = {784, 618, 960, 248, 513, 635};
            final long[] expectedNs = {0, 18436540, 23015776, 35874399, 43004346, 46868412};
            for (int q = 0; q < 6; q++)
            {
                assertEquals(expectedIndex[q], trace.sampleIndex(q), "query " + q);
                assertEquals(expectedNs[q], trace.scheduledOffsetNs(q), "query " + q);
            }
            assertTrue(trace.queryCount() >= 100);
            assertTrue(trace.scheduledOffsetNs(trace.queryCount() - 1) >= 1_000_000_000L);
            assertTrue(trace.scheduledOffsetNs(trace.queryCount() - 2) < 1_000_000_000L
                || trace.queryCount() == 100);
        }
    }

    @Test
    void shouldGenerateSingleStreamCountLikeLoadGenExample()
    {
        // example-logs/SingleStream: expected latency 2500 ns, min duration 10 s -> 8000001 queries, 20000002500 ns.
        final TestSettings requested = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
            .singleStreamExpectedLatencyNs(2500).minDurationMs(10_000).maxDurationMs(20_000);
        final EffectiveSettings settings = new EffectiveSettings(requested, 1024, 1024);
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, settings.scenario, 1, 0).get(0);
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena()))
        {
            assertEquals(8_000_001L, trace.queryCount());
            assertEquals(20_000_002_500L, trace.durationNs());
        }
    }

    @Test
    void shouldMatchExampleLoadedSetWithZeroSeed()
    {
        // example-logs/*: loaded_qsl_set begins 882,396,136,545,569 with qsl_rng_seed 0 and 1024 samples.
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, TestScenario.SERVER, 1, 0).get(0);
        assertArrayEquals(new long[] {882, 396, 136, 545, 569, 298, 709, 664}, Arrays.copyOf(set.indices(), 8));
    }

    @Test
    void shouldIssueEverySampleOnceInAccuracyMode()
    {
        final TestSettings requested = officialSeeds(TestScenario.SINGLE_STREAM).mode(TestMode.ACCURACY_ONLY);
        final EffectiveSettings settings = new EffectiveSettings(requested, 16, 16);
        final LoadableSet set = LoadableSets.generate(16, 16, 16, settings.scenario, 1, 0).get(0);
        // example-logs/Accuracy-SingleStream: loaded set with seed 0 over 16 samples.
        assertArrayEquals(new long[] {0, 13, 1, 5, 9, 11, 4, 12, 6, 10, 3, 15, 14, 2, 7, 8}, set.indices());
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.ACCURACY_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena()))
        {
            assertEquals(16, trace.queryCount());
            final boolean[] seen = new boolean[16];
            for (int s = 0; s < 16; s++)
            {
                final int idx = (int)trace.sampleIndex(s);
                assertFalse(seen[idx]);
                seen[idx] = true;
                assertTrue(trace.accuracyLogged(s));
            }
        }
    }

    @Test
    void shouldMatchExampleAccuracyIssueOrderWithZeroSeeds()
    {
        // example-logs/Accuracy-SingleStream/mlperf_log_accuracy.json, seeds 0: qsl_idx in seq order.
        final TestSettings requested = new TestSettings().scenario(TestScenario.SINGLE_STREAM)
            .mode(TestMode.ACCURACY_ONLY);
        final EffectiveSettings settings = new EffectiveSettings(requested, 16, 16);
        final LoadableSet set = LoadableSets.generate(16, 16, 16, settings.scenario, 1, 0).get(0);
        try (Trace trace = QueryGenerator.generate(settings, set, TestMode.ACCURACY_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena()))
        {
            final long[] expected = {0, 2, 13, 11, 10, 15, 9, 14, 4, 3, 5, 8, 7, 1, 12, 6};
            final long[] actual = new long[16];
            for (int s = 0; s < 16; s++)
            {
                actual[s] = trace.sampleIndex(s);
            }
            assertArrayEquals(expected, actual);
            assertEquals(16_000_000L, trace.durationNs());
        }
    }

    @Test
    void shouldStorePositionsInSixteenBitsOnlyWhileTheyFit()
    {
        assertEquals(2, Trace.positionBytes(1024));
        assertEquals(2, Trace.positionBytes(65_536));
        assertEquals(4, Trace.positionBytes(65_537));
        // A loaded set of 70000 samples: positions past 65535 must come back unchanged (4-byte storage), and
        // the same draws over a 16-bit set give the same positions where they fit.
        for (final int size : new int[] {70_000, 60_000})
        {
            final TestSettings requested = new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(0)
                .minQueryCount(20_000).performanceSampleCountOverride(size);
            final EffectiveSettings settings = new EffectiveSettings(requested, size, size);
            final LoadableSet set = LoadableSets.generate(size, size, size, TestScenario.SINGLE_STREAM, 1, 0).get(0);
            try (Trace trace = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, new SequenceGen(),
                QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena()))
            {
                int max = 0;
                for (long s = 0; s < trace.sampleCount(); s++)
                {
                    final int p = trace.position(s);
                    assertTrue(p >= 0 && p < size, "position " + p);
                    assertEquals(set.indices()[p], trace.sampleIndex(s));
                    max = Math.max(max, p);
                }
                assertTrue(max > size - 100, "draws cover the set: max " + max);
                assertEquals(trace.sampleCount() * Trace.positionBytes(size), trace.offHeapBytes(),
                    "positions only: no accuracy bits, no Server offsets");
            }
        }
    }
}
