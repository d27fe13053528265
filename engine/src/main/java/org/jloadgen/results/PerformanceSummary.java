package org.jloadgen.results;

import org.jloadgen.api.TestScenario;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.record.PerformanceResult;
import org.jloadgen.record.SortedLatencies;

/**
 * Everything LoadGen's {@code results.cc} derives from one performance series (spec §7; loadgen/results.cc,
 * PerformanceSummary::ProcessLatencies): percentiles, means, per-scenario metrics, token metrics, early stopping and
 * validity with LoadGen's recommendation strings. Computed once in the constructor (after the timed part); the summary
 * and detail writers only format these values.
 * <p>
 * Arithmetic follows LoadGen, quirks included ({@code result_token_throughput} divides by ns, Server rates use
 * {@code sample_count - 1}, percentiles are {@code sorted[(size_t)(n * p)]}, means are integer divisions). Where
 * LoadGen would divide by zero, index past an array or underflow {@code size_t}, this class yields 0 instead
 * (LoadGen would print {@code inf}/{@code nan}, which is not valid JSON, or crash); every such case is named
 * where it happens.
 */
public final class PerformanceSummary
{
    /** The fixed percentiles LoadGen reports besides the target one. */
    private static final double[] PERCENTILES = {0.50, 0.90, 0.95, 0.97, 0.99, 0.999};

    /** Minimum-duration recommendation, SingleStream and MultiStream. */
    public static final String MIN_DURATION_RECO_STREAM =
        "Decrease the expected latency so the loadgen pre-generates more queries.";
    /** Minimum-duration recommendation, Server. */
    public static final String MIN_DURATION_RECO_SERVER =
        "Increase the target QPS so the loadgen pre-generates more queries.";
    /** Minimum-duration recommendation, Offline. */
    public static final String MIN_DURATION_RECO_OFFLINE =
        "Increase expected QPS so the loadgen pre-generates a larger (coalesced) query.";
    /** Minimum-duration recommendation of a replayed trace ({@code run --trace}), which has no target QPS. */
    public static final String MIN_DURATION_RECO_REPLAY = "The replayed trace ends before min_duration: replay a "
        + "longer trace, stretch it with --trace-speed below 1, or lower min_duration_ms.";
    /** Performance-constraint recommendation of a replayed trace. */
    public static final String PERF_RECO_REPLAY = "Replay the trace slower (--trace-speed below 1) to improve latency.";
    /** Performance-constraint recommendation, Server without token latencies. */
    public static final String PERF_RECO = "Reduce target QPS to improve latency.";
    /** Performance-constraint recommendation, TTFT. */
    public static final String PERF_RECO_TTFT = "TTFT constrain not met: Reduce target QPS to improve latency.";
    /** Performance-constraint recommendation, TPOT. */
    public static final String PERF_RECO_TPOT = "TPOT constrain not met: Reduce target QPS to improve latency.";

    private final String sutName;
    private final EffectiveSettings settings;
    private final PerformanceResult result;
    private final SeriesEnd end;

    private final long sampleCount;
    private final long queryCount;
    private final long overlatencyQueryCount;
    private final long sampleLatencyMinNs;
    private final long sampleLatencyMaxNs;
    private final long sampleLatencyMeanNs;
    private final long targetSampleLatencyNs;
    private final long[] sampleLatencyPercentilesNs = new long[PERCENTILES.length];
    private final long queryLatencyMinNs;
    private final long queryLatencyMaxNs;
    private final long queryLatencyMeanNs;
    private final long targetQueryLatencyNs;
    private final long[] queryLatencyPercentilesNs = new long[PERCENTILES.length];

    private final long tokenCount;
    private final long firstTokenMinNs;
    private final long firstTokenMaxNs;
    private final long firstTokenMeanNs;
    private final long targetFirstTokenNs;
    private final long[] firstTokenPercentilesNs = new long[PERCENTILES.length];
    private final long timePerOutputTokenMinNs;
    private final long timePerOutputTokenMaxNs;
    private final long timePerOutputTokenMeanNs;
    private final long targetTimePerOutputTokenNs;
    private final long[] timePerOutputTokenPercentilesNs = new long[PERCENTILES.length];

