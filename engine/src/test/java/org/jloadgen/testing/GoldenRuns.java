package org.jloadgen.testing;

import java.util.Arrays;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.PerformanceResult;
import org.jloadgen.record.SortedLatencies;

/**
 * Inputs reconstructed from the official example logs in {@code shared/data/example-logs} (LoadGen 6.0.17, null
 * SUTs): the settings they print and latency arrays whose order statistics, sums and timings give exactly the
 * numbers those logs print. Shared by the results and log tests.
 */
public final class GoldenRuns
{
    private static final int QSL_COUNT = 1024;

    private GoldenRuns()
    {
    }

    /**
     * A reconstructed run.
     *
     * @param name          example-log directory name.
     * @param settings      effective settings.
     * @param result        performance result.
     * @param warningCount  warning records in the official detail log.
     * @param errorCount    error records in the official detail log.
     */
    public record Run(String name, EffectiveSettings settings, PerformanceResult result, int warningCount,
        int errorCount)
    {
    }

    /**
     * @return Offline, 3.3M samples all completing at 49520982 ns: "Samples per second: 6.66384e+07", INVALID for
     *         minimum duration.
     */
    public static Run offline()
    {
        final TestSettings requested = base(TestScenario.OFFLINE).offlineExpectedQps(300_000);
        final long[] latencies = new long[3_300_000];
        Arrays.fill(latencies, 49_520_982L);
        final PerformanceResult result = new PerformanceResult(
            SortedLatencies.sortInPlace(latencies), SortedLatencies.sortInPlace(new long[0]), 1,
            49_520_982 / 1e9, 0.0, 0.000_000_3, 49_520_982 / 1e9,
            SortedLatencies.sortInPlace(new long[0]), SortedLatencies.sortInPlace(new long[0]), 0);
        return new Run("Offline", effective(requested), result, 1, 0);
    }

    /**
     * @return Server at 10k QPS: 100204 queries, the printed percentiles, mean 121894, completed 10020.28/s,
     *         scheduled 10020.29/s, VALID.
     */
    public static Run server()
    {
        final TestSettings requested = base(TestScenario.SERVER).serverTargetQps(10_000);
        final int n = 100_204;
        final long[] latencies = build(n, 121_894, new long[][] {
            {0, 106}, {index(n, 0.50), 71_447}, {index(n, 0.90), 94_252}, {index(n, 0.95), 117_783},
            {index(n, 0.97), 452_743}, {index(n, 0.99), 1_988_278}, {index(n, 0.999), 5_840_895},
            {n - 1, 15_449_361}});
        final PerformanceResult result = new PerformanceResult(
            SortedLatencies.sortInPlace(latencies), SortedLatencies.sortInPlace(new long[0]), n,
            15_449_361 / 1e9, 10.000009, 10.000_010, 10.000_02,
            SortedLatencies.sortInPlace(new long[0]), SortedLatencies.sortInPlace(new long[0]), 0);
        return new Run("Server", effective(requested), result, 0, 0);
    }

    /**
     * @return SingleStream at 400k expected QPS: 5730734 queries, p90 221 (early stopping discards 571401),
     *         p99 estimate 581, mean 192, 573066.75 QPS with overhead, VALID.
     */
    public static Run singleStream()
    {
        final TestSettings requested = base(TestScenario.SINGLE_STREAM).singleStreamExpectedLatencyNs(2500);
        final int n = 5_730_734;
        final long[] latencies = build(n, 192, new long[][] {
            {0, 80}, {index(n, 0.50), 90}, {index(n, 0.90), 221}, {n - 571_402, 221}, {index(n, 0.95), 281},
            {index(n, 0.97), 361}, {index(n, 0.99), 581}, {n - 56_753, 581}, {index(n, 0.999), 1382},
            {n - 1, 57_243_669}});
        final double issuedSeconds = (n - 1) / 573_066.75;
        final PerformanceResult result = new PerformanceResult(
            SortedLatencies.sortInPlace(latencies), SortedLatencies.sortInPlace(new long[0]), n,
            57_243_669 / 1e9, issuedSeconds, issuedSeconds, issuedSeconds + 1e-7,
            SortedLatencies.sortInPlace(new long[0]), SortedLatencies.sortInPlace(new long[0]), 0);
        return new Run("SingleStream", effective(requested), result, 1360, 0);
    }

