package org.jloadgen.api;

/**
 * Everything that configures a test, field for field as LoadGen 6.0.17's {@code mlperf::TestSettings}
 * (spec §2.2; loadgen/test_settings.h, TestSettings), with LoadGen's defaults and units. Latencies are in ns, durations
 * in ms, percentiles are fractions (0.99), seeds are unsigned 64-bit values held in a {@code long}.
 * <p>
 * Accessors are fluent in the Aeron {@code Context} style: {@code settings.minDurationMs()} reads,
 * {@code settings.minDurationMs(600_000)} writes and returns {@code this}. Instances are mutable and not
 * thread-safe; the engine takes a {@link #copy()} when a test starts.
 */
public final class TestSettings
{
    private TestScenario scenario = TestScenario.SINGLE_STREAM;
    private TestMode mode = TestMode.PERFORMANCE_ONLY;
    private double singleStreamExpectedLatencyNs = 1_000_000;
    private double singleStreamTargetLatencyPercentile = 0.90;
    private double multiStreamExpectedLatencyNs = 8_000_000;
    private double multiStreamTargetLatencyPercentile = 0.99;
    private long multiStreamSamplesPerQuery = 8;
    private double serverTargetQps = 1;
    private long serverTargetLatencyNs = 100_000_000;
    private double serverTargetLatencyPercentile = 0.99;
    private boolean serverCoalesceQueries = false;
    private int serverFindPeakQpsDecimalsOfPrecision = 1;
    private double serverFindPeakQpsBoundaryStepSize = 1;
    private long serverMaxAsyncQueries = 0;
    private long serverNumIssueQueryThreads = 0;
    private double offlineExpectedQps = 1;
    private boolean sampleConcatenatePermutation = false;
    private long minDurationMs = 10_000;
    private long maxDurationMs = 0;
    private long minQueryCount = 100;
    private long maxQueryCount = 0;
    private long qslRngSeed = 0;
    private long sampleIndexRngSeed = 0;
    private long scheduleRngSeed = 0;
    private long accuracyLogRngSeed = 0;
    private double accuracyLogProbability = 0.0;
    private long accuracyLogSamplingTarget = 0;
    private boolean test05 = false;
    private long test05QslRngSeed = 0;
    private long test05SampleIndexRngSeed = 0;
    private long test05ScheduleRngSeed = 0;
    private boolean printTimestamps = false;
    private boolean performanceIssueUnique = false;
    private boolean performanceIssueSame = false;
    private long performanceIssueSameIndex = 0;
    private long performanceSampleCountOverride = 0;
    private long accuracySampleCountOverride = 0;
    private boolean useTokenLatencies = false;
    private long serverTtftLatencyNs = 100_000_000;
    private long serverTpotLatencyNs = 100_000_000;
    private boolean inferTokenLatencies = false;
    private long tokenLatencyScalingFactor = 0;

    /**
     * Settings with LoadGen's defaults.
     */
    public TestSettings()
    {
    }