    private final boolean minDurationMet;
    private final String minDurationRecommendation;
    private final boolean minQueriesMet;
    private final boolean perfConstraintsMet;
    private final String perfConstraintsRecommendation;
    private final boolean earlyStoppingMet;
    private final String earlyStoppingRecommendation;
    private final String earlyStoppingTtftRecommendation;
    private final String earlyStoppingTpotRecommendation;
    private final long earlyStoppingLatencySsNs;
    private final long earlyStoppingLatencyMsNs;

    /**
     * Computes the summary of a series that ran to its end with every issued sample completed, as LoadGen's always
     * do.
     *
     * @param sutName  {@code sut.Name()}, as LoadGen asks for it again when it builds the summary.
     * @param settings the effective settings of the series.
     * @param result   what the series measured.
     */
    public PerformanceSummary(final String sutName, final EffectiveSettings settings, final PerformanceResult result)
    {
        this(sutName, settings, result, SeriesEnd.complete(result.sampleLatencies().count()));
    }

    /**
     * Computes the summary.
     *
     * @param sutName  {@code sut.Name()}, as LoadGen asks for it again when it builds the summary.
     * @param settings the effective settings of the series.
     * @param result   what the series measured.
     * @param end      how the series ended: a series cut short or with samples that never completed is INVALID.
     */
    public PerformanceSummary(final String sutName, final EffectiveSettings settings, final PerformanceResult result,
        final SeriesEnd end)
    {
        this(sutName, settings, result, end, false);
    }

    /**
     * Computes the summary.
     *
     * @param sutName  {@code sut.Name()}, as LoadGen asks for it again when it builds the summary.
     * @param settings the effective settings of the series.
     * @param result   what the series measured.
     * @param end      how the series ended: a series cut short or with samples that never completed is INVALID.
     * @param replay   whether the series replayed a trace ({@code run --trace}): its recommendations then name what
     *                 a replay can change (the trace, {@code --trace-speed}), not the target QPS it does not have.
     */
    public PerformanceSummary(final String sutName, final EffectiveSettings settings, final PerformanceResult result,
        final SeriesEnd end, final boolean replay)
    {
        this(sutName, settings, result, end, replay, null);
    }

