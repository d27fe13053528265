package org.jloadgen.config;

import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.clib.CFormat;
import org.jloadgen.clib.CNumbers;

/**
 * The settings a run actually uses: LoadGen's {@code TestSettingsInternal} (spec §2.4;
 * loadgen/test_settings_internal.cc, the TestSettingsInternal constructor), derived from the requested
 * {@link TestSettings} (after audit.config) and the QSL's reported counts. Immutable; every value is logged as an
 * {@code effective_*} key. Public final fields because this is a plain snapshot read by the generator, the issue loop,
 * the results and the loggers.
 */
public final class EffectiveSettings
{
    /** Scenario of the run ({@code effective_scenario}). */
    public final TestScenario scenario;
    /** Test mode ({@code effective_test_mode}). */
    public final TestMode mode;
    /** Samples per query: 1, the MultiStream count, or the size of the single Offline query. */
    public final long samplesPerQuery;
    /** Expected or scheduled query rate; sizes query generation and the Server schedule. */
    public final double targetQps;
    /** Server latency bound; 0 in the other scenarios. */
    public final long targetLatencyNs;
    /** Percentile the latency bound applies to, as a fraction (Offline: 0.99, unused). */
    public final double targetLatencyPercentile;
    /** Server: outstanding-query limit, 0 = unlimited; 1 in the other scenarios. */
    public final long maxAsyncQueries;
    /** Duration queries are generated and issued for; 0 in Offline. */
    public final long targetDurationMs;
    /** Minimum run duration. */
    public final long minDurationMs;
    /** Maximum run duration; 0 = unlimited. */
    public final long maxDurationMs;
    /** Minimum queries (1 in Offline; rounded for SingleStream equal issue). */
    public final long minQueryCount;
    /** Maximum queries; 0 = unlimited. */
    public final long maxQueryCount;
    /** {@code minQueryCount * samplesPerQuery}, modulo 2^64. */
    public final long minSampleCount;
    /** Seed of the loaded-set shuffle (unsigned). */
    public final long qslRngSeed;
    /** Seed of the sample choice (unsigned). */
    public final long sampleIndexRngSeed;
    /** Seed of the Server schedule (unsigned). */
    public final long scheduleRngSeed;
    /** Seed of the accuracy-log offset (unsigned). */
    public final long accuracyLogRngSeed;
    /** Probability of logging a performance-mode response. */
    public final double accuracyLogProbability;
    /** If non-zero, responses to log in performance mode. */
    public final long accuracyLogSamplingTarget;
    /** Print run start and stop timestamps. */
    public final boolean printTimestamps;
    /** Audit: issue each sample at most once. */
    public final boolean performanceIssueUnique;
    /** Audit: issue the same sample in every query. */
    public final boolean performanceIssueSame;
    /** Audit: loaded-set index of the repeated sample. */
    public final long performanceIssueSameIndex;
    /** Performance set size: the override if non-zero, else the QSL's count. */
    public final long performanceSampleCount;
    /** Accuracy set size: the override if non-zero, else the QSL's total. */
    public final long accuracySampleCount;
    /** Equal-issue mode. */
    public final boolean sampleConcatenatePermutation;
    /** Server: merge due queries into one IssueQuery call. */
    public final boolean serverCoalesceQueries;
    /** FindPeakPerformance: decimals of QPS precision. */
    public final int serverFindPeakQpsDecimalsOfPrecision;
    /** FindPeakPerformance: upper bound step. */
    public final double serverFindPeakQpsBoundaryStepSize;
    /** Server: registered issue threads; 0 = the test thread. */
    public final long serverNumIssueQueryThreads;
    /** Measure TTFT and TPOT. */
    public final boolean useTokenLatencies;
    /** Server TTFT bound. */
    public final long serverTtftLatencyNs;
    /** Server TPOT bound. */
    public final long serverTpotLatencyNs;
    /** Infer token throughput from sample counts. */
    public final boolean inferTokenLatencies;
    /** Tokens per sample for inferred token metrics. */
    public final long tokenLatencyScalingFactor;

    /** {@code error_invalid_test_settings} messages LoadGen logs while deriving these settings. */
    public final List<String> errors;

