package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.FutureTask;

import org.jloadgen.api.TestScenario;
import org.jloadgen.concurrent.Uninterruptibly;
import org.jloadgen.record.CompletionErrors.Kind;
import org.jloadgen.schedule.Trace;

/**
 * Turns a finished series' completion slots into LoadGen's {@link PerformanceResult} (spec §3.3;
 * {@code loadgen/loadgen.cc}, {@code IssueQueries}): sample
 * latency = completion time − scheduled time, computed in place over the slots and sorted in place, so the
 * result needs no memory beyond the 8 bytes per sample the slots already hold; a large series' latencies are
 * counted instead ({@link CountedLatencies}: 16 MiB of counters). Runs after the timed part.
 */
public final class SeriesLatencies
{
    /**
     * Issued samples from which the latencies are counted ({@link CountedLatencies}): its 16 MiB of counters are at
     * most twice the 8 bytes per sample the slots hold.
     */
    public static final long COUNTED_FROM_SAMPLES = 1L << 20;
    /** Never-issued slots from which they are read on a thread of their own (64 MiB). */
    private static final long NOT_ISSUED_BESIDE_SLOTS = 1L << 23;
    /** Zeros to compare never-issued slots with, 64 KiB at a time. */
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new long[8192]);

    private SeriesLatencies()
    {
    }


    /**
     * Records a completion for each slot past the issued ones that holds one (a SUT that completed a response id
     * it was never given). Compared in 64 KiB runs against zeros, vectorised by the JDK: after a 10 s SingleStream
     * run 136M slots were never issued (LoadGen generates twice the run); read one by one they took 0.38 s, compared
     * 0.16 s.
     */
    private static void countNotIssued(final MemorySegment slots, final long issued, final long generated,
        final long responseIdBase, final CompletionErrors errors)
    {
        long from = issued << 3;
        final long end = generated << 3;
        while (from < end)
        {
            final long length = Math.min(ZEROS.byteSize(), end - from);
            final long at = MemorySegment.mismatch(slots, from, from + length, ZEROS, 0, length);
            if (at < 0)
            {
                from += length;
                continue;
            }
            final long sample = (from + at) >>> 3;
            errors.record(Kind.NOT_ISSUED, responseIdBase + sample);
            from = (sample + 1) << 3;
        }
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
     * @param countedFrom issued samples from which the latencies are counted instead of sorted: the engine passes
     *                  {@link #COUNTED_FROM_SAMPLES}; tests pass 0 or {@link Long#MAX_VALUE} to take either way.
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
        final CompletionErrors errors,
        final long countedFrom)
    {
        final long issued = samplesIssued;
        final long generated = trace.sampleCount();
        final int spq = trace.samplesPerQuery();
        final MemorySegment slots = recorder.completionSlots();
        final long responseIdBase = trace.firstSampleId() + 1;

        // The slots past the issued ones are read on another thread while this one reads the issued ones.
        final FutureTask<Void> notIssued = new FutureTask<>(
            () -> countNotIssued(slots, issued, generated, responseIdBase, errors), null);
        final boolean beside = generated - issued >= NOT_ISSUED_BESIDE_SLOTS;
        if (beside)
        {
            Thread.ofPlatform().daemon().name("jloadgen-not-issued-scan").start(notIssued);
        }
        else
        {
            notIssued.run();
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

        // A large series' latencies are counted as they are computed instead of sorted after (CountedLatencies).
        final CountedLatencies counted = issued >= countedFrom && CountedLatencies.canCount(issued)
            ? new CountedLatencies(slots) : null;
        long write = 0;
        long sum = 0;
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
                if (counted != null)
                {
                    // Writes behind this loop's reads: a latency kept goes to a slot already read.
                    counted.add(latencyNs);
                }
                else
                {
                    slots.set(ValueLayout.JAVA_LONG, write++ << 3, latencyNs);
                    sum += latencyNs;
                }
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

        Uninterruptibly.get(notIssued, "reading the never-issued completion slots");
        final SortedLatencies sampleLatencies;
        if (counted != null)
        {
            sampleLatencies = counted.finish();
        }
        else
        {
            LongSegmentSort.sort(slots, write);
            sampleLatencies = new SegmentSortedLatencies(slots, write, sum);
        }
        final long latencies = sampleLatencies.count();
        final double maxLatencySeconds = latencies == 0 ? 0 : sampleLatencies.get(latencies - 1) / 1e9;
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

        SegmentSortedLatencies(final MemorySegment slots, final long count, final long sum)
        {
            this.slots = slots;
            this.count = count;
            this.sum = sum;
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