    /**
     * Computes the summary, with early stopping's discard counts computed ahead ({@link EarlyStopping#discards}).
     *
     * @param sutName  {@code sut.Name()}.
     * @param settings the effective settings of the series.
     * @param result   what the series measured.
     * @param end      how the series ended.
     * @param replay   whether the series replayed a trace.
     * @param discards the counts for the series' percentile and queries issued, or {@code null}.
     */
    public PerformanceSummary(final String sutName, final EffectiveSettings settings, final PerformanceResult result,
        final SeriesEnd end, final boolean replay, final EarlyStopping.Discards discards)
    {
        this.sutName = sutName;
        this.settings = settings;
        this.result = result;
        this.end = end;
        final TestScenario scenario = settings.scenario;
        final SortedLatencies samples = result.sampleLatencies();

        // ProcessLatencies: returns before setting anything (query_count included) when there are no samples.
        sampleCount = samples.count();
        final boolean haveSamples = sampleCount > 0;
        queryCount = haveSamples ? result.queriesIssued() : 0;
        sampleLatencyMeanNs = haveSamples ? samples.sum() / sampleCount : 0;
        sampleLatencyMinNs = haveSamples ? samples.get(0) : 0;
        sampleLatencyMaxNs = haveSamples ? samples.get(sampleCount - 1) : 0;
        targetSampleLatencyNs = percentile(samples, sampleCount, settings.targetLatencyPercentile);
        fill(sampleLatencyPercentilesNs, samples, sampleCount);
        overlatencyQueryCount = haveSamples && scenario == TestScenario.SERVER
            ? EarlyStopping.countAbove(samples, settings.targetLatencyNs) : 0;

        final boolean tokens = haveSamples && settings.useTokenLatencies;
        tokenCount = tokens ? result.tokenCount() : 0;
        final SortedLatencies ttft = result.firstTokenLatencies();
        final SortedLatencies tpot = result.timePerOutputTokens();
        final boolean haveTtft = tokens && ttft.count() > 0;
        // LoadGen divides both token sums by sample_count, not by the array sizes.
        firstTokenMeanNs = haveTtft ? ttft.sum() / sampleCount : 0;
        timePerOutputTokenMeanNs = haveTtft ? tpot.sum() / sampleCount : 0;
        firstTokenMinNs = haveTtft ? ttft.get(0) : 0;
        firstTokenMaxNs = haveTtft ? ttft.get(ttft.count() - 1) : 0;
        targetFirstTokenNs = haveTtft ? percentile(ttft, sampleCount, settings.targetLatencyPercentile) : 0;
        final boolean haveTpot = haveTtft && tpot.count() > 0;
        timePerOutputTokenMinNs = haveTpot ? tpot.get(0) : 0;
        timePerOutputTokenMaxNs = haveTpot ? tpot.get(tpot.count() - 1) : 0;
        targetTimePerOutputTokenNs = haveTpot ? percentile(tpot, sampleCount, settings.targetLatencyPercentile) : 0;
        if (haveTtft)
        {
            fill(firstTokenPercentilesNs, ttft, sampleCount);
        }
        if (haveTpot)
        {
            fill(timePerOutputTokenPercentilesNs, tpot, sampleCount);
        }

        final SortedLatencies queries = result.queryLatencies();
        final boolean perQuery = haveSamples && scenario == TestScenario.MULTI_STREAM && result.queriesIssued() > 0;
        // LoadGen divides by queries_issued (a crash when 0) and indexes query_latencies with it.
        queryLatencyMeanNs = perQuery ? queries.sum() / result.queriesIssued() : 0;
        queryLatencyMinNs = perQuery && queries.count() > 0 ? queries.get(0) : 0;
        queryLatencyMaxNs = perQuery && queries.count() > 0 ? queries.get(queries.count() - 1) : 0;
        targetQueryLatencyNs = perQuery ? percentile(queries, result.queriesIssued(), settings.targetLatencyPercentile)
            : 0;
        if (perQuery)
        {
            fill(queryLatencyPercentilesNs, queries, result.queriesIssued());
        }

        // Validity (spec §7.4; loadgen/results.cc, PerformanceSummary::PerfConstraintsMet, MinDurationMet,
        // MinQueriesMet).
        final double minDurationSeconds = settings.minDurationMs / 1000.0;
        minDurationMet = switch (scenario)
        {
            case OFFLINE -> result.maxLatencySeconds() >= minDurationSeconds;
            case SERVER -> result.finalQueryScheduledTimeSeconds() >= minDurationSeconds;
            case SINGLE_STREAM, MULTI_STREAM -> result.finalQueryIssuedTimeSeconds() >= minDurationSeconds;
        };
        minDurationRecommendation = minDurationMet ? "" : replay ? MIN_DURATION_RECO_REPLAY : switch (scenario)
        {
            case SINGLE_STREAM, MULTI_STREAM -> MIN_DURATION_RECO_STREAM;
            case SERVER -> MIN_DURATION_RECO_SERVER;
            case OFFLINE -> MIN_DURATION_RECO_OFFLINE;
        };
        minQueriesMet = Long.compareUnsigned(result.queriesIssued(), settings.minQueryCount) >= 0
            && Long.compareUnsigned(sampleCount, settings.minSampleCount) >= 0;

        boolean perfMet = true;
        String perfReco = "";
        if (scenario == TestScenario.SERVER)
        {
            if (!settings.useTokenLatencies)
            {
                if (targetSampleLatencyNs > settings.targetLatencyNs)
                {
                    perfReco = PERF_RECO;
                    perfMet = false;
                }
            }
            else
            {
                // int64 latency against a uint64 limit: C++ compares as unsigned.
                if (Long.compareUnsigned(targetFirstTokenNs, settings.serverTtftLatencyNs) > 0)
                {
                    perfReco = PERF_RECO_TTFT;
                    perfMet = false;
                }
                if (Long.compareUnsigned(targetTimePerOutputTokenNs, settings.serverTpotLatencyNs) > 0)
                {
                    perfReco = perfReco.isEmpty() ? PERF_RECO_TPOT : perfReco + "\n * " + PERF_RECO_TPOT;
                    perfMet = false;
                }
            }
        }
        perfConstraintsMet = perfMet;
        perfConstraintsRecommendation = replay && perfReco.equals(PERF_RECO) ? PERF_RECO_REPLAY : perfReco;

        if (!settings.useTokenLatencies)
        {
            final EarlyStopping.Result es = EarlyStopping.evaluate(scenario, settings.targetLatencyPercentile,
                result.queriesIssued(), samples, queries, settings.targetLatencyNs, 0, 0, discards);
            earlyStoppingMet = es.met();
            earlyStoppingRecommendation = es.recommendation();
            earlyStoppingTpotRecommendation = "";
            earlyStoppingTtftRecommendation = "";
            earlyStoppingLatencySsNs = es.latencySsNs();
            earlyStoppingLatencyMsNs = es.latencyMsNs();
        }
        else
        {
            // TPOT first; TTFT only if TPOT passed (&& short-circuit). For SingleStream the token arrays stand in
            // for the sample latencies, so the TTFT estimate ends up in early_stopping_latency_ss [LG quirk].
            final EarlyStopping.Result tpotResult = EarlyStopping.evaluate(scenario, settings.targetLatencyPercentile,
                result.queriesIssued(), tpot, queries, settings.serverTpotLatencyNs, 0, 0);
            EarlyStopping.Result last = tpotResult;
            String ttftReco = "";
            boolean met = tpotResult.met();
            if (met)
            {
                final EarlyStopping.Result ttftResult = EarlyStopping.evaluate(scenario,
                    settings.targetLatencyPercentile, result.queriesIssued(), ttft, queries,
                    settings.serverTtftLatencyNs, tpotResult.latencySsNs(), tpotResult.latencyMsNs());
                met = ttftResult.met();
                ttftReco = ttftResult.recommendation();
                last = ttftResult;
            }
            earlyStoppingMet = met;
            earlyStoppingRecommendation = "";
            earlyStoppingTpotRecommendation = tpotResult.recommendation();
            earlyStoppingTtftRecommendation = ttftReco;
            earlyStoppingLatencySsNs = last.latencySsNs();
            earlyStoppingLatencyMsNs = last.latencyMsNs();
        }
    }