    /**
     * @return an independent copy of these settings.
     */
    public TestSettings copy()
    {
        final TestSettings c = new TestSettings();
        c.scenario = scenario;
        c.mode = mode;
        c.singleStreamExpectedLatencyNs = singleStreamExpectedLatencyNs;
        c.singleStreamTargetLatencyPercentile = singleStreamTargetLatencyPercentile;
        c.multiStreamExpectedLatencyNs = multiStreamExpectedLatencyNs;
        c.multiStreamTargetLatencyPercentile = multiStreamTargetLatencyPercentile;
        c.multiStreamSamplesPerQuery = multiStreamSamplesPerQuery;
        c.serverTargetQps = serverTargetQps;
        c.serverTargetLatencyNs = serverTargetLatencyNs;
        c.serverTargetLatencyPercentile = serverTargetLatencyPercentile;
        c.serverCoalesceQueries = serverCoalesceQueries;
        c.serverFindPeakQpsDecimalsOfPrecision = serverFindPeakQpsDecimalsOfPrecision;
        c.serverFindPeakQpsBoundaryStepSize = serverFindPeakQpsBoundaryStepSize;
        c.serverMaxAsyncQueries = serverMaxAsyncQueries;
        c.serverNumIssueQueryThreads = serverNumIssueQueryThreads;
        c.offlineExpectedQps = offlineExpectedQps;
        c.sampleConcatenatePermutation = sampleConcatenatePermutation;
        c.minDurationMs = minDurationMs;
        c.maxDurationMs = maxDurationMs;
        c.minQueryCount = minQueryCount;
        c.maxQueryCount = maxQueryCount;
        c.qslRngSeed = qslRngSeed;
        c.sampleIndexRngSeed = sampleIndexRngSeed;
        c.scheduleRngSeed = scheduleRngSeed;
        c.accuracyLogRngSeed = accuracyLogRngSeed;
        c.accuracyLogProbability = accuracyLogProbability;
        c.accuracyLogSamplingTarget = accuracyLogSamplingTarget;
        c.test05 = test05;
        c.test05QslRngSeed = test05QslRngSeed;
        c.test05SampleIndexRngSeed = test05SampleIndexRngSeed;
        c.test05ScheduleRngSeed = test05ScheduleRngSeed;
        c.printTimestamps = printTimestamps;
        c.performanceIssueUnique = performanceIssueUnique;
        c.performanceIssueSame = performanceIssueSame;
        c.performanceIssueSameIndex = performanceIssueSameIndex;
        c.performanceSampleCountOverride = performanceSampleCountOverride;
        c.accuracySampleCountOverride = accuracySampleCountOverride;
        c.useTokenLatencies = useTokenLatencies;
        c.serverTtftLatencyNs = serverTtftLatencyNs;
        c.serverTpotLatencyNs = serverTpotLatencyNs;
        c.inferTokenLatencies = inferTokenLatencies;
        c.tokenLatencyScalingFactor = tokenLatencyScalingFactor;
        return c;
    }

    /**
     * @return scenario to run; set programmatically only ({@code scenario}).
     */
    public TestScenario scenario()
    {
        return scenario;
    }

    /**
     * @param value scenario to run; set programmatically only ({@code scenario}).
     * @return this.
     */
    public TestSettings scenario(final TestScenario value)
    {
        this.scenario = value;
        return this;
    }

    /**
     * @return test mode ({@code mode}).
     */
    public TestMode mode()
    {
        return mode;
    }

    /**
     * @param value test mode ({@code mode}).
     * @return this.
     */
    public TestSettings mode(final TestMode value)
    {
        this.mode = value;
        return this;
    }

    /**
     * @return expected SingleStream latency, used only to size query generation ({@code
     *         single_stream_expected_latency_ns}).
     */
    public double singleStreamExpectedLatencyNs()
    {
        return singleStreamExpectedLatencyNs;
    }

    /**
     * @param value expected SingleStream latency, used only to size query generation ({@code
     *              single_stream_expected_latency_ns}).
     * @return this.
     */
    public TestSettings singleStreamExpectedLatencyNs(final double value)
    {
        this.singleStreamExpectedLatencyNs = value;
        return this;
    }

    /**
     * @return singleStream target percentile as a fraction ({@code single_stream_target_latency_percentile}).
     */
    public double singleStreamTargetLatencyPercentile()
    {
        return singleStreamTargetLatencyPercentile;
    }

    /**
     * @param value singleStream target percentile as a fraction ({@code single_stream_target_latency_percentile}).
     * @return this.
     */
    public TestSettings singleStreamTargetLatencyPercentile(final double value)
    {
        this.singleStreamTargetLatencyPercentile = value;
        return this;
    }

    /**
     * @return expected MultiStream query latency, used only to size query generation ({@code
     *         multi_stream_expected_latency_ns}).
     */
    public double multiStreamExpectedLatencyNs()
    {
        return multiStreamExpectedLatencyNs;
    }

    /**
     * @param value expected MultiStream query latency, used only to size query generation ({@code
     *              multi_stream_expected_latency_ns}).
     * @return this.
     */
    public TestSettings multiStreamExpectedLatencyNs(final double value)
    {
        this.multiStreamExpectedLatencyNs = value;
        return this;
    }

    /**
     * @return multiStream target percentile as a fraction ({@code multi_stream_target_latency_percentile}).
     */
    public double multiStreamTargetLatencyPercentile()
    {
        return multiStreamTargetLatencyPercentile;
    }

