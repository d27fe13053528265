package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.HdrHistogram.Recorder;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.TestScenario;
import org.jloadgen.concurrent.PaddedCounter;
import org.jloadgen.concurrent.ParkingLot;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.memory.OffHeapRegion;
import org.jloadgen.record.CompletionErrors.Kind;
import org.jloadgen.schedule.Trace;
import org.jloadgen.schedule.TraceFill;

/**
 * The completion side of one series: one slot per generated sample that the completing thread fills with its
 * completion time, plus token slots when token latencies are measured. Written by any number of completing
 * threads, each slot by the one thread that completes that sample; the issue thread reads the completion
 * counter (acquire) and, after the series, the slots.
 * <p>
 * Why not a CAS per slot: the completion path must stay at a few ns per sample (Offline completes millions in
 * one call). A slot is checked, then written; a sample completed twice from the same thread, or at different
 * times, is always caught. Two threads racing to complete the same sample at the same instant could both pass
 * the check, but then the completion count exceeds the issued count and the engine reports the duplicate
 * after the series, so the run is never silently valid.
 */
public final class SeriesRecorder implements CompletionTarget, AutoCloseable
{
    /** Slot value meaning "not completed". */
    private static final long PENDING = 0;

    private final Trace trace;
    private final TestScenario scenario;
    private final long firstSampleId;
    private final long sampleCount;
    private final int samplesPerQuery;
    private final boolean tokenMode;
    private final boolean needsFirstToken;
    private final OffHeapRegion completionsRegion;
    private final OffHeapRegion firstTokensRegion;
    private final OffHeapRegion tokenCountsRegion;
    private final MemorySegment completions;
    private final MemorySegment firstTokens;
    private final MemorySegment tokenCounts;
    /** Samples done: completed, or failed ({@link #failSample}); what the issue thread waits for. */
    private final PaddedCounter completed = new PaddedCounter();
    /** Where the issue thread parks while it waits for completions; every completion wakes it if it parked. */
    private final ParkingLot completionWaiter = new ParkingLot(1);
    private final CompletionErrors errors;
    private final AccuracyLogCollector accuracyLog;
    private final boolean logsAnySample;
    /** The generation still running while the series runs, or {@code null} for a complete trace. */
    private final TraceFill fill;
    private final Recorder histogram;
    private final long histogramMaxNs;
    /** When each query was issued: the issue thread writes it, the histogram and the results read it. */
    private final IssueTimes issueTimes;
    /**
     * Whether a slot holds its sample's latency rather than its completion time: a SingleStream series without token
     * latencies and without a Chrome trace. Its one query in flight at a time lets the completing thread take the
     * latency from the latest issue time alone, so no scheduled time is kept per query ({@link IssueTimes#latestOnly}):
     * half the memory a long series faults in before its clock starts (a VALID 10 s null-SUT SingleStream run
     * generates 200M queries: 3.2 GB of slots and issue times, 1.0-4.7 s to fault in on this project's 2-CPU VM,
     * benchmarks/README.md, issue 20, session 9).
     */
    private final boolean latencySlots;
    /** Latency slots: the latest completion of the latest issued query, relative to the origin (completing thread). */
    private long latestCompletionNs;
    /** How ids outside this series are counted when no earlier series owns them. */
    private final RetiredTarget misdirected;
    private long originNs;
    /**
     * Where ids outside this series go: {@link #misdirected}, or the SyLT warm-up series issued just before this
     * one, whose late completions still arrive here ({@link #follow}).
     */
    private CompletionTarget strays;

