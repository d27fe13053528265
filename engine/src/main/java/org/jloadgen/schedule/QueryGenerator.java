package org.jloadgen.schedule;

import java.lang.foreign.MemorySegment;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.GrowableOffHeapArray;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.memory.OffHeapRegion;
import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * LoadGen's {@code GenerateQueries} (spec §3.2; loadgen/loadgen.cc), draw for draw: the same generators, constructed in
 * the same order, consuming the same engine outputs, so sample indices and schedules equal LoadGen's for the same
 * seeds. Runs before the clock starts and writes the result straight into off-heap arrays.
 */
public final class QueryGenerator
{
    private static final long NS_PER_MS = 1_000_000L;
    /**
     * The shortest trace generated while its series runs: below it, up-front generation takes under a second (about
     * 30 ns a query with its accuracy-log draw). Generating while the series runs costs the null SUT's SingleStream
     * p90 a few ns (benchmarks/README.md), which a second of waiting before the clock does not; the budget's
     * SingleStream (8M queries) and MultiStream (3M) configurations stay below it.
     */
    public static final long MIN_STREAMED_QUERIES = 1L << 25;

    private QueryGenerator()
    {
    }

    /**
     * Accuracy-log selection of one series (spec §4.6, §9.2; loadgen/loadgen.cc, IssueQueries).
     *
     * @param offset      {@code accuracy_log_offset}: the first draw of {@code mt19937(accuracy_log_rng_seed)}.
     * @param probability {@code accuracy_log_prob}; a sample is logged iff its shifted value is {@code <=} it.
     */
    public record AccuracyLogSelection(double offset, double probability)
    {
        /** Selection of a series that logs nothing but still draws its values. */
        public static final AccuracyLogSelection NONE = new AccuracyLogSelection(0.0, -1.0);
    }

    /**
     * Generates the queries of one series.
     *
     * @param settings   effective settings.
     * @param set        the loaded set.
     * @param seriesMode {@link TestMode#ACCURACY_ONLY} or {@link TestMode#PERFORMANCE_ONLY}.
     * @param sequence   the test's sequence ids and accuracy-log generator; advanced by this series.
     * @param selection  accuracy-log selection for performance mode (ignored in accuracy mode: all logged).
     * @param allocator  where the trace's memory comes from.
     * @return the trace; the caller closes it.
     */
    public static Trace generate(
        final EffectiveSettings settings,
        final LoadableSet set,
        final TestMode seriesMode,
        final SequenceGen sequence,
        final AccuracyLogSelection selection,
        final OffHeapAllocator allocator)
    {
        return generate(settings, set, seriesMode, sequence, selection, allocator, Long.MAX_VALUE);
    }

    /**
     * Whether {@link #generate(EffectiveSettings, LoadableSet, TestMode, SequenceGen, AccuracyLogSelection,
     * OffHeapAllocator, long) generate(..., MIN_STREAMED_QUERIES)} generates a series' trace while the series runs,
     * so that the engine's warm-up can issue a trace of the same shape (its issue and completion code has a branch
     * for it).
     *
     * @param settings   effective settings.
     * @param seriesMode the series' mode.
     * @return whether its trace is streamed.
     */
    public static boolean streams(final EffectiveSettings settings, final TestMode seriesMode)
    {
        if (seriesMode != TestMode.PERFORMANCE_ONLY || settings.performanceIssueUnique
            || settings.sampleConcatenatePermutation || settings.samplesPerQuery <= 0
            || settings.scenario != TestScenario.SINGLE_STREAM && settings.scenario != TestScenario.MULTI_STREAM)
        {
            return false;
        }
        final long periodNs = (long)((1.0 / settings.targetQps) * 1e9);
        return streamedQueryCount(2 * settings.targetDurationMs * NS_PER_MS, periodNs, settings.minQueryCount)
            >= MIN_STREAMED_QUERIES;
    }