    /**
     * @param value multiStream target percentile as a fraction ({@code multi_stream_target_latency_percentile}).
     * @return this.
     */
    public TestSettings multiStreamTargetLatencyPercentile(final double value)
    {
        this.multiStreamTargetLatencyPercentile = value;
        return this;
    }

    /**
     * @return samples per MultiStream query ({@code multi_stream_samples_per_query}).
     */
    public long multiStreamSamplesPerQuery()
    {
        return multiStreamSamplesPerQuery;
    }

    /**
     * @param value samples per MultiStream query ({@code multi_stream_samples_per_query}).
     * @return this.
     */
    public TestSettings multiStreamSamplesPerQuery(final long value)
    {
        this.multiStreamSamplesPerQuery = value;
        return this;
    }

    /**
     * @return server Poisson arrival rate ({@code server_target_qps}).
     */
    public double serverTargetQps()
    {
        return serverTargetQps;
    }

    /**
     * @param value server Poisson arrival rate ({@code server_target_qps}).
     * @return this.
     */
    public TestSettings serverTargetQps(final double value)
    {
        this.serverTargetQps = value;
        return this;
    }

    /**
     * @return server latency bound at the target percentile ({@code server_target_latency_ns}).
     */
    public long serverTargetLatencyNs()
    {
        return serverTargetLatencyNs;
    }

    /**
     * @param value server latency bound at the target percentile ({@code server_target_latency_ns}).
     * @return this.
     */
    public TestSettings serverTargetLatencyNs(final long value)
    {
        this.serverTargetLatencyNs = value;
        return this;
    }

    /**
     * @return server target percentile as a fraction ({@code server_target_latency_percentile}).
     */
    public double serverTargetLatencyPercentile()
    {
        return serverTargetLatencyPercentile;
    }

    /**
     * @param value server target percentile as a fraction ({@code server_target_latency_percentile}).
     * @return this.
     */
    public TestSettings serverTargetLatencyPercentile(final double value)
    {
        this.serverTargetLatencyPercentile = value;
        return this;
    }

    /**
     * @return merge queries that are already due into one IssueQuery call ({@code server_coalesce_queries}).
     */
    public boolean serverCoalesceQueries()
    {
        return serverCoalesceQueries;
    }

    /**
     * @param value merge queries that are already due into one IssueQuery call ({@code server_coalesce_queries}).
     * @return this.
     */
    public TestSettings serverCoalesceQueries(final boolean value)
    {
        this.serverCoalesceQueries = value;
        return this;
    }

    /**
     * @return findPeakPerformance: decimals of QPS precision that end the binary search ({@code
     *         server_find_peak_qps_decimals_of_precision}).
     */
    public int serverFindPeakQpsDecimalsOfPrecision()
    {
        return serverFindPeakQpsDecimalsOfPrecision;
    }

    /**
     * @param value findPeakPerformance: decimals of QPS precision that end the binary search ({@code
     *              server_find_peak_qps_decimals_of_precision}).
     * @return this.
     */
    public TestSettings serverFindPeakQpsDecimalsOfPrecision(final int value)
    {
        this.serverFindPeakQpsDecimalsOfPrecision = value;
        return this;
    }

    /**
     * @return findPeakPerformance: the upper bound is lower * (1 + step) ({@code
     *         server_find_peak_qps_boundary_step_size}).
     */
    public double serverFindPeakQpsBoundaryStepSize()
    {
        return serverFindPeakQpsBoundaryStepSize;
    }

    /**
     * @param value findPeakPerformance: the upper bound is lower * (1 + step) ({@code
     *              server_find_peak_qps_boundary_step_size}).
     * @return this.
     */
    public TestSettings serverFindPeakQpsBoundaryStepSize(final double value)
    {
        this.serverFindPeakQpsBoundaryStepSize = value;
        return this;
    }

    /**
     * @return server: end the run when more queries than this are outstanding; 0 = unlimited ({@code
     *         server_max_async_queries}).
     */
    public long serverMaxAsyncQueries()
    {
        return serverMaxAsyncQueries;
    }

    /**
     * @param value server: end the run when more queries than this are outstanding; 0 = unlimited ({@code
     *              server_max_async_queries}).
     * @return this.
     */
    public TestSettings serverMaxAsyncQueries(final long value)
    {
        this.serverMaxAsyncQueries = value;
        return this;
    }