    /**
     * @param trace        the series' queries.
     * @param tokenMode    whether token latencies are measured ({@code use_token_latencies}).
     * @param errors       where completion mistakes are counted.
     * @param accuracyLog  where selected payloads go, or {@code null} when no accuracy log is written.
     * @param histogram    an HdrHistogram recorder fed at completion time, or {@code null}.
     * @param trackIssue   whether issue times are kept per query (for the Chrome trace and the issue lateness log);
     *                     a SingleStream series without them, and without token latencies, keeps latencies in its
     *                     slots.
     * @param allocator    where the slots' memory comes from.
     */
    public SeriesRecorder(
        final Trace trace,
        final boolean tokenMode,
        final CompletionErrors errors,
        final AccuracyLogCollector accuracyLog,
        final Recorder histogram,
        final boolean trackIssue,
        final OffHeapAllocator allocator)
    {
        this.trace = trace;
        this.scenario = trace.scenario();
        this.firstSampleId = trace.firstSampleId();
        this.sampleCount = trace.sampleCount();
        this.samplesPerQuery = trace.samplesPerQuery();
        this.tokenMode = tokenMode;
        this.needsFirstToken = tokenMode && scenario != TestScenario.OFFLINE;
        this.errors = errors;
        this.accuracyLog = accuracyLog;
        this.logsAnySample = accuracyLog != null && trace.logsAnySample();
        this.fill = trace.fill();
        this.histogram = histogram;
        this.histogramMaxNs = histogram == null ? 0 : histogram.getIntervalHistogram().getHighestTrackableValue();
        this.completionsRegion = allocator.allocate(sampleCount << 3);
        this.completions = completionsRegion.segment();
        this.latencySlots = scenario == TestScenario.SINGLE_STREAM && !tokenMode && !trackIssue;
        this.issueTimes = new IssueTimes(trace, trackIssue, latencySlots, allocator);
        this.firstTokensRegion = tokenMode ? allocator.allocate(sampleCount << 3) : null;
        this.firstTokens = firstTokensRegion == null ? null : firstTokensRegion.segment();
        this.tokenCountsRegion = tokenMode ? allocator.allocate(sampleCount << 3) : null;
        this.tokenCounts = tokenCountsRegion == null ? null : tokenCountsRegion.segment();
        this.misdirected = new RetiredTarget(errors, 0, 0, firstSampleId);
        this.strays = misdirected;
    }

    /**
     * @return whether any completed sample may go to the accuracy log: fixed for a complete trace; for one still
     *         generating, it turns true when the filling thread first selects one.
     */
    private boolean logsAnySample()
    {
        // The trace first: a warm-up's recorder has no accuracy log, and its branch would be a trap in the test.
        return fill == null ? logsAnySample : trace.logsAnySample() && accuracyLog != null;
    }

    /**
     * The target to put in place of this recorder when the engine stopped waiting before all its samples completed
     * (a series cut short): it owns no slots, and counts a completion of one of this series' samples as
     * {@link Kind#LATE}, not as a mistake, because the sample is already counted as never completed.
     *
     * @return the target.
     */
    public CompletionTarget retiredAfterCutShort()
    {
        return new RetiredTarget(errors, firstSampleId, firstSampleId + sampleCount, Long.MAX_VALUE);
    }

    /**
     * Marks every sample pending again, so the same trace can be issued once more (the engine warm-up does, to
     * spend its time in the issue and completion code rather than in generating traces). Only between series:
     * no completing thread may hold an id of this recorder.
     */
    public void reset()
    {
        completions.fill((byte)0);
        if (firstTokens != null)
        {
            firstTokens.fill((byte)0);
        }
        if (tokenCounts != null)
        {
            tokenCounts.fill((byte)0);
        }
        latestCompletionNs = 0;
        completed.setRelease(0);
    }

    /**
     * @return the series' trace.
     */
    public Trace trace()
    {
        return trace;
    }

    /**
     * Sets the clock reading that slot times are relative to: the start of issuing. Must be called before the
     * first query is issued.
     *
     * @param originNs {@code System.nanoTime()} at the start of issuing.
     */
    public void origin(final long originNs)
    {
        this.originNs = originNs;
    }

    /**
     * Makes completions of the series issued just before this one, without a drain between them (SyLT's warm-up
     * queries), land in that series' slots instead of counting as mistakes. Issue thread, before this series is
     * published to the sink.
     *
     * @param earlier the earlier series' recorder, still open.
     */
    public void follow(final SeriesRecorder earlier)
    {
        // The earlier series counts an id neither owns as this one would have.
        earlier.strays = misdirected;
        this.strays = earlier;
    }

    /**
     * @param responseId a response id.
     * @return whether it belongs to this series.
     */
    private boolean owns(final long responseId)
    {
        final long sample = responseId - 1 - firstSampleId;
        return sample >= 0 && sample < sampleCount;
    }

    /**
     * @return the start of issuing.
     */
    public long originNs()
    {
        return originNs;
    }

    /**
     * @return when each query was issued (the issue thread's side of the series).
     */
    public IssueTimes issueTimes()
    {
        return issueTimes;
    }

    /**
     * @return samples done so far (acquire): completed, or failed under a SUT's counting policy; the engine waits
     *         for these.
     */
    public long completedSamples()
    {
        return completed.getAcquire();
    }

    /**
     * @return samples done so far, read with volatile semantics: the re-check of a thread that announced
     *         itself in {@link #completionWaiter()} before it parks.
     */
    public long completedSamplesVolatile()
    {
        return completed.getVolatile();
    }

    /**
     * @return where the issue thread parks while it waits for completions (one slot); each completion call wakes
     *         it after counting, which costs one memory read while nobody is parked.
     */
    public ParkingLot completionWaiter()
    {
        return completionWaiter;
    }

