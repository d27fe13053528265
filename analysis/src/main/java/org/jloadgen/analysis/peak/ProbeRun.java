package org.jloadgen.analysis.peak;

import java.nio.file.Path;

/**
 * One run of the engine at a target QPS during a peak search, as its summary judged it.
 *
 * @param number             run number in the search, from 1.
 * @param targetQps          the Server target QPS of the run.
 * @param repeat             which repeat at this target, from 1.
 * @param folder             where its logs are.
 * @param verdict            VALID or INVALID as the summary says (INVALID also when the detail log has errors), or
 *                           ABORTED when the search was stopped during the run (not counted).
 * @param seeds              the seeds it ran with.
 * @param latencies          its latency figures.
 * @param completedQps       completed samples per second.
 * @param queries            queries issued.
 * @param perfConstraintsMet the latency bound at the target percentile was met.
 * @param earlyStoppingMet   early stopping was met.
 * @param minDurationMet     the minimum duration was met.
 * @param minQueriesMet      the minimum query count was met.
 * @param errorCount         error records in the detail log.
 * @param why                why the run is INVALID (the summary's reasons, then the first error), empty if VALID.
 * @param wallMs             how long the run took on the wall clock, logs included.
 */
public record ProbeRun(
    int number,
    double targetQps,
    int repeat,
    Path folder,
    Verdict verdict,
    Seeds seeds,
    Latencies latencies,
    double completedQps,
    long queries,
    boolean perfConstraintsMet,
    boolean earlyStoppingMet,
    boolean minDurationMet,
    boolean minQueriesMet,
    int errorCount,
    String why,
    long wallMs)
{
    /** A run's verdict. */
    public enum Verdict
    {
        /** The summary says VALID and the detail log has no errors. */
        VALID,
        /** Anything else. */
        INVALID,
        /** Stopped by the user before it finished: no verdict. */
        ABORTED
    }

    /**
     * The seeds of a run.
     *
     * @param qsl      {@code qsl_rng_seed}.
     * @param sample   {@code sample_index_rng_seed}.
     * @param schedule {@code schedule_rng_seed}.
     */
    public record Seeds(long qsl, long sample, long schedule)
    {
    }

    /**
     * Latency figures of a run, in ns (0 where the run measured nothing).
     *
     * @param p50Ns              the 50th percentile.
     * @param p99Ns              the 99th percentile.
     * @param targetPercentile   the bound's percentile (e.g. 0.99).
     * @param atTargetNs         the latency at that percentile (what the bound is checked against).
     * @param boundNs            the bound ({@code server_target_latency_ns}; for token benchmarks the TTFT bound).
     */
    public record Latencies(long p50Ns, long p99Ns, double targetPercentile, long atTargetNs, long boundNs)
    {
    }

    /**
     * @return whether the run passed.
     */
    public boolean passed()
    {
        return verdict == Verdict.VALID;
    }

    /**
     * @return whether the run counts (it was not aborted).
     */
    public boolean counted()
    {
        return verdict != Verdict.ABORTED;
    }
}
