package org.jloadgen.sut;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * Writes, reads and prints {@link SutStatistics.Snapshot}s in the {@value SutStatistics#FILE_NAME} format (described
 * on {@link SutStatistics.Snapshot}).
 */
final class SutStatisticsFormat
{
    /** Batch sizes listed on the console, most frequent first. */
    private static final int CONSOLE_SIZES = 6;

    private SutStatisticsFormat()
    {
    }

    static String write(final SutStatistics.Snapshot s)
    {
        final StringBuilder out = new StringBuilder(1024);
        out.append("# JLoadGen SUT statistics (format: javadoc of org.jloadgen.sut.SutStatistics.Snapshot)\n");
        out.append("format ").append(SutStatistics.FORMAT_VERSION).append('\n');
        out.append("sut ").append(s.sutName()).append('\n');
        out.append("batches ").append(s.batches()).append('\n');
        out.append("samples ").append(s.samples()).append('\n');
        final long[] counts = s.batchCounts();
        for (int size = 1; size < counts.length; size++)
        {
            if (counts[size] != 0)
            {
                out.append("batch_size ").append(size).append(' ').append(counts[size]).append('\n');
            }
        }
        for (final SutStatistics.StageTimes stage : s.stages())
        {
            final Histogram h = stage.histogram();
            final boolean any = h.getTotalCount() > 0;
            out.append("stage ").append(stage.name())
                .append(" count ").append(h.getTotalCount())
                .append(" min_ns ").append(any ? h.getMinValue() : 0)
                .append(" mean_ns ").append(String.format(Locale.ROOT, "%.1f", any ? h.getMean() : 0.0))
                .append(" p50_ns ").append(any ? h.getValueAtPercentile(50) : 0)
                .append(" p90_ns ").append(any ? h.getValueAtPercentile(90) : 0)
                .append(" p99_ns ").append(any ? h.getValueAtPercentile(99) : 0)
                .append(" p999_ns ").append(any ? h.getValueAtPercentile(99.9) : 0)
                .append(" max_ns ").append(any ? h.getMaxValue() : 0)
                .append('\n');
            final ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            final int bytes = h.encodeIntoCompressedByteBuffer(buffer);
            out.append("stage_histogram ").append(stage.name()).append(' ')
                .append(Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), bytes)))
                .append('\n');
        }
        for (final Map.Entry<String, Long> counter : s.counters().entrySet())
        {
            out.append("counter ").append(counter.getKey()).append(' ').append(counter.getValue()).append('\n');
        }
        return out.toString();
    }

    static SutStatistics.Snapshot read(final Path file, final List<String> lines)
    {
        String sut = null;
        int version = -1;
        final Map<Integer, Long> sizes = new LinkedHashMap<>();
        final Map<String, Histogram> stages = new LinkedHashMap<>();
        final Map<String, Long> counters = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#"))
            {
                continue;
            }
            final String where = file + ":" + (i + 1);
            final String[] f = line.split(" ");
            try
            {
                switch (f[0])
                {
                    case "format" ->
                    {
                        version = Integer.parseInt(f[1]);
                        if (version != SutStatistics.FORMAT_VERSION)
                        {
                            throw new IllegalArgumentException(where + ": format " + version + ", this reader knows "
                                + SutStatistics.FORMAT_VERSION);
                        }
                    }
                    case "sut" -> sut = line.substring(4);
                    case "batch_size" -> sizes.put(Integer.parseInt(f[1]), Long.parseLong(f[2]));
                    case "stage_histogram" -> stages.put(f[1], Histogram.decodeFromCompressedByteBuffer(
                        ByteBuffer.wrap(Base64.getDecoder().decode(f[2])), 0));
                    case "counter" -> counters.put(f[1], Long.parseLong(f[2]));
                    default ->
                    {
                        // batches, samples and stage lines are derived from the records above; unknown records
                        // belong to later versions.
                    }
                }
            }
            catch (final ArrayIndexOutOfBoundsException | NumberFormatException | DataFormatException ex)
            {
                throw new IllegalArgumentException(where + ": malformed '" + f[0] + "' record: " + line, ex);
            }
        }
        if (version < 0 || sut == null)
        {
            throw new IllegalArgumentException(file + ": not a SUT statistics file (no 'format' or 'sut' line)");
        }
        final int max = sizes.keySet().stream().mapToInt(Integer::intValue).max().orElse(1);
        final long[] counts = new long[max + 1];
        sizes.forEach((size, count) -> counts[size] = count);
        final List<SutStatistics.StageTimes> times = new ArrayList<>();
        stages.forEach((name, histogram) -> times.add(new SutStatistics.StageTimes(name, histogram)));
        return new SutStatistics.Snapshot(sut, counts, times, counters);
    }

    static String describe(final SutStatistics.Snapshot s, final Path file)
    {
        final StringBuilder out = new StringBuilder(512);
        final long batches = s.batches();
        out.append(String.format(Locale.ROOT, "SUT statistics: %d batches, %d samples", batches, s.samples()));
        if (batches > 0)
        {
            // The sizes on a line of their own, so that both lines fit 80 columns.
            out.append(String.format(Locale.ROOT, ", mean batch %.1f%n  batch sizes ", (double)s.samples() / batches));
            final long[] counts = s.batchCounts();
            final List<Integer> used = new ArrayList<>();
            for (int size = 1; size < counts.length; size++)
            {
                if (counts[size] != 0)
                {
                    used.add(size);
                }
            }
            used.sort(Comparator.comparingLong((Integer size) -> counts[size]).reversed());
            for (int i = 0; i < Math.min(CONSOLE_SIZES, used.size()); i++)
            {
                out.append(i == 0 ? "" : ", ").append(used.get(i)).append(" x").append(counts[used.get(i)]);
            }
            if (used.size() > CONSOLE_SIZES)
            {
                out.append(", ").append(used.size() - CONSOLE_SIZES).append(" more");
            }
        }
        out.append('\n');
        for (final SutStatistics.StageTimes stage : s.stages())
        {
            final Histogram h = stage.histogram();
            if (h.getTotalCount() == 0)
            {
                out.append(String.format(Locale.ROOT, "  %-10s no recordings%n", stage.name()));
                continue;
            }
            out.append(String.format(Locale.ROOT, "  %-10s n %d, mean %s, p50 %s, p99 %s, max %s%n", stage.name(),
                h.getTotalCount(), time(h.getMean()), time(h.getValueAtPercentile(50)),
                time(h.getValueAtPercentile(99)), time(h.getMaxValue())));
        }
        for (final Map.Entry<String, Long> counter : s.counters().entrySet())
        {
            out.append("  ").append(counter.getKey()).append(' ').append(counter.getValue()).append('\n');
        }
        if (file != null)
        {
            out.append("  written to ").append(file.toAbsolutePath()).append('\n');
        }
        return out.toString();
    }

    private static String time(final double ns)
    {
        if (ns < 10_000)
        {
            return String.format(Locale.ROOT, "%.0f ns", ns);
        }
        if (ns < 10_000_000)
        {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        if (ns < 100_000_000)
        {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        // Four figures at most from 100 ms up, so that a stage's line fits 80 columns with Offline's long hand-offs.
        if (ns < 1_000_000_000)
        {
            return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }
}