    /**
     * @param sample sample number in the series.
     * @return its completion time relative to the origin, or -1 if it has not completed (or failed).
     */
    public long completionRelativeNs(final long sample)
    {
        if (latencySlots)
        {
            throw new IllegalStateException("this SingleStream series' slots hold latencies, not completion times");
        }
        return Math.max(-1, completions.get(ValueLayout.JAVA_LONG, sample << 3) - 1);
    }

    /**
     * @param sample sample number in the series.
     * @return whether it failed ({@link #failSample}).
     */
    public boolean failed(final long sample)
    {
        return completions.get(ValueLayout.JAVA_LONG, sample << 3) < 0;
    }

    /**
     * @param sample sample number in the series.
     * @return its first-token time relative to the origin, or -1 if none was reported.
     */
    public long firstTokenRelativeNs(final long sample)
    {
        return firstTokens == null ? -1 : firstTokens.get(ValueLayout.JAVA_LONG, sample << 3) - 1;
    }

    /**
     * @param sample sample number in the series.
     * @return its token count as given by the SUT (token mode only).
     */
    public long tokenCount(final long sample)
    {
        return tokenCounts == null ? 0 : tokenCounts.get(ValueLayout.JAVA_LONG, sample << 3);
    }

    /**
     * @return whether the slots hold latencies ({@link #completionSlots()}).
     */
    public boolean latencySlots()
    {
        return latencySlots;
    }

    /**
     * Latency slots: read after the series, once its completions are counted (acquire).
     *
     * @return the completion time of the latest issued query that completed, relative to the origin, or 0 if none:
     *         the series' latest completion, since its queries run one at a time.
     */
    public long latestCompletionRelativeNs()
    {
        return latestCompletionNs;
    }

    /**
     * @return the completion slots, 8 bytes per sample: 0 pending, the completion time relative to the origin plus
     *         one (with {@link #latencySlots()}, the latency plus one), or a negative value (minus the failure time
     *         relative to the origin plus one) for a failed sample; reused in place for latencies after the series.
     */
    public MemorySegment completionSlots()
    {
        return completions;
    }

    /**
     * Completes one sample. Completing thread; no allocation.
     *
     * @param responseId  the id.
     * @param nowNs       the call's timestamp.
     * @param dataAddress payload address.
     * @param dataBytes   payload size.
     * @param tokenCount  token count.
     */
    @Override
    public void completeOne(
        final long responseId, final long nowNs, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        final long sample = slot(responseId, nowNs, tokenCount);
        if (sample >= 0 && record(sample, responseId, nowNs, tokenCount))
        {
            if (histogram != null)
            {
                histogram.recordValue(histogramLatencyNs(sample, nowNs));
            }
            if (logsAnySample() && trace.accuracyLogged(sample))
            {
                logPayload(sample, responseId, dataAddress, dataBytes, tokenCount);
            }
            completed.addAndGet(1);
            completionWaiter.wakeOne();
        }
    }

    /**
     * Completes one sample with a heap payload. Completing thread; no allocation.
     *
     * @param responseId the id.
     * @param nowNs      the call's timestamp.
     * @param data       payload.
     * @param offset     first byte.
     * @param length     number of bytes.
     * @param tokenCount token count.
     */
    @Override
    public void completeOne(final long responseId, final long nowNs, final byte[] data, final int offset,
        final int length, final long tokenCount)
    {
        final long sample = slot(responseId, nowNs, tokenCount);
        if (sample >= 0 && record(sample, responseId, nowNs, tokenCount))
        {
            if (histogram != null)
            {
                histogram.recordValue(histogramLatencyNs(sample, nowNs));
            }
            if (logsAnySample() && trace.accuracyLogged(sample))
            {
                accuracyLog.response(firstSampleId + sample, trace.sampleIndex(sample), data, offset, length,
                    tokenCount);
            }
            completed.addAndGet(1);
            completionWaiter.wakeOne();
        }
    }

