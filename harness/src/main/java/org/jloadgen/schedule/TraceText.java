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
     * @param requested        requested settings (scenario and mode included).
     * @param qslTotalCount    the QSL's total sample count.
     * @param qslPerformanceCount the QSL's performance sample count.
     * @param out              where the lines go.
     * @param allocator        memory for the generated traces.
     * @throws IllegalArgumentException for FindPeakPerformance, whose later traces depend on measured results.
     */
    public static void write(
        final TestSettings requested,
        final long qslTotalCount,
        final long qslPerformanceCount,
        final Appendable out,
        final OffHeapAllocator allocator)
    {
        final EffectiveSettings settings = new EffectiveSettings(requested, qslTotalCount, qslPerformanceCount);
        final SequenceGen sequence = new SequenceGen();
        try
        {
            switch (settings.mode)
            {
                case ACCURACY_ONLY -> series(settings, TestMode.ACCURACY_ONLY, qslTotalCount, sequence, out, allocator);
                case PERFORMANCE_ONLY ->
                    series(settings, TestMode.PERFORMANCE_ONLY, qslTotalCount, sequence, out, allocator);
                case SUBMISSION_RUN ->
                {
                    series(settings, TestMode.ACCURACY_ONLY, qslTotalCount, sequence, out, allocator);
                    series(settings, TestMode.PERFORMANCE_ONLY, qslTotalCount, sequence, out, allocator);
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
        final Appendable out,
        final OffHeapAllocator allocator) throws IOException
    {
        final boolean accuracy = seriesMode == TestMode.ACCURACY_ONLY;
        final List<LoadableSet> sets = LoadableSets.generate(
            accuracy ? settings.accuracySampleCount : settings.performanceSampleCount, qslTotalCount,
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed);
        final List<LoadableSet> used = accuracy ? sets : sets.subList(0, 1);
        final StringBuilder line = new StringBuilder(1 << 16);
        for (final LoadableSet set : used)
        {
            indices(line.append('L'), set.indices());
            out.append(line).append('\n');
            try (Trace trace = QueryGenerator.generate(settings, set, seriesMode, sequence,
                QueryGenerator.AccuracyLogSelection.NONE, allocator))
            {
                final long[] loaded = set.indices();
                final int spq = trace.samplesPerQuery();
                for (long q = 0; q < trace.queryCount(); q++)
                {
                    line.setLength(0);
                    line.append("Q ").append(trace.scheduledOffsetNs(q));
                    for (long s = q * spq, end = s + spq; s < end; s++)
                    {
                        line.append(' ').append(loaded[trace.position(s)]);
                    }
                    out.append(line).append('\n');
                }
            }
            line.setLength(0);
            indices(line.append('U'), set.indices());
            out.append(line).append('\n');
            line.setLength(0);
        }
    }

    private static void indices(final StringBuilder line, final long[] indices)
    {
        for (final long index : indices)
        {
            line.append(' ').append(index);
        }
    }
}