    /**
     * Derives the effective settings exactly as LoadGen's {@code TestSettingsInternal} constructor.
     *
     * @param requested                 requested settings (after audit.config and test05 overrides).
     * @param qslTotalSampleCount       {@code qsl.TotalSampleCount()}.
     * @param qslPerformanceSampleCount {@code qsl.PerformanceSampleCount()}.
     */
    public EffectiveSettings(
        final TestSettings requested, final long qslTotalSampleCount, final long qslPerformanceSampleCount)
    {
        final List<String> errors = new ArrayList<>();
        scenario = requested.scenario();
        mode = requested.mode();

        long spq = 1;
        double qps = 1;
        long maxAsync = 0;
        long targetLatency = 0;
        double percentile;
        switch (scenario)
        {
            case SINGLE_STREAM ->
            {
                qps = 1e9 / requested.singleStreamExpectedLatencyNs();
                maxAsync = 1;
                percentile = requested.singleStreamTargetLatencyPercentile();
            }
            case MULTI_STREAM ->
            {
                qps = 1e9 / requested.multiStreamExpectedLatencyNs();
                maxAsync = 1;
                percentile = requested.multiStreamTargetLatencyPercentile();
                spq = requested.multiStreamSamplesPerQuery();
            }
            case SERVER ->
            {
                if (requested.serverTargetQps() >= 0.0)
                {
                    qps = requested.serverTargetQps();
                }
                else
                {
                    errors.add("Invalid value for server_target_qps requested. requested: "
                        + CFormat.g(requested.serverTargetQps()) + " using: " + 1);
                }
                targetLatency = requested.serverTargetLatencyNs();
                percentile = requested.serverTargetLatencyPercentile();
                maxAsync = requested.serverMaxAsyncQueries();
            }
            case OFFLINE ->
            {
                percentile = 0.99;
                if (requested.offlineExpectedQps() >= 0.0)
                {
                    qps = requested.offlineExpectedQps();
                }
                else
                {
                    errors.add("Invalid value for offline_expected_qps requested. requested: "
                        + CFormat.g(requested.offlineExpectedQps()) + " using: " + 1);
                }
                maxAsync = 1;
            }
            default -> throw new IllegalStateException("unknown scenario " + scenario);
        }

        final long psc = requested.performanceSampleCountOverride() != 0
            ? requested.performanceSampleCountOverride() : qslPerformanceSampleCount;
        final long asc = requested.accuracySampleCountOverride() != 0
            ? requested.accuracySampleCountOverride() : qslTotalSampleCount;

        long targetDuration = requested.minDurationMs();
        long minQueries = requested.minQueryCount();
        if (scenario == TestScenario.OFFLINE)
        {
            // Evaluated left to right in double, then converted to uint64_t, as LoadGen does.
            final long targetSampleCount =
                CNumbers.doubleToUint64(1.1 * (requested.minDurationMs() / 1000.0) * qps);
            spq = requested.performanceIssueUnique()
                ? psc : maxUnsigned(requested.minQueryCount(), targetSampleCount);
            minQueries = 1;
            targetDuration = 0;
        }
        if (scenario == TestScenario.SINGLE_STREAM && requested.sampleConcatenatePermutation())
        {
            final long expected = CNumbers.doubleToUint64(2.0 * (targetDuration / 1000.0) * qps);
            minQueries = maxUnsigned(minQueries, expected);
            if (qslPerformanceSampleCount == 0)
            {
                // LoadGen divides by zero here; report instead of crashing.
                errors.add("sample_concatenate_permutation needs a non-zero QSL performance sample count");
            }
            else
            {
                // Uses the QSL-reported count and adds a whole extra pass when already a multiple [LG quirk].
                minQueries += qslPerformanceSampleCount - Long.remainderUnsigned(minQueries, qslPerformanceSampleCount);
            }
        }

        samplesPerQuery = spq;
        targetQps = qps;
        maxAsyncQueries = maxAsync;
        targetLatencyNs = targetLatency;
        targetLatencyPercentile = percentile;
        targetDurationMs = targetDuration;
        minDurationMs = requested.minDurationMs();
        maxDurationMs = requested.maxDurationMs();
        minQueryCount = minQueries;
        maxQueryCount = requested.maxQueryCount();
        minSampleCount = minQueries * spq;
        qslRngSeed = requested.qslRngSeed();
        sampleIndexRngSeed = requested.sampleIndexRngSeed();
        scheduleRngSeed = requested.scheduleRngSeed();
        accuracyLogRngSeed = requested.accuracyLogRngSeed();
        accuracyLogProbability = requested.accuracyLogProbability();
        accuracyLogSamplingTarget = requested.accuracyLogSamplingTarget();
        printTimestamps = requested.printTimestamps();
        performanceIssueUnique = requested.performanceIssueUnique();
        performanceIssueSame = requested.performanceIssueSame();
        performanceIssueSameIndex = requested.performanceIssueSameIndex();
        performanceSampleCount = psc;
        accuracySampleCount = asc;
        sampleConcatenatePermutation = requested.sampleConcatenatePermutation();
        serverCoalesceQueries = requested.serverCoalesceQueries();
        serverFindPeakQpsDecimalsOfPrecision = requested.serverFindPeakQpsDecimalsOfPrecision();
        serverFindPeakQpsBoundaryStepSize = requested.serverFindPeakQpsBoundaryStepSize();
        serverNumIssueQueryThreads = requested.serverNumIssueQueryThreads();
        useTokenLatencies = requested.useTokenLatencies();
        serverTtftLatencyNs = requested.serverTtftLatencyNs();
        serverTpotLatencyNs = requested.serverTpotLatencyNs();
        inferTokenLatencies = requested.inferTokenLatencies();
        tokenLatencyScalingFactor = requested.tokenLatencyScalingFactor();

        if (performanceIssueSame && Long.compareUnsigned(performanceIssueSameIndex, psc) >= 0)
        {
            errors.add("Sample Idx to be repeated in performance_issue_same mode cannot be greater than loaded "
                + "performance_sample_count. performance_issue_same_index: "
                + Long.toUnsignedString(performanceIssueSameIndex)
                + " performance_sample_count: " + Long.toUnsignedString(psc));
        }
        if (performanceIssueUnique && performanceIssueSame)
        {
            // C++ streams print bool as 1/0.
            errors.add("Performance_issue_unique and performance_issue_same, both cannot be true at the same "
                + "time. performance_issue_unique: 1 performance_issue_same: 1");
        }
        this.errors = List.copyOf(errors);
    }

