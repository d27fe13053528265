package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.jloadgen.api.TestScenario;
import org.jloadgen.record.CompletionErrors.Kind;
import org.jloadgen.schedule.Trace;

/**
 * Turns a finished series' completion slots into LoadGen's {@link PerformanceResult} (spec §3.3;
 * {@code loadgen/loadgen.cc}, {@code IssueQueries}): sample
 * latency = completion time − scheduled time, computed in place over the slots and sorted in place, so the
 * result needs no memory beyond the 8 bytes per sample the slots already hold. Runs after the timed part.
 */
public final class SeriesLatencies
{
    private SeriesLatencies()
    {
    }

    /**
     * What the scan found besides the result.
     *
     * @param result          the performance result.
     * @param missingSamples  issued samples that never completed and did not fail either.
     * @param firstMissingId  response id of the first of them, or -1.
     * @param maxCompletionRelativeNs latest completion, relative to the start of issuing ({@code power_end}).
     * @param failedSamples   issued samples the SUT reported failed ({@code ResponseSink.failSample}); they are in
     *                        no latency and no count of the result.
     * @param firstFailedId   response id of the first of them, or -1.
     */
    public record Collected(
        PerformanceResult result, long missingSamples, long firstMissingId, long maxCompletionRelativeNs,
        long failedSamples, long firstFailedId)
    {
    }