    /** {@code sorted[(size_t)(n * p)]}, clamped to the array (LoadGen reads out of bounds for p >= 1). */
    private static long percentile(final SortedLatencies sorted, final long n, final double p)
    {
        final long count = sorted.count();
        if (n <= 0 || count == 0)
        {
            return 0;
        }
        final long index = (long)((double)n * p);
        return sorted.get(Math.max(0, Math.min(index, count - 1)));
    }

    private static void fill(final long[] into, final SortedLatencies sorted, final long n)
    {
        for (int i = 0; i < PERCENTILES.length; i++)
        {
            into[i] = percentile(sorted, n, PERCENTILES[i]);
        }
    }

    /** Division that yields 0 where LoadGen would produce inf or nan. */
    private static double ratio(final double numerator, final double denominator)
    {
        final double r = numerator / denominator;
        return Double.isFinite(r) ? r : 0.0;
    }

    /** {@code sample_count - 1} as LoadGen's size_t arithmetic, except 0 instead of 2^64 - 1 for no samples. */
    private double sampleCountMinusOne()
    {
        return sampleCount > 0 ? (double)(sampleCount - 1) : 0.0;
    }

    /**
     * @return the fixed reported percentiles (0.50 ... 0.999), a copy.
     */
    public static double[] percentiles()
    {
        return PERCENTILES.clone();
    }

    /**
     * @param percentile one of {@link #percentiles()}, e.g. 0.99.
     * @return its index, for {@link #sampleLatencyPercentileNs(int)}.
     * @throws IllegalArgumentException for a percentile that is not reported.
     */
    public static int percentileIndex(final double percentile)
    {
        for (int i = 0; i < PERCENTILES.length; i++)
        {
            if (Math.abs(PERCENTILES[i] - percentile) < 1e-9)
            {
                return i;
            }
        }
        throw new IllegalArgumentException("percentile " + percentile + " is not reported; reported: "
            + java.util.Arrays.toString(PERCENTILES));
    }