    /**
     * LoadGen's query count for a constant period: its loop ends at the first count k with
     * {@code (k - 1) * period >= gen_duration} and {@code k >= min_queries}; -1 when not computable.
     */
    private static long streamedQueryCount(final long genDurationNs, final long periodNs, final long minQueries)
    {
        if (periodNs <= 0 || genDurationNs < 0 || minQueries < 0)
        {
            return -1;
        }
        final long scheduleQueries = genDurationNs == 0 ? 0 : (genDurationNs + periodNs - 1) / periodNs + 1;
        final long queries = Math.max(scheduleQueries, minQueries);
        return queries <= Long.MAX_VALUE / periodNs ? queries : -1;
    }

    /**
     * Generates the queries of one series, or, for a SingleStream or MultiStream performance series of at least
     * {@code minStreamedQueries} queries, its first {@link TraceFill#HEAD_START_QUERIES} and a {@link Trace#fill()}
     * that draws the rest while the series runs, the same values in the same order. The engine streams from
     * {@link #MIN_STREAMED_QUERIES}; its warm-up streams its short traces when the test's is ({@link #streams}), all
     * of them in the head start.
     *
     * @param settings   effective settings.
     * @param set        the loaded set.
     * @param seriesMode the series' mode.
     * @param sequence   the test's sequence ids and accuracy-log generator.
     * @param selection  accuracy-log selection.
     * @param allocator  where the trace's memory comes from.
     * @param minStreamedQueries the least queries of a streamed trace; {@code Long.MAX_VALUE} for none. The filling
     *                   thread of a streamed trace is the caller's to start ({@link TraceFill#run}).
     * @return the trace; the caller closes it.
     */
    public static Trace generate(
        final EffectiveSettings settings,
        final LoadableSet set,
        final TestMode seriesMode,
        final SequenceGen sequence,
        final AccuracyLogSelection selection,
        final OffHeapAllocator allocator,
        final long minStreamedQueries)
    {
        final boolean streamed = minStreamedQueries != Long.MAX_VALUE;
        if (seriesMode != TestMode.ACCURACY_ONLY && seriesMode != TestMode.PERFORMANCE_ONLY)
        {
            throw new IllegalArgumentException("a series is generated in AccuracyOnly or PerformanceOnly mode");
        }
        final TestScenario scenario = settings.scenario;
        final boolean accuracy = seriesMode == TestMode.ACCURACY_ONLY;
        final int loadedSize = set.size();
        final int distributionEnd = set.sampleDistributionEnd();

        // Step 1-3.
        long genDurationNs = (scenario == TestScenario.SERVER ? 1 : 2) * settings.targetDurationMs * NS_PER_MS;
        long minQueries = settings.minQueryCount;
        long spq = settings.samplesPerQuery;
        if (accuracy && scenario == TestScenario.OFFLINE)
        {
            spq = distributionEnd;
        }
        if (spq <= 0)
        {
            throw new IllegalArgumentException("samples_per_query must be positive: " + spq);
        }
        if (accuracy || settings.performanceIssueUnique)
        {
            genDurationNs = 0;
            minQueries = loadedSize / spq;
        }

        // Step 4-5: generators and distributions, constructed in LoadGen's order.
        final Mt19937 sampleRng = new Mt19937(settings.sampleIndexRngSeed);
        final Mt19937 scheduleRng = new Mt19937(settings.scheduleRngSeed);
        final int stride = scenario == TestScenario.MULTI_STREAM ? (int)spq : 1;

        final int[] accuracyOrder = accuracy ? shuffledStrided(distributionEnd, stride, sampleRng) : null;
        final int[] uniqueOrder = shuffledStrided(distributionEnd, stride, sampleRng);
        final int[] equalIssue = equalIssueIndices(loadedSize, minQueries, sampleRng);
        final boolean server = scenario == TestScenario.SERVER;
        final double targetQps = settings.targetQps;
        final long periodNs = server ? 0 : (long)((1.0 / targetQps) * 1e9);

        // Step 6: equal-issue padding.
        final boolean equalIssueMode = settings.sampleConcatenatePermutation;
        if (equalIssueMode && !accuracy)
        {
            if (scenario == TestScenario.OFFLINE)
            {
                if (spq % loadedSize != 0)
                {
                    spq += loadedSize - spq % loadedSize;
                }
            }
            else if (minQueries % loadedSize != 0)
            {
                minQueries += loadedSize - minQueries % loadedSize;
            }
        }
        if (spq > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("samples per query too large for one query: " + spq);
        }
        if (!server && periodNs <= 0 && genDurationNs > 0)
        {
            throw new IllegalArgumentException("target QPS " + targetQps
                + " gives a query period of 0 ns: LoadGen would generate queries forever");
        }

        final int samplesPerQuery = (int)spq;
        final boolean multiStream = scenario == TestScenario.MULTI_STREAM;
        final long capacityQueries = estimateQueries(server, targetQps, genDurationNs, periodNs, minQueries);
        final long perQueryPositions = multiStream ? 1 : samplesPerQuery;
        final long logSamples = accuracy ? 0 : 1;

        final boolean same = settings.performanceIssueSame;
        final boolean unique = settings.performanceIssueUnique;
        final int sameIndex = (int)Math.min(settings.performanceIssueSameIndex, Integer.MAX_VALUE);
        if (same && sameIndex >= loadedSize)
        {
            throw new IllegalArgumentException("performance_issue_same_index " + settings.performanceIssueSameIndex
                + " is outside the loaded set of " + loadedSize + " samples");
        }

        final int positionBytes = Trace.positionBytes(loadedSize);
        if (streamed && !accuracy && (scenario == TestScenario.SINGLE_STREAM || multiStream) && !equalIssueMode
            && !unique)
        {
            // The count and the schedule's end (count * period) are known before any draw.
            final long queries = streamedQueryCount(genDurationNs, periodNs, minQueries);
            if (queries > 0 && queries >= minStreamedQueries)
            {
                return streamed(scenario, set, samplesPerQuery, queries, periodNs, same ? sameIndex : -1,
                    sampleRng, sequence, selection, allocator);
            }
        }
        try (GrowableOffHeapArray positions = new GrowableOffHeapArray(allocator, positionBytes,
                Math.min(capacityQueries * perQueryPositions, Integer.MAX_VALUE));
            GrowableOffHeapArray offsets = server ? new GrowableOffHeapArray(allocator, 8, capacityQueries) : null;
            GrowableOffHeapArray bits = logSamples != 0
                ? new GrowableOffHeapArray(allocator, 8, (capacityQueries * samplesPerQuery >>> 6) + 1) : null)
        {
            long timestampNs = 0;
            long prevTimestampNs = 0;
            long queries = 0;
            int accuracyNext = 0;
            int uniqueNext = 0;
            long equalIssueNext = 0;
            final AccuracyLogBits logBits = new AccuracyLogBits(bits, selection.offset(), selection.probability());

            while (prevTimestampNs < genDurationNs || queries < minQueries)
            {
                // Step 7: the samples of one query.
                if (multiStream)
                {
                    final int start;
                    if (unique)
                    {
                        start = next(uniqueOrder, uniqueNext++, "performance_issue_unique");
                    }
                    else if (same)
                    {
                        start = sameIndex;
                    }
                    else if (accuracy)
                    {
                        start = next(accuracyOrder, accuracyNext++, "accuracy");
                    }
                    else
                    {
                        start = (int)StdRandom.uniformInt(sampleRng, 0, distributionEnd - 1);
                    }
                    Trace.addPosition(positions, start);
                }
                else if (scenario == TestScenario.OFFLINE)
                {
                    offlinePositions(positions, samplesPerQuery, loadedSize, same ? sameIndex : -1,
                        equalIssueMode, sampleRng);
                }
                else
                {
                    for (int i = 0; i < samplesPerQuery; i++)
                    {
                        final int idx;
                        if (unique)
                        {
                            idx = next(uniqueOrder, uniqueNext++, "performance_issue_unique");
                        }
                        else if (same)
                        {
                            idx = sameIndex;
                        }
                        else if (equalIssueMode)
                        {
                            if (equalIssue.length == 0)
                            {
                                throw new IllegalArgumentException(
                                    "equal-issue mode needs min_query_count > 0 to build its permutation list");
                            }
                            idx = equalIssue[(int)(equalIssueNext++ % equalIssue.length)];
                        }
                        else if (accuracy)
                        {
                            idx = next(accuracyOrder, accuracyNext++, "accuracy");
                        }
                        else
                        {
                            idx = (int)StdRandom.uniformInt(sampleRng, 0, distributionEnd - 1);
                        }
                        Trace.addPosition(positions, idx);
                    }
                }

                // Appending the query draws one accuracy-log value per sample, in generation order.
                logBits.append(sequence, samplesPerQuery);
                if (offsets != null)
                {
                    offsets.addLong(timestampNs);
                }
                queries++;

                prevTimestampNs = timestampNs;
                timestampNs += server ? (long)(StdRandom.exponential(scheduleRng, targetQps) * 1e9) : periodNs;

                if (equalIssueMode && queries >= minQueries && prevTimestampNs < genDurationNs
                    && scenario != TestScenario.OFFLINE)
                {
                    minQueries += loadedSize;
                }
            }
            final boolean anyBit = logBits.finish();

            final long firstQueryId = sequence.nextQueryId();
            final long firstSampleId = sequence.nextSampleId();
            sequence.advance(queries, queries * samplesPerQuery);
            final OffHeapRegion bitsRegion = bits != null && anyBit ? bits.detach() : null;
            return new Trace(scenario, seriesMode, set, samplesPerQuery, queries, firstQueryId, firstSampleId,
                periodNs, timestampNs, accuracy, positions.detach(), offsets != null ? offsets.detach() : null,
                bitsRegion, null, null);
        }
    }