    /**
     * @return server: number of registered issue threads; 0 = issue from the test thread ({@code
     *         server_num_issue_query_threads}).
     */
    public long serverNumIssueQueryThreads()
    {
        return serverNumIssueQueryThreads;
    }

    /**
     * @param value server: number of registered issue threads; 0 = issue from the test thread ({@code
     *              server_num_issue_query_threads}).
     * @return this.
     */
    public TestSettings serverNumIssueQueryThreads(final long value)
    {
        this.serverNumIssueQueryThreads = value;
        return this;
    }

    /**
     * @return offline expected throughput, sizes the single query ({@code offline_expected_qps}).
     */
    public double offlineExpectedQps()
    {
        return offlineExpectedQps;
    }

    /**
     * @param value offline expected throughput, sizes the single query ({@code offline_expected_qps}).
     * @return this.
     */
    public TestSettings offlineExpectedQps(final double value)
    {
        this.offlineExpectedQps = value;
        return this;
    }

    /**
     * @return equal-issue mode: issue whole permutations of the loaded set ({@code sample_concatenate_permutation}).
     */
    public boolean sampleConcatenatePermutation()
    {
        return sampleConcatenatePermutation;
    }

    /**
     * @param value equal-issue mode: issue whole permutations of the loaded set ({@code
     *              sample_concatenate_permutation}).
     * @return this.
     */
    public TestSettings sampleConcatenatePermutation(final boolean value)
    {
        this.sampleConcatenatePermutation = value;
        return this;
    }

    /**
     * @return minimum test duration ({@code min_duration_ms}).
     */
    public long minDurationMs()
    {
        return minDurationMs;
    }

    /**
     * @param value minimum test duration ({@code min_duration_ms}).
     * @return this.
     */
    public TestSettings minDurationMs(final long value)
    {
        this.minDurationMs = value;
        return this;
    }

    /**
     * @return maximum test duration; 0 = unlimited ({@code max_duration_ms}).
     */
    public long maxDurationMs()
    {
        return maxDurationMs;
    }

    /**
     * @param value maximum test duration; 0 = unlimited ({@code max_duration_ms}).
     * @return this.
     */
    public TestSettings maxDurationMs(final long value)
    {
        this.maxDurationMs = value;
        return this;
    }

    /**
     * @return minimum number of queries ({@code min_query_count}).
     */
    public long minQueryCount()
    {
        return minQueryCount;
    }

    /**
     * @param value minimum number of queries ({@code min_query_count}).
     * @return this.
     */
    public TestSettings minQueryCount(final long value)
    {
        this.minQueryCount = value;
        return this;
    }

    /**
     * @return maximum number of queries; 0 = unlimited ({@code max_query_count}).
     */
    public long maxQueryCount()
    {
        return maxQueryCount;
    }

    /**
     * @param value maximum number of queries; 0 = unlimited ({@code max_query_count}).
     * @return this.
     */
    public TestSettings maxQueryCount(final long value)
    {
        this.maxQueryCount = value;
        return this;
    }

    /**
     * @return seed of the loaded-set shuffle (unsigned 64-bit; the low 32 bits seed mt19937) ({@code qsl_rng_seed}).
     */
    public long qslRngSeed()
    {
        return qslRngSeed;
    }

    /**
     * @param value seed of the loaded-set shuffle (unsigned 64-bit; the low 32 bits seed mt19937) ({@code
     *              qsl_rng_seed}).
     * @return this.
     */
    public TestSettings qslRngSeed(final long value)
    {
        this.qslRngSeed = value;
        return this;
    }

    /**
     * @return seed of the per-query sample choice (unsigned 64-bit) ({@code sample_index_rng_seed}).
     */
    public long sampleIndexRngSeed()
    {
        return sampleIndexRngSeed;
    }

    /**
     * @param value seed of the per-query sample choice (unsigned 64-bit) ({@code sample_index_rng_seed}).
     * @return this.
     */
    public TestSettings sampleIndexRngSeed(final long value)
    {
        this.sampleIndexRngSeed = value;
        return this;
    }

    /**
     * @return seed of the Server Poisson schedule (unsigned 64-bit) ({@code schedule_rng_seed}).
     */
    public long scheduleRngSeed()
    {
        return scheduleRngSeed;
    }