    private static long maxUnsigned(final long a, final long b)
    {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private EffectiveSettings(final EffectiveSettings base, final double targetQps)
    {
        scenario = base.scenario;
        mode = base.mode;
        samplesPerQuery = base.samplesPerQuery;
        this.targetQps = targetQps;
        targetLatencyNs = base.targetLatencyNs;
        targetLatencyPercentile = base.targetLatencyPercentile;
        maxAsyncQueries = base.maxAsyncQueries;
        targetDurationMs = base.targetDurationMs;
        minDurationMs = base.minDurationMs;
        maxDurationMs = base.maxDurationMs;
        minQueryCount = base.minQueryCount;
        maxQueryCount = base.maxQueryCount;
        minSampleCount = base.minSampleCount;
        qslRngSeed = base.qslRngSeed;
        sampleIndexRngSeed = base.sampleIndexRngSeed;
        scheduleRngSeed = base.scheduleRngSeed;
        accuracyLogRngSeed = base.accuracyLogRngSeed;
        accuracyLogProbability = base.accuracyLogProbability;
        accuracyLogSamplingTarget = base.accuracyLogSamplingTarget;
        printTimestamps = base.printTimestamps;
        performanceIssueUnique = base.performanceIssueUnique;
        performanceIssueSame = base.performanceIssueSame;
        performanceIssueSameIndex = base.performanceIssueSameIndex;
        performanceSampleCount = base.performanceSampleCount;
        accuracySampleCount = base.accuracySampleCount;
        sampleConcatenatePermutation = base.sampleConcatenatePermutation;
        serverCoalesceQueries = base.serverCoalesceQueries;
        serverFindPeakQpsDecimalsOfPrecision = base.serverFindPeakQpsDecimalsOfPrecision;
        serverFindPeakQpsBoundaryStepSize = base.serverFindPeakQpsBoundaryStepSize;
        serverNumIssueQueryThreads = base.serverNumIssueQueryThreads;
        useTokenLatencies = base.useTokenLatencies;
        serverTtftLatencyNs = base.serverTtftLatencyNs;
        serverTpotLatencyNs = base.serverTpotLatencyNs;
        inferTokenLatencies = base.inferTokenLatencies;
        tokenLatencyScalingFactor = base.tokenLatencyScalingFactor;
        errors = List.of();
    }

    /**
     * @param qps a new Server target QPS (FindPeakPerformance).
     * @return a copy of these settings with that target.
     */
    public EffectiveSettings withTargetQps(final double qps)
    {
        return new EffectiveSettings(this, qps);
    }
}