    /**
     * An Offline query's samples: the loaded set in order, block after block (each block shuffled in equal-issue mode),
     * or one index throughout. A method of its own, as {@link AccuracyLogBits}: its loops over millions of samples are
     * compiled (on-stack replacement of a small method) early in a large query, not with the whole of generate.
     *
     * @param sameIndex the one position of {@code performance_issue_same}, or -1.
     */
    private static void offlinePositions(final GrowableOffHeapArray positions, final int samples, final int loadedSize,
        final int sameIndex, final boolean equalIssueMode, final Mt19937 sampleRng)
    {
        final long first = positions.reserve(samples);
        final MemorySegment seg = positions.segment();
        final int positionBytes = positions.elementBytes();
        if (sameIndex >= 0)
        {
            for (long i = 0; i < samples; i++)
            {
                Trace.setPosition(seg, positionBytes, first + i, sameIndex);
            }
            return;
        }
        final int full = samples / loadedSize;
        final int rem = samples % loadedSize;
        final int[] block = new int[loadedSize];
        long at = first;
        for (int r = 0; r < full; r++)
        {
            for (int i = 0; i < loadedSize; i++)
            {
                block[i] = i;
            }
            if (equalIssueMode)
            {
                // std::shuffle's swaps depend only on the draws, so shuffling positions equals LoadGen's shuffle of
                // the copied QSL indices.
                StdRandom.shuffle(block, sampleRng);
            }
            for (int i = 0; i < loadedSize; i++)
            {
                Trace.setPosition(seg, positionBytes, at + i, block[i]);
            }
            at += loadedSize;
        }
        for (int i = 0; i < rem; i++)
        {
            Trace.setPosition(seg, positionBytes, at + i, i);
        }
    }