    /**
     * @param value seed of the Server Poisson schedule (unsigned 64-bit) ({@code schedule_rng_seed}).
     * @return this.
     */
    public TestSettings scheduleRngSeed(final long value)
    {
        this.scheduleRngSeed = value;
        return this;
    }

    /**
     * @return seed of the per-series accuracy-log offset (unsigned 64-bit) ({@code accuracy_log_rng_seed}).
     */
    public long accuracyLogRngSeed()
    {
        return accuracyLogRngSeed;
    }

    /**
     * @param value seed of the per-series accuracy-log offset (unsigned 64-bit) ({@code accuracy_log_rng_seed}).
     * @return this.
     */
    public TestSettings accuracyLogRngSeed(final long value)
    {
        this.accuracyLogRngSeed = value;
        return this;
    }

    /**
     * @return probability that a performance-mode response is copied to the accuracy log ({@code
     *         accuracy_log_probability}).
     */
    public double accuracyLogProbability()
    {
        return accuracyLogProbability;
    }

    /**
     * @param value probability that a performance-mode response is copied to the accuracy log ({@code
     *              accuracy_log_probability}).
     * @return this.
     */
    public TestSettings accuracyLogProbability(final double value)
    {
        this.accuracyLogProbability = value;
        return this;
    }

    /**
     * @return if non-zero, the expected number of responses to log in performance mode ({@code
     *         accuracy_log_sampling_target}).
     */
    public long accuracyLogSamplingTarget()
    {
        return accuracyLogSamplingTarget;
    }

    /**
     * @param value if non-zero, the expected number of responses to log in performance mode ({@code
     *              accuracy_log_sampling_target}).
     * @return this.
     */
    public TestSettings accuracyLogSamplingTarget(final long value)
    {
        this.accuracyLogSamplingTarget = value;
        return this;
    }

    /**
     * @return obsolete TEST05: replace the seeds with the test05 seeds ({@code test05}).
     */
    public boolean test05()
    {
        return test05;
    }

    /**
     * @param value obsolete TEST05: replace the seeds with the test05 seeds ({@code test05}).
     * @return this.
     */
    public TestSettings test05(final boolean value)
    {
        this.test05 = value;
        return this;
    }

    /**
     * @return tEST05 qsl seed ({@code test05_qsl_rng_seed}).
     */
    public long test05QslRngSeed()
    {
        return test05QslRngSeed;
    }

    /**
     * @param value tEST05 qsl seed ({@code test05_qsl_rng_seed}).
     * @return this.
     */
    public TestSettings test05QslRngSeed(final long value)
    {
        this.test05QslRngSeed = value;
        return this;
    }

    /**
     * @return tEST05 sample index seed ({@code test05_sample_index_rng_seed}).
     */
    public long test05SampleIndexRngSeed()
    {
        return test05SampleIndexRngSeed;
    }

    /**
     * @param value tEST05 sample index seed ({@code test05_sample_index_rng_seed}).
     * @return this.
     */
    public TestSettings test05SampleIndexRngSeed(final long value)
    {
        this.test05SampleIndexRngSeed = value;
        return this;
    }

    /**
     * @return tEST05 schedule seed ({@code test05_schedule_rng_seed}).
     */
    public long test05ScheduleRngSeed()
    {
        return test05ScheduleRngSeed;
    }

    /**
     * @param value tEST05 schedule seed ({@code test05_schedule_rng_seed}).
     * @return this.
     */
    public TestSettings test05ScheduleRngSeed(final long value)
    {
        this.test05ScheduleRngSeed = value;
        return this;
    }

    /**
     * @return print performance-run start and stop timestamps to standard output ({@code print_timestamps}).
     */
    public boolean printTimestamps()
    {
        return printTimestamps;
    }

    /**
     * @param value print performance-run start and stop timestamps to standard output ({@code print_timestamps}).
     * @return this.
     */
    public TestSettings printTimestamps(final boolean value)
    {
        this.printTimestamps = value;
        return this;
    }

    /**
     * @return audit: issue every sample at most once ({@code performance_issue_unique}).
     */
    public boolean performanceIssueUnique()
    {
        return performanceIssueUnique;
    }

    /**
     * @param value audit: issue every sample at most once ({@code performance_issue_unique}).
     * @return this.
     */
    public TestSettings performanceIssueUnique(final boolean value)
    {
        this.performanceIssueUnique = value;
        return this;
    }