    /**
     * @return SUT name.
     */
    public String sutName()
    {
        return sutName;
    }

    /**
     * @return the effective settings.
     */
    public EffectiveSettings settings()
    {
        return settings;
    }

    /**
     * @return the measured result.
     */
    public PerformanceResult result()
    {
        return result;
    }

    /**
     * @return number of sample latencies.
     */
    public long sampleCount()
    {
        return sampleCount;
    }

    /**
     * @return {@code result_query_count}: queries issued, or 0 when no sample completed (LoadGen sets it after its
     *         early return).
     */
    public long queryCount()
    {
        return queryCount;
    }

    /**
     * @return Server: samples with latency above the target ({@code >= target + 1}).
     */
    public long overlatencyQueryCount()
    {
        return overlatencyQueryCount;
    }

    /**
     * @return smallest sample latency.
     */
    public long sampleLatencyMinNs()
    {
        return sampleLatencyMinNs;
    }

    /**
     * @return largest sample latency.
     */
    public long sampleLatencyMaxNs()
    {
        return sampleLatencyMaxNs;
    }

    /**
     * @return integer mean of the sample latencies.
     */
    public long sampleLatencyMeanNs()
    {
        return sampleLatencyMeanNs;
    }

    /**
     * @return sample latency at the target percentile.
     */
    public long targetSampleLatencyNs()
    {
        return targetSampleLatencyNs;
    }

    /**
     * @param i index into {@link #percentiles()}.
     * @return sample latency at that percentile.
     */
    public long sampleLatencyPercentileNs(final int i)
    {
        return sampleLatencyPercentilesNs[i];
    }

    /**
     * @return MultiStream: smallest query latency.
     */
    public long queryLatencyMinNs()
    {
        return queryLatencyMinNs;
    }

    /**
     * @return MultiStream: largest query latency.
     */
    public long queryLatencyMaxNs()
    {
        return queryLatencyMaxNs;
    }

    /**
     * @return MultiStream: integer mean query latency.
     */
    public long queryLatencyMeanNs()
    {
        return queryLatencyMeanNs;
    }

    /**
     * @return MultiStream: query latency at the target percentile.
     */
    public long targetQueryLatencyNs()
    {
        return targetQueryLatencyNs;
    }

    /**
     * @param i index into {@link #percentiles()}.
     * @return MultiStream: query latency at that percentile.
     */
    public long queryLatencyPercentileNs(final int i)
    {
        return queryLatencyPercentilesNs[i];
    }

    /**
     * @return token mode: sum of valid token counts.
     */
    public long tokenCount()
    {
        return tokenCount;
    }

    /**
     * @return token mode: smallest TTFT.
     */
    public long firstTokenMinNs()
    {
        return firstTokenMinNs;
    }

    /**
     * @return token mode: largest TTFT.
     */
    public long firstTokenMaxNs()
    {
        return firstTokenMaxNs;
    }

    /**
     * @return token mode: TTFT sum / sample count.
     */
    public long firstTokenMeanNs()
    {
        return firstTokenMeanNs;
    }

    /**
     * @return token mode: TTFT at the target percentile.
     */
    public long targetFirstTokenNs()
    {
        return targetFirstTokenNs;
    }

    /**
     * @param i index into {@link #percentiles()}.
     * @return token mode: TTFT at that percentile.
     */
    public long firstTokenPercentileNs(final int i)
    {
        return firstTokenPercentilesNs[i];
    }

    /**
     * @return token mode: smallest TPOT.
     */
    public long timePerOutputTokenMinNs()
    {
        return timePerOutputTokenMinNs;
    }

    /**
     * @return token mode: largest TPOT.
     */
    public long timePerOutputTokenMaxNs()
    {
        return timePerOutputTokenMaxNs;
    }

    /**
     * @return token mode: TPOT sum / sample count.
     */
    public long timePerOutputTokenMeanNs()
    {
        return timePerOutputTokenMeanNs;
    }

