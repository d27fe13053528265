package org.jloadgen.record;

/**
 * What a performance series measured: LoadGen's {@code PerformanceResult} (spec §3.3;
 * {@code loadgen/results.h}). Times are seconds from
 * the start of issuing; latencies are ns. Token arrays are empty unless token latencies are measured.
 *
 * @param sampleLatencies                 per-sample latencies, sorted.
 * @param queryLatencies                  MultiStream per-query latencies, sorted; empty otherwise.
 * @param queriesIssued                   queries issued (coalesced queries count one each).
 * @param maxLatencySeconds               largest sample latency.
 * @param finalQueryScheduledTimeSeconds  generated offset of the last issued query.
 * @param finalQueryIssuedTimeSeconds     issue time of the last issued query.
 * @param finalQueryAllSamplesDoneSeconds completion time of the last issued query's last sample.
 * @param firstTokenLatencies             TTFT per sample, sorted (token mode).
 * @param timePerOutputTokens             TPOT per sample, sorted (token mode).
 * @param tokenCount                      sum of valid token counts (token mode).
 */
public record PerformanceResult(
    SortedLatencies sampleLatencies,
    SortedLatencies queryLatencies,
    long queriesIssued,
    double maxLatencySeconds,
    double finalQueryScheduledTimeSeconds,
    double finalQueryIssuedTimeSeconds,
    double finalQueryAllSamplesDoneSeconds,
    SortedLatencies firstTokenLatencies,
    SortedLatencies timePerOutputTokens,
    long tokenCount)
{
}
