package org.jloadgen.analysis.peak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.results.EarlyStopping;
import org.jloadgen.results.MinPassingQueriesFinder;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.testing.MmcQueue;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The peak search against the synthetic SUT in simulated time, where queueing theory knows the answer: with
 * exponential service at rate mu on each of c servers, LoadGen's Poisson arrivals make an M/M/c queue, and a run at
 * rate lambda is VALID when the share of latencies over the bound is small enough for early stopping (a little under
 * 1% for the p99 bound, by how much depends on the run's query count). The search must land on the largest such
 * lambda within its resolution. The runs are deterministic (one thread on a simulated clock, fixed seeds), so the
 * test gives the same answer on every machine.
 */
class QueueingTheoryPeakTest
{
    private static final double PERCENTILE = 0.99;
    private static final double RESOLUTION = 0.01;

    @TempDir
    Path dir;

    /**
     * @param queries a run's query count.
     * @return the most latencies over the bound a VALID Server run of that many queries may have: the largest t
     *         with queries >= h(t) + t (spec §7.3), found by bisection on t.
     */
    static long earlyStoppingMaxOver(final long queries)
    {
        final MinPassingQueriesFinder finder = MinPassingQueriesFinder.exact();
        long lo = 0;
        long hi = queries / 50;
        while (lo < hi)
        {
            final long mid = (lo + hi + 1) / 2;
            if (queries >= finder.find(mid, PERCENTILE, EarlyStopping.TOLERANCE, EarlyStopping.CONFIDENCE) + mid)
            {
                lo = mid;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * @return the largest lambda whose runs pass in theory: the share over the bound at that rate equals what early
     *         stopping allows for the queries a run at that rate issues (solved by fixed-point iteration; the share
     *         barely moves with the query count).
     */
    static double theoreticalPeak(final MmcQueue queue, final double boundSeconds, final long durationMs,
        final long minQueries)
    {
        double lambda = queue.largestRate(boundSeconds, 1 - PERCENTILE);
        for (int i = 0; i < 6; i++)
        {
            final long queries = Math.max(minQueries, (long)(lambda * durationMs / 1e3));
            lambda = queue.largestRate(boundSeconds, (double)earlyStoppingMaxOver(queries) / queries);
        }
        return lambda;
    }

    @ParameterizedTest(name = "M/M/{0}, mean service {1} ms, p99 bound {2} ms, {3} s runs")
    @CsvSource({
        // c, service ms, bound ms, run s: one server near saturation; many servers with a tight bound; a middle case.
        "1, 1, 50, 60",
        "8, 1, 10, 20",
        "4, 4, 40, 60"})
    void shouldFindTheLargestRateQueueingTheoryAllows(final int servers, final double serviceMs, final double boundMs,
        final long runSeconds)
    {
        final MmcQueue queue = new MmcQueue(servers, 1e3 / serviceMs);
        final double expected = theoreticalPeak(queue, boundMs / 1e3, runSeconds * 1_000, 100);
        final double plainP99 = queue.largestRate(boundMs / 1e3, 1 - PERCENTILE);
        // Early stopping's margin: the peak is a little below where the p99 alone meets the bound.
        assertTrue(expected < plainP99 && expected > 0.95 * plainP99, expected + " vs " + plainP99);

        final Map<String, String> options = new HashMap<>(Map.of("time", "simulated", "service",
            "exponential:" + serviceMs + "ms", "workers", String.valueOf(servers), "tick", "10us", "seed", "7"));
        try (SutInstance instance = new BuiltinSutProviders.Synthetic().create(
            new SutContext(TestScenario.SERVER, options, 1024, 1024)))
        {
            final TestSettings base = new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
                .serverTargetLatencyNs((long)(boundMs * 1e6)).serverTargetLatencyPercentile(PERCENTILE)
                .minDurationMs(runSeconds * 1_000).minQueryCount(100);
            final Path out = dir.resolve("search");
            final EngineProber prober = new EngineProber(instance, base, new EngineOptions().latencyHistogram(false),
                null, List.of(), out, RunSeeds.fresh(42), null);
            final PeakSearch search = new PeakSearch(new PeakSearch.Limits(1, 1e9, RESOLUTION, 2, 2, 60));
            // Start at the capacity c mu, which fails (the queue is unstable there).
            final PeakSearch.Result result = search.run(servers * queue.mu(), prober, (run, runs) -> { });

            final String found = String.format(Locale.ROOT, "theory %.1f (p99 alone %.1f), found peak %.1f, lowest "
                + "failing %.1f, %d runs", expected, plainP99, result.peakQps(), result.failQps(),
                result.runs().size());
            System.out.println(found);
            assertEquals(PeakSearch.Status.FOUND, result.status(), found);
            assertTrue(result.failQps() - result.peakQps() <= RESOLUTION * result.peakQps(), found);
            // The boundary lies between the peak and the lowest failing target, give or take the noise of finite
            // runs: a target within 1% of the boundary may go either way.
            assertTrue(expected >= result.peakQps() * (1 - RESOLUTION), found);
            assertTrue(expected <= result.failQps() * (1 + RESOLUTION), found);
            // Every run was judged as its summary judged it: runs below the peak VALID, the lowest failing INVALID.
            for (final ProbeRun r : result.runs())
            {
                if (r.targetQps() <= result.peakQps())
                {
                    assertEquals(ProbeRun.Verdict.VALID, r.verdict(), r.toString());
                }
            }
        }
    }
}
