package org.jloadgen.schedule;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.clib.IoErrors;
import org.jloadgen.memory.GrowableOffHeapArray;
import org.jloadgen.memory.OffHeapAllocator;

/**
 * A trace of timestamped queries to replay (the SyLT idea: traffic captured in production, or generated
 * elsewhere). Two file formats are read:
 * <ul>
 * <li>the text {@code jloadgen trace} prints: {@code Q <scheduled_ns> <qsl indices...>} lines, each a query
 * whose samples go out in one call; {@code L}/{@code U} lines, blank lines and {@code #} comments are skipped;
 * offsets are used as written;</li>
 * <li>CSV, one query of one sample per row: {@code timestamp_ns,sample_index}, with that header line optional;
 * blank lines and {@code #} comments are skipped; times must not be negative and count from the first row's (a
 * capture's epoch timestamps replay from 0).</li>
 * </ul>
 * A file is CSV when its first line that is not blank or a comment holds a comma. Offsets must not decrease.
 */
public final class ReplayQueries
{
    /** The CSV header. */
    public static final String CSV_HEADER = "timestamp_ns,sample_index";

    /** How a trace is written. */
    public enum Format
    {
        /** {@code Q <scheduled_ns> <qsl indices...>} lines. */
        TEXT,
        /** {@value #CSV_HEADER} rows. */
        CSV;

