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
 * elsewhere), read from the text {@code jloadgen trace} prints: {@code Q <scheduled_ns> <qsl indices...>}
 * lines; {@code L}/{@code U} lines, blank lines and {@code #} comments are skipped. Offsets must not decrease.
 */
public final class ReplayQueries
{
    private final Path source;
    private final long[] offsetsNs;
    private final int[] sampleCounts;
    private final long[] indices;

    private ReplayQueries(final Path source, final long[] offsetsNs, final int[] sampleCounts, final long[] indices)
    {
        this.source = source;
        this.offsetsNs = offsetsNs;
        this.sampleCounts = sampleCounts;
        this.indices = indices;
    }

    /**
     * @param file the trace file.
     * @return its queries.
     * @throws IllegalArgumentException naming the file and line of a malformed entry.
     */
    public static ReplayQueries read(final Path file)
    {
        long[] offsets = new long[1024];
        int[] counts = new int[1024];
        long[] samples = new long[1024];
        int queries = 0;
        int sampleTotal = 0;
        int lineNumber = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                lineNumber++;
                final String t = line.trim();
                if (t.isEmpty() || t.startsWith("#") || t.startsWith("L") || t.startsWith("U"))
                {
                    continue;
                }
                final String[] f = t.split("\\s+");
                if (!f[0].equals("Q") || f.length < 3)
                {
                    throw new IllegalArgumentException(file + ": line " + lineNumber
                        + ": expected 'Q <scheduled_ns> <qsl index>...', got '" + abbreviate(t) + "'");
                }
                final long offset = parse(f[1], file, lineNumber, "scheduled_ns");
                if (offset < 0 || (queries > 0 && offset < offsets[queries - 1]))
                {
                    throw new IllegalArgumentException(file + ": line " + lineNumber + ": scheduled_ns " + offset
                        + " is negative or earlier than the previous query's");
                }
                if (queries == offsets.length)
                {
                    offsets = Arrays.copyOf(offsets, queries * 2);
                    counts = Arrays.copyOf(counts, queries * 2);
                }
                offsets[queries] = offset;
                counts[queries] = f.length - 2;
                queries++;
                for (int i = 2; i < f.length; i++)
                {
                    if (sampleTotal == samples.length)
                    {
                        samples = Arrays.copyOf(samples, sampleTotal * 2);
                    }
                    final long index = parse(f[i], file, lineNumber, "qsl index");
                    if (index < 0)
                    {
                        throw new IllegalArgumentException(file + ": line " + lineNumber + ": negative qsl index "
                            + index);
                    }
                    samples[sampleTotal++] = index;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read trace " + file + ": " + IoErrors.reason(ex), ex);
        }
        if (queries == 0)
        {
            throw new IllegalArgumentException(file + ": no 'Q' lines: nothing to replay");
        }
        return new ReplayQueries(file, Arrays.copyOf(offsets, queries), Arrays.copyOf(counts, queries),
            Arrays.copyOf(samples, sampleTotal));
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
     * @return the file the queries came from.
     */
    public Path source()
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
                continuation.detach());
        }
    }
}