    /**
     * Completes a batch at one timestamp. Completing thread; no allocation.
     *
     * @param responses the batch.
     * @param count     entries to complete.
     * @param nowNs     the call's timestamp.
     * @param callback  called before a logged payload is copied, or {@code null}.
     */
    @Override
    public void completeBatch(
        final QuerySampleResponses responses, final int count, final long nowNs, final ResponseCallback callback)
    {
        final MemorySegment entries = responses.segment();
        // Offline samples all share the scheduled time, so a batch is one histogram entry with a count.
        final boolean offline = scenario == TestScenario.OFFLINE;
        final boolean simple = !tokenMode && !logsAnySample() && (histogram == null || offline);
        long newlyCompleted = 0;
        if (simple)
        {
            // The Offline fast path: id check, slot check, slot write.
            final long stamp = latencySlots ? latencyStamp(nowNs) : nowNs - originNs + 1;
            final MemorySegment slots = completions;
            final long first = firstSampleId + 1;
            final long n = sampleCount;
            for (int i = 0; i < count; i++)
            {
                final long responseId =
                    entries.get(ValueLayout.JAVA_LONG, (long)i * QuerySampleResponses.ENTRY_BYTES);
                final long sample = responseId - first;
                if (sample < 0 || sample >= n)
                {
                    stray(responseId, nowNs, 0L);
                    continue;
                }
                final long offset = sample << 3;
                if (slots.get(ValueLayout.JAVA_LONG, offset) != PENDING)
                {
                    errors.record(Kind.DUPLICATE, responseId);
                    continue;
                }
                slots.set(ValueLayout.JAVA_LONG, offset, stamp);
                if (latencySlots)
                {
                    latestCompleted(sample, nowNs);
                }
                newlyCompleted++;
            }
        }
        else
        {
            // Samples of one query share their scheduled time, so a batch's latencies come in runs of equal
            // values (a MultiStream query is one run): one histogram entry per run, with its count.
            long runLatencyNs = -1;
            long runCount = 0;
            for (int i = 0; i < count; i++)
            {
                final long responseId = responses.responseId(i);
                final long tokens = responses.tokenCount(i);
                final long sample = slot(responseId, nowNs, tokens);
                if (sample >= 0 && record(sample, responseId, nowNs, tokens))
                {
                    if (histogram != null)
                    {
                        final long latencyNs = histogramLatencyNs(sample, nowNs);
                        if (latencyNs != runLatencyNs)
                        {
                            if (runCount > 0)
                            {
                                histogram.recordValueWithCount(runLatencyNs, runCount);
                            }
                            runLatencyNs = latencyNs;
                            runCount = 0;
                        }
                        runCount++;
                    }
                    if (logsAnySample() && trace.accuracyLogged(sample))
                    {
                        if (callback != null)
                        {
                            callback.beforeCopy(responses, i);
                        }
                        logPayload(sample, responseId, responses.dataAddress(i), responses.dataBytes(i), tokens);
                    }
                    newlyCompleted++;
                }
            }
            if (runCount > 0)
            {
                histogram.recordValueWithCount(runLatencyNs, runCount);
            }
        }
        if (newlyCompleted > 0)
        {
            if (simple && histogram != null)
            {
                histogram.recordValueWithCount(Math.min(nowNs - originNs, histogramMaxNs), newlyCompleted);
            }
            completed.addAndGet(newlyCompleted);
            completionWaiter.wakeOne();
        }
    }

    /**
     * Records a failed sample: its slot holds the negated failure time, so it is done (the issue thread stops
     * waiting for it) but never completed: no latency, no histogram entry, no accuracy-log entry. Completing thread;
     * no allocation.
     *
     * @param responseId the id.
     * @param nowNs      the call's timestamp.
     */
    @Override
    public void failSample(final long responseId, final long nowNs)
    {
        final long sample = responseId - 1 - firstSampleId;
        if (sample < 0 || sample >= sampleCount)
        {
            strays.failSample(responseId, nowNs);
            return;
        }
        final long offset = sample << 3;
        if (completions.get(ValueLayout.JAVA_LONG, offset) != PENDING)
        {
            errors.record(Kind.DUPLICATE, responseId);
            return;
        }
        completions.set(ValueLayout.JAVA_LONG, offset, -(nowNs - originNs + 1));
        completed.addAndGet(1);
        completionWaiter.wakeOne();
    }

    /**
     * Records a first token. Completing thread; no allocation.
     *
     * @param responseId  the id.
     * @param nowNs       the call's timestamp.
     * @param dataAddress first-token payload address.
     * @param dataBytes   first-token payload size.
     */
    @Override
    public void firstToken(final long responseId, final long nowNs, final long dataAddress, final long dataBytes)
    {
        if (!owns(responseId))
        {
            strays.firstToken(responseId, nowNs, 0L, 0L);
            return;
        }
        final long sample = responseId - 1 - firstSampleId;
        if (firstTokens == null)
        {
            return;
        }
        final long offset = sample << 3;
        if (completions.get(ValueLayout.JAVA_LONG, offset) != PENDING)
        {
            errors.record(Kind.FIRST_TOKEN_AFTER_COMPLETION, responseId);
            return;
        }
        if (firstTokens.get(ValueLayout.JAVA_LONG, offset) != PENDING)
        {
            errors.record(Kind.DUPLICATE_FIRST_TOKEN, responseId);
            return;
        }
        firstTokens.set(ValueLayout.JAVA_LONG, offset, nowNs - originNs + 1);
        if (logsAnySample() && needsFirstToken && trace.accuracyLogged(sample))
        {
            accuracyLog.firstToken(firstSampleId + sample, dataAddress, dataBytes);
        }
    }