        /**
         * @param file a file name.
         * @return CSV for a {@code .csv} name, else TEXT.
         */
        public static Format forFile(final Path file)
        {
            return file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".csv") ? CSV : TEXT;
        }
    }

    private final String source;
    private final long[] offsetsNs;
    private final int[] sampleCounts;
    private final long[] indices;

    /**
     * @param source       what the queries came from, for messages.
     * @param offsetsNs    scheduled offset of each query, not decreasing.
     * @param sampleCounts samples of each query (at least 1).
     * @param indices      the QSL indices of all samples, query after query.
     */
    ReplayQueries(final String source, final long[] offsetsNs, final int[] sampleCounts, final long[] indices)
    {
        this.source = source;
        this.offsetsNs = offsetsNs;
        this.sampleCounts = sampleCounts;
        this.indices = indices;
    }

    /**
     * @param file the trace file, text or CSV.
     * @return its queries.
     * @throws IllegalArgumentException naming the file and line of a malformed entry.
     * @throws UncheckedIOException if the file cannot be read.
     */
    public static ReplayQueries read(final Path file)
    {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            final Builder b = new Builder(file);
            String line;
            Boolean csv = null;
            while ((line = in.readLine()) != null)
            {
                b.lineNumber++;
                final String t = line.trim();
                if (t.isEmpty() || t.startsWith("#"))
                {
                    continue;
                }
                if (csv == null)
                {
                    csv = t.indexOf(',') >= 0;
                    if (csv && !Character.isDigit(t.charAt(0)) && t.charAt(0) != '-')
                    {
                        if (!t.replace(" ", "").equalsIgnoreCase(CSV_HEADER))
                        {
                            throw b.error("expected the CSV header '" + CSV_HEADER + "' or a first row, got '"
                                + abbreviate(t) + "'");
                        }
                        continue;
                    }
                }
                if (csv)
                {
                    b.csvRow(t);
                }
                else
                {
                    b.textLine(t);
                }
            }
            return b.build();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read trace " + file + ": " + IoErrors.reason(ex), ex);
        }
    }

    /**
     * Collects the queries of a file while it is read.
     */
    private static final class Builder
    {
        private final Path file;
        private int lineNumber;
        private long[] offsets = new long[1024];
        private int[] counts = new int[1024];
        private long[] samples = new long[1024];
        private int queries;
        private int sampleTotal;
        private long firstTimestampNs;

        Builder(final Path file)
        {
            this.file = file;
        }

        IllegalArgumentException error(final String message)
        {
            return new IllegalArgumentException(file + ": line " + lineNumber + ": " + message);
        }

        void textLine(final String t)
        {
            if (t.startsWith("L") || t.startsWith("U"))
            {
                return;
            }
            final String[] f = t.split("\\s+");
            if (!f[0].equals("Q") || f.length < 3)
            {
                throw error("expected 'Q <scheduled_ns> <qsl index>...', got '" + abbreviate(t) + "'");
            }
            addQuery(parse(f[1], file, lineNumber, "scheduled_ns"));
            for (int i = 2; i < f.length; i++)
            {
                addSample(parse(f[i], file, lineNumber, "qsl index"));
            }
        }

        void csvRow(final String t)
        {
            final String[] f = t.split(",", -1);
            if (f.length != 2)
            {
                throw error("expected 2 fields 'timestamp_ns,sample_index', got " + f.length + ": '"
                    + abbreviate(t) + "'");
            }
            final long timestampNs = parse(f[0].trim(), file, lineNumber, "timestamp_ns");
            if (timestampNs < 0)
            {
                // Times count from the first row's, so a negative first row would otherwise pass unnoticed.
                throw error("timestamp_ns " + timestampNs + " is negative (a capture's times are 0 or more)");
            }
            if (queries == 0)
            {
                firstTimestampNs = timestampNs;
            }
            addQuery(timestampNs - firstTimestampNs);
            addSample(parse(f[1].trim(), file, lineNumber, "sample_index"));
        }

        private void addQuery(final long offset)
        {
            if (offset < 0 || (queries > 0 && offset < offsets[queries - 1]))
            {
                throw error("timestamp " + offset + " ns (from the first) is negative or earlier than the previous "
                    + "query's");
            }
            if (queries == offsets.length)
            {
                offsets = Arrays.copyOf(offsets, queries * 2);
                counts = Arrays.copyOf(counts, queries * 2);
            }
            offsets[queries] = offset;
            counts[queries] = 0;
            queries++;
        }

        private void addSample(final long index)
        {
            if (index < 0)
            {
                throw error("negative qsl index " + index);
            }
            if (sampleTotal == samples.length)
            {
                samples = Arrays.copyOf(samples, sampleTotal * 2);
            }
            samples[sampleTotal++] = index;
            counts[queries - 1]++;
        }

        ReplayQueries build()
        {
            if (queries == 0)
            {
                throw new IllegalArgumentException(file + ": no queries ('Q' lines or CSV rows): nothing to replay");
            }
            return new ReplayQueries(file.toString(), Arrays.copyOf(offsets, queries), Arrays.copyOf(counts, queries),
                Arrays.copyOf(samples, sampleTotal));
        }
    }

    private static long parse(final String s, final Path file, final int line, final String what)
    {
        try
        {
            return Long.parseLong(s);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(file + ": line " + line + ": " + what + " '" + s
                + "' is not an integer", ex);
        }
    }

    private static String abbreviate(final String s)
    {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    /**
     * @return what the queries came from (a file name, or how they were generated).
     */
    public String source()
    {
        return source;
    }

    /**
     * @return number of queries.
     */
    public int queryCount()
    {
        return offsetsNs.length;
    }

    /**
     * @return number of samples over all queries.
     */
    public int sampleCount()
    {
        return indices.length;
    }

    /**
     * @return the trace's average rate as LoadGen counts a Server run's: (samples - 1) over the last query's offset
     *         in seconds; 0 for a trace of one instant.
     */
    public double samplesPerSecond()
    {
        final double seconds = lastOffsetNs() / 1e9;
        return seconds > 0 && indices.length > 1 ? (indices.length - 1) / seconds : 0;
    }

    /**
     * The same queries on a faster or slower clock: every offset divided by {@code speed}.
     *
     * @param speed 2.0 replays twice as fast; positive and finite.
     * @return the scaled trace (this one when the speed is 1).
     */
    public ReplayQueries scaled(final double speed)
    {
        if (!(speed > 0) || Double.isInfinite(speed))
        {
            throw new IllegalArgumentException("trace speed must be a positive number, got " + speed);
        }
        if (speed == 1.0)
        {
            return this;
        }
        final long[] scaled = new long[offsetsNs.length];
        for (int i = 0; i < scaled.length; i++)
        {
            scaled[i] = Math.round(offsetsNs[i] / speed);
        }
        return new ReplayQueries(source + " at speed " + speed, scaled, sampleCounts, indices);
    }

    /**
     * Writes the queries in one of the formats {@link #read} reads.
     *
     * @param out    where.
     * @param format TEXT ({@code Q} lines, a query's samples on one line) or CSV (one row per sample, a query's
     *               samples on rows with equal timestamps, which replay as queries of their own).
     * @throws IOException if writing fails.
     */
    public void write(final Appendable out, final Format format) throws IOException
    {
        final StringBuilder line = new StringBuilder(64);
        if (format == Format.CSV)
        {
            out.append(CSV_HEADER).append('\n');
        }
        int at = 0;
        for (int q = 0; q < offsetsNs.length; q++)
        {
            line.setLength(0);
            if (format == Format.CSV)
            {
                for (int i = 0; i < sampleCounts[q]; i++)
                {
                    line.append(offsetsNs[q]).append(',').append(indices[at++]).append('\n');
                }
            }
            else
            {
                line.append("Q ").append(offsetsNs[q]);
                for (int i = 0; i < sampleCounts[q]; i++)
                {
                    line.append(' ').append(indices[at++]);
                }
                line.append('\n');
            }
            out.append(line);
        }
    }

    /**
     * @return the largest QSL index referenced.
     */
    public long maxIndex()
    {
        long max = 0;
        for (final long i : indices)
        {
            max = Math.max(max, i);
        }
        return max;
    }

    /**
     * @return the last query's scheduled offset.
     */
    public long lastOffsetNs()
    {
        return offsetsNs[offsetsNs.length - 1];
    }

    /**
     * @return the loaded set: every referenced QSL index once, in order of first use.
     */
    public LoadableSet loadableSet()
    {
        final long[] distinct = Arrays.stream(indices).distinct().toArray();
        if (distinct.length > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException(source + ": too many distinct samples");
        }
        return new LoadableSet(distinct, distinct.length);
    }

    /**
     * Builds the trace of a Server-style replay: every sample is a query of one sample scheduled at its query's
     * time; the samples of one replayed query are marked to be issued together in one call.
     *
     * @param set       the set from {@link #loadableSet()}.
     * @param sequence  the test's sequence ids (advanced).
     * @param allocator memory.
     * @return the trace.
     */
    public Trace toTrace(final LoadableSet set, final SequenceGen sequence, final OffHeapAllocator allocator)
    {
        final java.util.Map<Long, Integer> position = new java.util.HashMap<>(set.size() * 2);
        for (int i = 0; i < set.size(); i++)
        {
            position.put(set.indices()[i], i);
        }
        final long samples = indices.length;
        try (GrowableOffHeapArray positions = new GrowableOffHeapArray(allocator, Trace.positionBytes(set.size()),
            samples);
            GrowableOffHeapArray offsets = new GrowableOffHeapArray(allocator, 8, samples);
            GrowableOffHeapArray continuation = new GrowableOffHeapArray(allocator, 8, (samples >>> 6) + 1))
        {
            long word = 0;
            int bit = 0;
            int at = 0;
            for (int q = 0; q < offsetsNs.length; q++)
            {
                for (int i = 0; i < sampleCounts[q]; i++)
                {
                    Trace.addPosition(positions, position.get(indices[at++]));
                    offsets.addLong(offsetsNs[q]);
                    if (i > 0)
                    {
                        word |= 1L << bit;
                    }
                    if (++bit == 64)
                    {
                        continuation.addLong(word);
                        word = 0;
                        bit = 0;
                    }
                }
            }
            if (bit > 0)
            {
                continuation.addLong(word);
            }
            for (long i = 0; i < samples; i++)
            {
                sequence.nextAccuracyLogValue();
            }
            final long firstQueryId = sequence.nextQueryId();
            final long firstSampleId = sequence.nextSampleId();
            sequence.advance(samples, samples);
            return new Trace(TestScenario.SERVER, TestMode.PERFORMANCE_ONLY, set, 1, samples, firstQueryId,
                firstSampleId, 0, lastOffsetNs(), false, positions.detach(), offsets.detach(), null,
                continuation.detach(), null);
        }
    }
}
