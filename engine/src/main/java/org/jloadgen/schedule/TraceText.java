package org.jloadgen.schedule;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;

/**
 * Writes, without running anything, the exact sequence of QSL loads, queries and unloads that a test with
 * these settings issues, as text (what {@code jloadgen trace} prints), so traces can be compared with
 * LoadGen's line by line:
 * <pre>
 * L &lt;qsl indices of the loaded set&gt;        one per LoadSamplesToRam call
 * Q &lt;scheduled_ns&gt; &lt;qsl indices&gt;         one per generated query, in issue order
 * U &lt;qsl indices&gt;                          one per UnloadSamplesFromRam call
 * </pre>
 * {@code scheduled_ns} is the generated offset: the Poisson schedule in Server, {@code k * period} in
 * SingleStream and MultiStream (where queries really go out back to back), 0 in Offline. SubmissionRun is the
 * accuracy pass followed by the performance pass, with sequence ids continuing as in LoadGen.
 */
public final class TraceText
{
    private TraceText()
    {
    }

    /**
     * Receives a test's trace in issue order; the trace passed to {@link #query} is valid only during the call.
     */
    public interface Visitor
    {
        /**
         * @param indices a LoadSamplesToRam call.
         * @throws IOException if writing fails.
         */
        void load(long[] indices) throws IOException;

        /**
         * @param trace the series being issued.
         * @param query query number in the series.
         * @throws IOException if writing fails.
         */
        void query(Trace trace, long query) throws IOException;

        /**
         * @param trace the series just issued ({@code generated_query_duration} is its {@link Trace#durationNs()}).
         * @throws IOException if writing fails.
         */
        default void endSeries(final Trace trace) throws IOException
        {
        }

        /**
         * @param indices an UnloadSamplesFromRam call.
         * @throws IOException if writing fails.
         */
        void unload(long[] indices) throws IOException;
    }

    /**
     * @param requested           requested settings (scenario and mode included).
     * @param qslTotalCount       the QSL's total sample count.
     * @param qslPerformanceCount the QSL's performance sample count.
     * @param out                 where the lines go.
     * @param allocator           memory for the generated traces.
     * @throws IllegalArgumentException for FindPeakPerformance, whose later traces depend on measured results.
     */
    public static void write(
        final TestSettings requested,
        final long qslTotalCount,
        final long qslPerformanceCount,
        final Appendable out,
        final OffHeapAllocator allocator)
    {
        final StringBuilder line = new StringBuilder(1 << 16);
        visit(requested, qslTotalCount, qslPerformanceCount, allocator, new Visitor()
        {
            @Override
            public void load(final long[] indices) throws IOException
            {
                indices(line, 'L', indices);
                out.append(line).append('\n');
            }

            @Override
            public void query(final Trace trace, final long query) throws IOException
            {
                line.setLength(0);
                line.append("Q ").append(trace.scheduledOffsetNs(query));
                final long[] loaded = trace.loadableSet().indices();
                final int spq = trace.samplesPerQuery();
                for (long s = query * spq, end = s + spq; s < end; s++)
                {
                    line.append(' ').append(loaded[trace.position(s)]);
                }
                out.append(line).append('\n');
            }

            @Override
            public void unload(final long[] indices) throws IOException
            {
                indices(line, 'U', indices);
                out.append(line).append('\n');
            }
        });
    }

    /**
     * Generates a test's series in LoadGen's mode flow and hands each load, query and unload to the visitor.
     *
     * @param requested           requested settings (scenario and mode included).
     * @param qslTotalCount       the QSL's total sample count.
     * @param qslPerformanceCount the QSL's performance sample count.
     * @param allocator           memory for the generated traces.
     * @param visitor             receives the trace.
     * @throws IllegalArgumentException for FindPeakPerformance, whose later traces depend on measured results.
     */
    public static void visit(
        final TestSettings requested,
        final long qslTotalCount,
        final long qslPerformanceCount,
        final OffHeapAllocator allocator,
        final Visitor visitor)
    {
        final EffectiveSettings settings = new EffectiveSettings(requested, qslTotalCount, qslPerformanceCount);
        final SequenceGen sequence = new SequenceGen();
        try
        {
            switch (settings.mode)
            {
                case ACCURACY_ONLY -> series(settings, TestMode.ACCURACY_ONLY, qslTotalCount, sequence, visitor,
                    allocator);
                case PERFORMANCE_ONLY ->
                    series(settings, TestMode.PERFORMANCE_ONLY, qslTotalCount, sequence, visitor, allocator);
                case SUBMISSION_RUN ->
                {
                    series(settings, TestMode.ACCURACY_ONLY, qslTotalCount, sequence, visitor, allocator);
                    series(settings, TestMode.PERFORMANCE_ONLY, qslTotalCount, sequence, visitor, allocator);
                }
                case FIND_PEAK_PERFORMANCE -> throw new IllegalArgumentException(
                    "FindPeakPerformance has no fixed trace: each step's target QPS depends on the previous "
                        + "step's measured latencies; trace its first step with --mode PerformanceOnly");
                default -> throw new IllegalStateException("unknown mode " + settings.mode);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void series(
        final EffectiveSettings settings,
        final TestMode seriesMode,
        final long qslTotalCount,
        final SequenceGen sequence,
        final Visitor visitor,
        final OffHeapAllocator allocator) throws IOException
    {
        final boolean accuracy = seriesMode == TestMode.ACCURACY_ONLY;
        final List<LoadableSet> sets = LoadableSets.generate(
            accuracy ? settings.accuracySampleCount : settings.performanceSampleCount, qslTotalCount,
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed);
        for (final LoadableSet set : accuracy ? sets : sets.subList(0, 1))
        {
            visitor.load(set.indices());
            try (Trace trace = QueryGenerator.generate(settings, set, seriesMode, sequence,
                QueryGenerator.AccuracyLogSelection.NONE, allocator))
            {
                for (long q = 0; q < trace.queryCount(); q++)
                {
                    visitor.query(trace, q);
                }
                visitor.endSeries(trace);
            }
            visitor.unload(set.indices());
        }
    }

    private static void indices(final StringBuilder line, final char tag, final long[] indices)
    {
        line.setLength(0);
        line.append(tag);
        for (final long index : indices)
        {
            line.append(' ').append(index);
        }
    }
}