    /**
     * @return token mode: TPOT at the target percentile.
     */
    public long targetTimePerOutputTokenNs()
    {
        return targetTimePerOutputTokenNs;
    }

    /**
     * @param i index into {@link #percentiles()}.
     * @return token mode: TPOT at that percentile.
     */
    public long timePerOutputTokenPercentileNs(final int i)
    {
        return timePerOutputTokenPercentilesNs[i];
    }

    /**
     * @return SingleStream {@code result_qps_with_loadgen_overhead}: (samples - 1) / final query issue time.
     */
    public double qpsWithLoadgenOverhead()
    {
        return ratio(sampleCountMinusOne(), result.finalQueryIssuedTimeSeconds());
    }

    /**
     * @return SingleStream {@code result_qps_without_loadgen_overhead}: 1 / mean latency in seconds.
     */
    public double qpsWithoutLoadgenOverhead()
    {
        return ratio(1.0, sampleLatencyMeanNs / 1e9);
    }

    /**
     * @return Server {@code result_scheduled_samples_per_sec}: (samples - 1) / final query scheduled time.
     */
    public double scheduledSamplesPerSecond()
    {
        return ratio(sampleCountMinusOne(), result.finalQueryScheduledTimeSeconds());
    }

    /**
     * @return Server {@code result_completed_samples_per_sec}: (samples - 1) / final query completion time.
     */
    public double completedSamplesPerSecond()
    {
        return ratio(sampleCountMinusOne(), result.finalQueryAllSamplesDoneSeconds());
    }

    /**
     * @return JLoadGen's goodput: completed samples (failed ones left out) / the time from the start of issuing to
     *         the last completion, in samples per second; 0 when nothing completed.
     */
    public double goodputSamplesPerSecond()
    {
        return ratio((double)end.samplesCompleted(), result.finalQueryAllSamplesDoneSeconds());
    }

    /**
     * @return Offline {@code result_samples_per_second}: samples / max latency.
     */
    public double samplesPerSecond()
    {
        return ratio((double)sampleCount, result.maxLatencySeconds());
    }

    /**
     * @return Offline {@code result_tokens_per_second}: tokens / max latency.
     */
    public double tokensPerSecond()
    {
        return ratio((double)tokenCount, result.maxLatencySeconds());
    }

    /**
     * @return {@code result_completed_tokens_per_second}: tokens / final query completion time.
     */
    public double completedTokensPerSecond()
    {
        return ratio((double)tokenCount, result.finalQueryAllSamplesDoneSeconds());
    }

    /**
     * @return {@code result_token_throughput_with_loadgen_overhead}: tokens / final query issue time.
     */
    public double tokenThroughputWithLoadgenOverhead()
    {
        return ratio((double)tokenCount, result.finalQueryIssuedTimeSeconds());
    }

    /**
     * @return {@code result_token_throughput}: tokens / (mean latency in <b>ns</b> * samples), an integer
     *         product, as LoadGen computes it [LG quirk: not seconds].
     */
    public double tokenThroughput()
    {
        return ratio((double)tokenCount, (double)(sampleLatencyMeanNs * sampleCount));
    }

    /**
     * @return SingleStream summary "TPS w/ loadgen overhead": tokens / final query issue time.
     */
    public double tokensPerSecondWithLoadgenOverhead()
    {
        return tokenThroughputWithLoadgenOverhead();
    }

    /**
     * @return SingleStream summary "TPS w/o loadgen overhead": tokens / (mean latency in seconds * samples).
     */
    public double tokensPerSecondWithoutLoadgenOverhead()
    {
        return ratio((double)tokenCount, sampleLatencyMeanNs / 1e9 * (double)sampleCount);
    }

    /**
     * @return Offline {@code result_inferred_tokens_per_second}: factor * samples (integer product) / max latency.
     */
    public double inferredTokensPerSecond()
    {
        return ratio((double)(settings.tokenLatencyScalingFactor * sampleCount), result.maxLatencySeconds());
    }