    private static Trace streamed(
        final TestScenario scenario,
        final LoadableSet set,
        final int samplesPerQuery,
        final long queries,
        final long periodNs,
        final int sameIndex,
        final Mt19937 sampleRng,
        final SequenceGen sequence,
        final AccuracyLogSelection selection,
        final OffHeapAllocator allocator)
    {
        final boolean multiStream = scenario == TestScenario.MULTI_STREAM;
        final int positionBytes = Trace.positionBytes(set.size());
        final long samples = queries * samplesPerQuery;
        final long firstQueryId = sequence.nextQueryId();
        final long firstSampleId = sequence.nextSampleId();
        final Mt19937 accuracyLogRng = sequence.handOutAccuracyLogValues(samples);
        sequence.advance(queries, samples);
        OffHeapRegion positions = null;
        OffHeapRegion bits = null;
        try
        {
            // Faulted in now, as up-front generation's are: pages first written while the clock ran cost the run
            // millisecond stalls on this VM (benchmarks/README.md).
            positions = allocator.allocate((multiStream ? queries : samples) * positionBytes);
            bits = allocator.allocate(((samples >>> 6) + 1) << 3);
            final TraceFill fill = new TraceFill(queries, samplesPerQuery, multiStream, set.sampleDistributionEnd(),
                sameIndex, positions.segment(), positionBytes, bits.segment(), selection.offset(),
                selection.probability(), sampleRng, accuracyLogRng);
            fill.generateHeadStart();
            return new Trace(scenario, TestMode.PERFORMANCE_ONLY, set, samplesPerQuery, queries, firstQueryId,
                firstSampleId, periodNs, queries * periodNs, false, positions, null, bits, null, fill);
        }
        catch (final RuntimeException | Error e)
        {
            if (bits != null)
            {
                bits.close();
            }
            if (positions != null)
            {
                positions.close();
            }
            throw e;
        }
    }