    /**
     * Computes the result. Destroys the completion slots (they become sorted latencies).
     *
     * @param trace     the series' trace.
     * @param recorder  its recorder.
     * @param queriesIssued        queries the issue loop issued.
     * @param samplesIssued        samples the issue loop issued.
     * @param lastQuery            number of the last issued query, -1 if none.
     * @param lastIssuedRelativeNs issue time of that query.
     * @param tokenMode whether TTFT/TPOT are computed.
     * @param errors    where completions of never-issued samples are counted.
     * @return the result and the count of samples that never completed.
     */
    public static Collected collect(
        final Trace trace,
        final SeriesRecorder recorder,
        final long queriesIssued,
        final long samplesIssued,
        final long lastQuery,
        final long lastIssuedRelativeNs,
        final boolean tokenMode,
        final CompletionErrors errors)
    {
        final long issued = samplesIssued;
        final long generated = trace.sampleCount();
        final int spq = trace.samplesPerQuery();
        final MemorySegment slots = recorder.completionSlots();
        final long responseIdBase = trace.firstSampleId() + 1;

        for (long s = issued; s < generated; s++)
        {
            if (slots.get(ValueLayout.JAVA_LONG, s << 3) != 0)
            {
                errors.record(Kind.NOT_ISSUED, responseIdBase + s);
            }
        }

        final boolean multiStream = trace.scenario() == TestScenario.MULTI_STREAM;
        final boolean needsFirstToken = tokenMode && trace.scenario() != TestScenario.OFFLINE;
        final long queries = queriesIssued;
        final long[] queryLatencies = multiStream ? new long[(int)queries] : new long[0];
        int queryLatencyCount = 0;
        long lastQueryDoneNs = 0;
        long missing = 0;
        long firstMissing = -1;
        long failed = 0;
        long firstFailed = -1;
        boolean lastQueryComplete = true;

        final long tokenSamples = tokenMode ? issued : 0;
        final long[] ttft = new long[needsFirstToken ? (int)tokenSamples : 0];
        final long[] tpot = new long[needsFirstToken ? (int)tokenSamples : 0];
        int ttftCount = 0;
        int tpotCount = 0;
        long tokenCount = 0;

        long write = 0;
        long maxCompletionNs = 0;
        for (long q = 0; q < queries; q++)
        {
            final long scheduledNs = recorder.issueTimes().scheduledRelativeNs(q);
            long queryDoneNs = Long.MIN_VALUE;
            boolean queryComplete = true;
            for (long s = q * spq, end = s + spq; s < end; s++)
            {
                final long slot = slots.get(ValueLayout.JAVA_LONG, s << 3);
                final long completionNs = slot - 1;
                if (slot < 0)
                {
                    // Failed (a SUT's counting policy): done, never completed, in no latency.
                    failed++;
                    if (firstFailed < 0)
                    {
                        firstFailed = responseIdBase + s;
                    }
                    queryComplete = false;
                    continue;
                }
                if (completionNs < 0)
                {
                    missing++;
                    if (firstMissing < 0)
                    {
                        firstMissing = responseIdBase + s;
                    }
                    queryComplete = false;
                    continue;
                }
                final long latencyNs = completionNs - scheduledNs;
                queryDoneNs = Math.max(queryDoneNs, completionNs);
                maxCompletionNs = Math.max(maxCompletionNs, completionNs);
                if (tokenMode)
                {
                    long tokens = recorder.tokenCount(s);
                    if (tokens <= 1)
                    {
                        tokens = 0; // LoadGen treats invalid counts as 0 after logging the error.
                    }
                    tokenCount += tokens;
                    if (needsFirstToken)
                    {
                        final long firstTokenNs = recorder.firstTokenRelativeNs(s);
                        final long ttftNs = firstTokenNs >= 0 ? firstTokenNs - scheduledNs : 0;
                        if (firstTokenNs >= 0)
                        {
                            ttft[ttftCount++] = ttftNs;
                        }
                        // (latency - TTFT) / (n_tokens - 1), int64 division; /-1 for invalid counts [LG quirk].
                        tpot[tpotCount++] = (latencyNs - ttftNs) / (tokens - 1);
                    }
                }
                slots.set(ValueLayout.JAVA_LONG, write++ << 3, latencyNs);
            }
            if (multiStream && queryComplete)
            {
                queryLatencies[queryLatencyCount++] = queryDoneNs - scheduledNs;
            }
            if (q == lastQuery)
            {
                lastQueryDoneNs = queryComplete ? queryDoneNs : Math.max(0, queryDoneNs);
                lastQueryComplete = queryComplete;
            }
        }
        if (!lastQueryComplete)
        {
            // LoadGen's last query always completes. Where it did not (a run cut short, a failed sample), the rates
            // over completed samples run to the latest completion instead of to 0 s, so that "Completed samples per
            // second" agrees with the completed samples and the percentiles printed beside it.
            lastQueryDoneNs = maxCompletionNs;
        }

        LongSegmentSort.sort(slots, write);
        final SortedLatencies sampleLatencies = new SegmentSortedLatencies(slots, write);
        final double maxLatencySeconds = write == 0 ? 0 : sampleLatencies.get(write - 1) / 1e9;
        final double finalScheduled = lastQuery < 0 ? 0 : trace.scheduledOffsetNs(lastQuery) / 1e9;
        final double finalIssued = lastQuery < 0 ? 0 : lastIssuedRelativeNs / 1e9;
        final double finalDone = lastQuery < 0 ? 0 : lastQueryDoneNs / 1e9;

        final PerformanceResult result = new PerformanceResult(
            sampleLatencies,
            SortedLatencies.sortInPlace(Arrays.copyOf(queryLatencies, queryLatencyCount)),
            queriesIssued,
            maxLatencySeconds,
            finalScheduled,
            finalIssued,
            finalDone,
            SortedLatencies.sortInPlace(Arrays.copyOf(ttft, ttftCount)),
            SortedLatencies.sortInPlace(Arrays.copyOf(tpot, tpotCount)),
            tokenCount);
        return new Collected(result, missing, firstMissing, maxCompletionNs, failed, firstFailed);
    }

    /**
     * Sorted latencies left in the completion slots.
     */
    private static final class SegmentSortedLatencies implements SortedLatencies
    {
        private final MemorySegment slots;
        private final long count;
        private final long sum;

        SegmentSortedLatencies(final MemorySegment slots, final long count)
        {
            this.slots = slots;
            this.count = count;
            long total = 0;
            for (long i = 0; i < count; i++)
            {
                total += slots.get(ValueLayout.JAVA_LONG, i << 3);
            }
            this.sum = total;
        }

        @Override
        public long count()
        {
            return count;
        }

        @Override
        public long get(final long i)
        {
            if (i < 0 || i >= count)
            {
                throw new IndexOutOfBoundsException("latency rank " + i + " of " + count);
            }
            return slots.get(ValueLayout.JAVA_LONG, i << 3);
        }

        @Override
        public long sum()
        {
            return sum;
        }
    }
}