    /**
     * @return Server {@code result_inferred_completed_tokens_per_second}: (samples - 1) * factor (integer
     *         product) / final query completion time.
     */
    public double inferredCompletedTokensPerSecond()
    {
        final long samplesMinusOne = sampleCount > 0 ? sampleCount - 1 : 0;
        return ratio((double)(samplesMinusOne * settings.tokenLatencyScalingFactor),
            result.finalQueryAllSamplesDoneSeconds());
    }

    /**
     * @return {@code result_min_duration_met}.
     */
    public boolean minDurationMet()
    {
        return minDurationMet;
    }

    /**
     * @return the minimum-duration recommendation, empty when met.
     */
    public String minDurationRecommendation()
    {
        return minDurationRecommendation;
    }

    /**
     * @return {@code result_min_queries_met}: queries and samples both reached their minimums.
     */
    public boolean minQueriesMet()
    {
        return minQueriesMet;
    }

    /**
     * @return whether the scenario has a performance constraint (Server).
     */
    public boolean hasPerfConstraints()
    {
        return settings.scenario == TestScenario.SERVER;
    }

    /**
     * @return {@code result_perf_constraints_met} (always true outside Server).
     */
    public boolean perfConstraintsMet()
    {
        return perfConstraintsMet;
    }

    /**
     * @return the performance-constraint recommendation, empty when met.
     */
    public String perfConstraintsRecommendation()
    {
        return perfConstraintsRecommendation;
    }

    /**
     * @return {@code early_stopping_met}.
     */
    public boolean earlyStoppingMet()
    {
        return earlyStoppingMet;
    }

    /**
     * @return the early-stopping recommendation (without token latencies).
     */
    public String earlyStoppingRecommendation()
    {
        return earlyStoppingRecommendation;
    }

    /**
     * @return token mode: the TTFT early-stopping recommendation (empty if TPOT failed first).
     */
    public String earlyStoppingTtftRecommendation()
    {
        return earlyStoppingTtftRecommendation;
    }

    /**
     * @return token mode: the TPOT early-stopping recommendation.
     */
    public String earlyStoppingTpotRecommendation()
    {
        return earlyStoppingTpotRecommendation;
    }

    /**
     * @return {@code early_stopping_latency_ss} (0 when not computed).
     */
    public long earlyStoppingLatencySsNs()
    {
        return earlyStoppingLatencySsNs;
    }

    /**
     * @return {@code early_stopping_latency_ms} (0 when not computed).
     */
    public long earlyStoppingLatencyMsNs()
    {
        return earlyStoppingLatencyMsNs;
    }

    /**
     * @return how the series ended.
     */
    public SeriesEnd end()
    {
        return end;
    }

    /**
     * @return {@code result_validity == "VALID"}: all four of LoadGen's checks passed, and (JLoadGen's check, which
     *         LoadGen needs not make because it waits forever) the series ran to its end with every issued sample
     *         completed.
     */
    public boolean valid()
    {
        return minDurationMet && minQueriesMet && perfConstraintsMet && earlyStoppingMet && end.normal();
    }

    /**
     * @return whether LoadGen's recommendations apply: they assume a series that ran to its end, so a series the
     *         engine cut short shows only why it was cut short.
     */
    public boolean recommendationsApply()
    {
        return !end.cutShort();
    }

    /**
     * @return {@code result_invalid_reason} as LoadGen builds it (each part followed by a space, newlines turned
     *         into spaces), followed by {@link SeriesEnd#explanation()} when the series did not end normally (alone
     *         when it was cut short); empty when valid.
     */
    public String invalidReason()
    {
        if (valid())
        {
            return "";
        }
        final StringBuilder reason = new StringBuilder();
        if (recommendationsApply())
        {
            if (!perfConstraintsMet)
            {
                reason.append(perfConstraintsRecommendation).append(' ');
            }
            if (!minDurationMet)
            {
                reason.append(minDurationRecommendation).append(' ');
            }
            if (!minQueriesMet)
            {
                reason.append("The test exited early, before enough queries were issued.");
            }
        }
        if (!end.normal())
        {
            if (!reason.isEmpty() && reason.charAt(reason.length() - 1) != ' ')
            {
                reason.append(' ');
            }
            reason.append(end.explanation());
        }
        return reason.toString().replace('\n', ' ');
    }
}