    private static int next(final int[] order, final int i, final String what)
    {
        if (i >= order.length)
        {
            // LoadGen's vector::at throws here.
            throw new IllegalStateException("the " + what + " sample list is exhausted after " + order.length
                + " samples");
        }
        return order[i];
    }

    private static int[] shuffledStrided(final int end, final int stride, final Mt19937 rng)
    {
        final int count = (end + stride - 1) / stride;
        final int[] order = new int[count];
        for (int i = 0, v = 0; i < count; i++, v += stride)
        {
            order[i] = v;
        }
        StdRandom.shuffle(order, rng);
        return order;
    }

    private static int[] equalIssueIndices(final int loadedSize, final long minQueries, final Mt19937 rng)
    {
        final long passes = minQueries <= 0 ? 0 : (minQueries + loadedSize - 1) / loadedSize;
        if (passes * loadedSize > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("equal-issue list of " + passes * loadedSize + " entries is too large");
        }
        final int[] indices = new int[(int)(passes * loadedSize)];
        final int[] perm = new int[loadedSize];
        for (int i = 0; i < loadedSize; i++)
        {
            perm[i] = i;
        }
        for (int p = 0; p < passes; p++)
        {
            // The same permutation is reshuffled cumulatively, not reset [LG behaviour].
            StdRandom.shuffle(perm, rng);
            System.arraycopy(perm, 0, indices, p * loadedSize, loadedSize);
        }
        return indices;
    }

    private static long estimateQueries(
        final boolean server, final double qps, final long genDurationNs, final long periodNs, final long minQueries)
    {
        if (genDurationNs <= 0)
        {
            return Math.max(1, minQueries);
        }
        final double expected;
        if (server)
        {
            final double mean = qps * (genDurationNs / 1e9);
            expected = mean * 1.02 + 6 * Math.sqrt(mean) + 64;
        }
        else
        {
            expected = periodNs > 0 ? (double)genDurationNs / periodNs + 2 : 1;
        }
        return (long)Math.min(Math.max(expected, minQueries + 1.0), 1L << 40);
    }
}