    /**
     * @return MultiStream at 300030 expected QPS: 1265382 queries of 8 samples, p99 1372 (early stopping discards
     *         12392, estimate 1382), mean 394, VALID; every sample of a query has the query's latency.
     */
    public static Run multiStream()
    {
        final TestSettings requested = base(TestScenario.MULTI_STREAM)
            .multiStreamExpectedLatencyNs(1e9 / 300_030.0)
            .minDurationMs(5000)
            .maxDurationMs(10_000);
        final int n = 1_265_382;
        final long[] queries = build(n, 394, new long[][] {
            {0, 80}, {index(n, 0.50), 100}, {index(n, 0.90), 341}, {index(n, 0.95), 591},
            {index(n, 0.97), 871}, {index(n, 0.99), 1372}, {n - 12_393, 1382}, {index(n, 0.999), 10_816},
            {n - 1, 12_090_327}});
        final long[] samples = new long[n * 8];
        for (int q = 0; q < n; q++)
        {
            Arrays.fill(samples, q * 8, q * 8 + 8, queries[q]);
        }
        final PerformanceResult result = new PerformanceResult(
            SortedLatencies.sortInPlace(samples), SortedLatencies.sortInPlace(queries), n,
            12_090_327 / 1e9, 5.000_1, 5.000_1, 5.000_2,
            SortedLatencies.sortInPlace(new long[0]), SortedLatencies.sortInPlace(new long[0]), 0);
        return new Run("MultiStream", effective(requested), result, 783, 0);
    }

    /**
     * @param requested requested settings.
     * @return effective settings for the examples' null QSL (1024 samples, 1024 performance samples).
     */
    public static EffectiveSettings effective(final TestSettings requested)
    {
        return new EffectiveSettings(requested, QSL_COUNT, QSL_COUNT);
    }

    private static TestSettings base(final TestScenario scenario)
    {
        return new TestSettings()
            .scenario(scenario)
            .mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(10_000)
            .maxDurationMs(20_000);
    }

    /**
     * @param n sample count.
     * @param p percentile.
     * @return LoadGen's index {@code (size_t)(n * p)}.
     */
    public static int index(final long n, final double p)
    {
        return (int)((double)n * p);
    }

    /**
     * A sorted array of {@code n} latencies with the given values at the given ranks and integer mean
     * {@code mean}: gaps are filled with the value below them, then raised (highest ranks first) towards the
     * value above until the sum is {@code mean * n}.
     *
     * @param n     size.
     * @param mean  integer mean (sum / n).
     * @param pins  {rank, value} pairs; must include rank 0 and rank n - 1, values non-decreasing with rank.
     * @return the array.
     */
    public static long[] build(final int n, final long mean, final long[][] pins)
    {
        final long[][] sorted = pins.clone();
        Arrays.sort(sorted, (x, y) -> Long.compare(x[0], y[0]));
        if (sorted[0][0] != 0 || sorted[sorted.length - 1][0] != n - 1)
        {
            throw new IllegalArgumentException("pins must include the first and last rank");
        }
        final long[] a = new long[n];
        for (int k = 0; k < sorted.length; k++)
        {
            final int from = (int)sorted[k][0];
            final int to = k + 1 < sorted.length ? (int)sorted[k + 1][0] : n;
            if (k + 1 < sorted.length && sorted[k + 1][1] < sorted[k][1])
            {
                throw new IllegalArgumentException("pin values must not decrease with rank");
            }
            Arrays.fill(a, from, to, sorted[k][1]);
        }
        long sum = 0;
        for (final long v : a)
        {
            sum += v;
        }
        long deficit = mean * n - sum;
        if (deficit < 0)
        {
            throw new IllegalArgumentException("mean " + mean + " below the smallest possible " + sum / n);
        }
        for (int k = sorted.length - 2; k >= 0 && deficit > 0; k--)
        {
            final int low = (int)sorted[k][0] + 1;
            final int high = (int)sorted[k + 1][0] - 1;
            final long ceiling = sorted[k + 1][1];
            for (int i = high; i >= low && deficit > 0; i--)
            {
                final long raise = Math.min(ceiling - a[i], deficit);
                a[i] += raise;
                deficit -= raise;
            }
        }
        if (deficit > 0)
        {
            throw new IllegalArgumentException("mean " + mean + " above the largest possible");
        }
        return a;
    }
}