    /**
     * @return audit: issue the same sample in every query ({@code performance_issue_same}).
     */
    public boolean performanceIssueSame()
    {
        return performanceIssueSame;
    }

    /**
     * @param value audit: issue the same sample in every query ({@code performance_issue_same}).
     * @return this.
     */
    public TestSettings performanceIssueSame(final boolean value)
    {
        this.performanceIssueSame = value;
        return this;
    }

    /**
     * @return audit: loaded-set index of the repeated sample ({@code performance_issue_same_index}).
     */
    public long performanceIssueSameIndex()
    {
        return performanceIssueSameIndex;
    }

    /**
     * @param value audit: loaded-set index of the repeated sample ({@code performance_issue_same_index}).
     * @return this.
     */
    public TestSettings performanceIssueSameIndex(final long value)
    {
        this.performanceIssueSameIndex = value;
        return this;
    }

    /**
     * @return overrides the QSL's performance sample count; 0 = use the QSL's ({@code
     *         performance_sample_count_override}).
     */
    public long performanceSampleCountOverride()
    {
        return performanceSampleCountOverride;
    }

    /**
     * @param value overrides the QSL's performance sample count; 0 = use the QSL's ({@code
     *              performance_sample_count_override}).
     * @return this.
     */
    public TestSettings performanceSampleCountOverride(final long value)
    {
        this.performanceSampleCountOverride = value;
        return this;
    }

    /**
     * @return overrides the QSL's total count for accuracy runs; 0 = use the QSL's ({@code
     *         accuracy_sample_count_override}).
     */
    public long accuracySampleCountOverride()
    {
        return accuracySampleCountOverride;
    }

    /**
     * @param value overrides the QSL's total count for accuracy runs; 0 = use the QSL's ({@code
     *              accuracy_sample_count_override}).
     * @return this.
     */
    public TestSettings accuracySampleCountOverride(final long value)
    {
        this.accuracySampleCountOverride = value;
        return this;
    }

    /**
     * @return measure first-token (TTFT) and per-output-token (TPOT) latencies ({@code use_token_latencies}).
     */
    public boolean useTokenLatencies()
    {
        return useTokenLatencies;
    }

    /**
     * @param value measure first-token (TTFT) and per-output-token (TPOT) latencies ({@code use_token_latencies}).
     * @return this.
     */
    public TestSettings useTokenLatencies(final boolean value)
    {
        this.useTokenLatencies = value;
        return this;
    }

    /**
     * @return server TTFT bound ({@code server_ttft_latency}).
     */
    public long serverTtftLatencyNs()
    {
        return serverTtftLatencyNs;
    }

    /**
     * @param value server TTFT bound ({@code server_ttft_latency}).
     * @return this.
     */
    public TestSettings serverTtftLatencyNs(final long value)
    {
        this.serverTtftLatencyNs = value;
        return this;
    }

    /**
     * @return server TPOT bound ({@code server_tpot_latency}).
     */
    public long serverTpotLatencyNs()
    {
        return serverTpotLatencyNs;
    }

    /**
     * @param value server TPOT bound ({@code server_tpot_latency}).
     * @return this.
     */
    public TestSettings serverTpotLatencyNs(final long value)
    {
        this.serverTpotLatencyNs = value;
        return this;
    }

    /**
     * @return infer token throughput as samples times token_latency_scaling_factor ({@code infer_token_latencies}).
     */
    public boolean inferTokenLatencies()
    {
        return inferTokenLatencies;
    }

    /**
     * @param value infer token throughput as samples times token_latency_scaling_factor ({@code
     *              infer_token_latencies}).
     * @return this.
     */
    public TestSettings inferTokenLatencies(final boolean value)
    {
        this.inferTokenLatencies = value;
        return this;
    }

    /**
     * @return tokens per sample for inferred token metrics ({@code token_latency_scaling_factor}).
     */
    public long tokenLatencyScalingFactor()
    {
        return tokenLatencyScalingFactor;
    }

    /**
     * @param value tokens per sample for inferred token metrics ({@code token_latency_scaling_factor}).
     * @return this.
     */
    public TestSettings tokenLatencyScalingFactor(final long value)
    {
        this.tokenLatencyScalingFactor = value;
        return this;
    }
}