    /**
     * @return the sample number of a response id of this series, or -1 after handing a stray id on.
     */
    private long slot(final long responseId, final long nowNs, final long tokenCount)
    {
        final long sample = responseId - 1 - firstSampleId;
        if (sample < 0 || sample >= sampleCount)
        {
            stray(responseId, nowNs, tokenCount);
            return -1;
        }
        return sample;
    }

    /**
     * An id outside this series: a late warm-up completion goes to the warm-up's slots, anything else is a
     * mistake. Off the fast path: only ids that miss this series' range get here.
     */
    private void stray(final long responseId, final long nowNs, final long tokenCount)
    {
        strays.completeOne(responseId, nowNs, 0L, 0L, tokenCount);
    }

    private boolean record(final long sample, final long responseId, final long nowNs, final long tokenCount)
    {
        final long offset = sample << 3;
        if (completions.get(ValueLayout.JAVA_LONG, offset) != PENDING)
        {
            errors.record(Kind.DUPLICATE, responseId);
            return false;
        }
        if (latencySlots)
        {
            completions.set(ValueLayout.JAVA_LONG, offset, latencyStamp(nowNs));
            latestCompleted(sample, nowNs);
        }
        else
        {
            completions.set(ValueLayout.JAVA_LONG, offset, nowNs - originNs + 1);
        }
        if (tokenMode)
        {
            recordTokens(sample, responseId, tokenCount, offset);
        }
        return true;
    }

    /**
     * Latency slots: the slot value of a completion now, of the latest issued query, the one in flight (a
     * never-issued sample's value is never read as a latency: the scan of never-issued slots counts it). Completing
     * thread.
     */
    private long latencyStamp(final long nowNs)
    {
        return Math.max(0, nowNs - originNs - issueTimes.latestScheduledRelativeNs()) + 1;
    }

    /**
     * Latency slots: keeps the completion time of the latest issued query when {@code sample} is it.
     */
    private void latestCompleted(final long sample, final long nowNs)
    {
        if (sample == issueTimes.latestQuery())
        {
            latestCompletionNs = nowNs - originNs;
        }
    }

    /**
     * @return the sample's latency as the histogram records it (from its scheduled time, clamped to its range).
     */
    private long histogramLatencyNs(final long sample, final long nowNs)
    {
        final long scheduledNs = latencySlots ? issueTimes.latestScheduledRelativeNs()
            : issueTimes.scheduledRelativeNs(sample / samplesPerQuery);
        final long latencyNs = nowNs - originNs - scheduledNs;
        return Math.max(0, Math.min(latencyNs, histogramMaxNs));
    }

    private void recordTokens(final long sample, final long responseId, final long tokenCount, final long offset)
    {
        tokenCounts.set(ValueLayout.JAVA_LONG, offset, tokenCount);
        if (tokenCount == 0)
        {
            errors.record(Kind.ZERO_TOKENS, responseId);
        }
        else if (tokenCount < 0)
        {
            errors.record(Kind.NEGATIVE_TOKENS, responseId);
        }
        else if (tokenCount == 1)
        {
            errors.record(Kind.ONE_TOKEN, responseId);
        }
        if (needsFirstToken && firstTokens.get(ValueLayout.JAVA_LONG, offset) == PENDING)
        {
            errors.record(Kind.NO_FIRST_TOKEN, responseId);
        }
    }

    private void logPayload(final long sample, final long responseId, final long dataAddress, final long dataBytes,
        final long tokenCount)
    {
        if (dataBytes < 0 || dataBytes > Integer.MAX_VALUE || (dataAddress == 0 && dataBytes != 0))
        {
            errors.record(Kind.BAD_PAYLOAD, responseId);
            return;
        }
        accuracyLog.response(firstSampleId + sample, trace.sampleIndex(sample), dataAddress, dataBytes, tokenCount);
    }

    @Override
    public void close()
    {
        completionsRegion.close();
        issueTimes.close();
        if (firstTokensRegion != null)
        {
            firstTokensRegion.close();
        }
        if (tokenCountsRegion != null)
        {
            tokenCountsRegion.close();
        }
    }
}
