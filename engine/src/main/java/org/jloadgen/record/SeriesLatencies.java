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
        // A large series' latencies are counted as they are computed instead of sorted after (CountedLatencies).
        final CountedLatencies counted = issued >= countedFrom && CountedLatencies.canCount(issued)
            ? new CountedLatencies(slots) : null;
        final Pass pass = new Pass(recorder, slots, spq, multiStream, tokenMode, needsFirstToken, counted,
            responseIdBase, lastQuery, queriesIssued, tokenMode ? issued : 0);
        pass.run(queriesIssued);
        long lastQueryDoneNs = pass.lastQueryDoneNs;
        if (!pass.lastQueryComplete)
        {
            // LoadGen's last query always completes. Where it did not (a run cut short, a failed sample), the rates
            // over completed samples run to the latest completion instead of to 0 s, so that "Completed samples per
            // second" agrees with the completed samples and the percentiles printed beside it.
            lastQueryDoneNs = pass.maxCompletionNs;
        }

        Uninterruptibly.get(notIssued, "reading the never-issued completion slots");
        final SortedLatencies sampleLatencies;
        if (counted != null)
        {
            sampleLatencies = counted.finish();
        }
        else
        {
            LongSegmentSort.sort(slots, pass.write);
            sampleLatencies = new SegmentSortedLatencies(slots, pass.write, pass.sum);
        }
        final long latencies = sampleLatencies.count();
        final double maxLatencySeconds = latencies == 0 ? 0 : sampleLatencies.get(latencies - 1) / 1e9;
        final double finalScheduled = lastQuery < 0 ? 0 : trace.scheduledOffsetNs(lastQuery) / 1e9;
        final double finalIssued = lastQuery < 0 ? 0 : lastIssuedRelativeNs / 1e9;
        final double finalDone = lastQuery < 0 ? 0 : lastQueryDoneNs / 1e9;

        final PerformanceResult result = new PerformanceResult(
            sampleLatencies,
            SortedLatencies.sortInPlace(Arrays.copyOf(pass.queryLatencies, pass.queryLatencyCount)),
            queriesIssued,
            maxLatencySeconds,
            finalScheduled,
            finalIssued,
            finalDone,
            SortedLatencies.sortInPlace(Arrays.copyOf(pass.ttft, pass.ttftCount)),
            SortedLatencies.sortInPlace(Arrays.copyOf(pass.tpot, pass.tpotCount)),
            pass.tokenCount);
        return new Collected(result, pass.missing, pass.firstMissing, pass.maxCompletionNs, pass.failed,
            pass.firstFailed);
    }

    /**
     * The computing pass over the issued queries' slots: a sample's latency is its completion time minus its query's
     * scheduled time; the pass sums, counts or writes them back in place (behind its reads), and keeps the counts of
     * missing and failed samples, the latest completion and the last query's end.
     */
    private static final class Pass
    {
        private final SeriesRecorder recorder;
        private final IssueTimes issueTimes;
        private final MemorySegment slots;
        private final int spq;
        private final boolean multiStream;
        private final boolean tokenMode;
        private final boolean needsFirstToken;
        private final CountedLatencies counted;
        private final long responseIdBase;
        private final long lastQuery;

        final long[] queryLatencies;
        final long[] ttft;
        final long[] tpot;
        int queryLatencyCount;
        long lastQueryDoneNs;
        boolean lastQueryComplete = true;
        long missing;
        long firstMissing = -1;
        long failed;
        long firstFailed = -1;
        int ttftCount;
        int tpotCount;
        long tokenCount;
        long write;
        long sum;
        long maxCompletionNs;

        Pass(final SeriesRecorder recorder, final MemorySegment slots, final int spq, final boolean multiStream,
            final boolean tokenMode, final boolean needsFirstToken, final CountedLatencies counted,
            final long responseIdBase, final long lastQuery, final long queries, final long tokenSamples)
        {
            this.recorder = recorder;
            this.issueTimes = recorder.issueTimes();
            this.slots = slots;
            this.spq = spq;
            this.multiStream = multiStream;
            this.tokenMode = tokenMode;
            this.needsFirstToken = needsFirstToken;
            this.counted = counted;
            this.responseIdBase = responseIdBase;
            this.lastQuery = lastQuery;
            this.queryLatencies = multiStream ? new long[(int)queries] : new long[0];
            this.ttft = new long[needsFirstToken ? (int)tokenSamples : 0];
            this.tpot = new long[needsFirstToken ? (int)tokenSamples : 0];
        }

        /**
         * Takes the first {@code queries} queries. Once.
         */
        void run(final long queries)
        {
            if (recorder.latencySlots())
            {
                runLatencySlots(queries);
                return;
            }
            if (spq == 1)
            {
                runOneSamplePerQuery(queries);
                return;
            }
            // Locals, stored back at the end: the loop keeps them in registers.
            long writeAt = write;
            long sumNs = sum;
            long maxNs = maxCompletionNs;
            for (long q = 0; q < queries; q++)
            {
                final long scheduledNs = issueTimes.scheduledRelativeNs(q);
                long queryDoneNs = Long.MIN_VALUE;
                boolean queryComplete = true;
                for (long s = q * spq, end = s + spq; s < end; s++)
                {
                    final long slot = slots.get(ValueLayout.JAVA_LONG, s << 3);
                    final long completionNs = slot - 1;
                    if (completionNs < 0)
                    {
                        countNotCompleted(s, slot);
                        queryComplete = false;
                        continue;
                    }
                    final long latencyNs = completionNs - scheduledNs;
                    queryDoneNs = Math.max(queryDoneNs, completionNs);
                    maxNs = Math.max(maxNs, completionNs);
                    if (tokenMode)
                    {
                        tokens(s, scheduledNs, latencyNs);
                    }
                    if (counted != null)
                    {
                        // Writes behind this loop's reads: a latency kept goes to a slot already read.
                        counted.add(latencyNs);
                    }
                    else
                    {
                        slots.set(ValueLayout.JAVA_LONG, writeAt++ << 3, latencyNs);
                        sumNs += latencyNs;
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
            write = writeAt;
            sum = sumNs;
            maxCompletionNs = maxNs;
        }

        /**
         * {@link #run} where each query is one sample (SingleStream, Server, MultiStream with one sample per query):
         * without the loop over a query's samples, whose trip count of one doubled the pass's time: 0.62-0.79 s for a
         * 10 s SingleStream run's 69-81M queries, against 0.26-0.46 s (benchmarks/README.md, "Start to finish",
         * session 8).
         */
        private void runOneSamplePerQuery(final long queries)
        {
            long writeAt = write;
            long sumNs = sum;
            long maxNs = maxCompletionNs;
            for (long q = 0; q < queries; q++)
            {
                final long scheduledNs = issueTimes.scheduledRelativeNs(q);
                final long slot = slots.get(ValueLayout.JAVA_LONG, q << 3);
                final long completionNs = slot - 1;
                if (completionNs < 0)
                {
                    notCompleted(q, slot);
                    continue;
                }
                final long latencyNs = completionNs - scheduledNs;
                maxNs = Math.max(maxNs, completionNs);
                if (tokenMode)
                {
                    tokens(q, scheduledNs, latencyNs);
                }
                if (counted != null)
                {
                    counted.add(latencyNs);
                }
                else
                {
                    slots.set(ValueLayout.JAVA_LONG, writeAt++ << 3, latencyNs);
                    sumNs += latencyNs;
                }
                if (multiStream)
                {
                    queryLatencies[queryLatencyCount++] = latencyNs;
                }
                if (q == lastQuery)
                {
                    lastQueryDoneNs = completionNs;
                    lastQueryComplete = true;
                }
            }
            write = writeAt;
            sum = sumNs;
            maxCompletionNs = maxNs;
        }

        /**
         * {@link #run} over slots that hold latencies (a SingleStream series without token latencies or a Chrome
         * trace, {@link SeriesRecorder#latencySlots()}): its queries ran one at a time, so the latest completion is
         * the recorder's, and the last query's end is it when that query completed.
         */
        private void runLatencySlots(final long queries)
        {
            long writeAt = write;
            long sumNs = sum;
            for (long q = 0; q < queries; q++)
            {
                final long slot = slots.get(ValueLayout.JAVA_LONG, q << 3);
                if (slot <= 0)
                {
                    notCompleted(q, slot);
                    continue;
                }
                final long latencyNs = slot - 1;
                if (counted != null)
                {
                    counted.add(latencyNs);
                }
                else
                {
                    slots.set(ValueLayout.JAVA_LONG, writeAt++ << 3, latencyNs);
                    sumNs += latencyNs;
                }
                if (q == lastQuery)
                {
                    lastQueryDoneNs = recorder.latestCompletionRelativeNs();
                    lastQueryComplete = true;
                }
            }
            write = writeAt;
            sum = sumNs;
            maxCompletionNs = Math.max(maxCompletionNs, recorder.latestCompletionRelativeNs());
        }

        /**
         * A one-sample query whose sample failed ({@code slot < 0}) or never completed ({@code slot == 0}).
         */
        private void notCompleted(final long q, final long slot)
        {
            countNotCompleted(q, slot);
            if (q == lastQuery)
            {
                // As the general loop has it: no sample completed, so the query's end is 0.
                lastQueryDoneNs = 0;
                lastQueryComplete = false;
            }
        }

        /**
         * Counts sample {@code s}, which failed ({@code slot < 0}: a SUT's counting policy; done, never completed, in
         * no latency) or never completed ({@code slot == 0}).
         */
        private void countNotCompleted(final long s, final long slot)
        {
            if (slot < 0)
            {
                failed++;
                if (firstFailed < 0)
                {
                    firstFailed = responseIdBase + s;
                }
            }
            else
            {
                missing++;
                if (firstMissing < 0)
                {
                    firstMissing = responseIdBase + s;
                }
            }
        }

        private void tokens(final long s, final long scheduledNs, final long latencyNs)
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
