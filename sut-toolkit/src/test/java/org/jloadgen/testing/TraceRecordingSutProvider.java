package org.jloadgen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.spi.SyntheticQsl;

/**
 * {@code --sut trace-recording} (test class path only): a SUT and QSL that write what an engine did to them to the
 * file {@code --sut-opt file=PATH} when the SUT closes, so the same command line under both engines can be compared
 * line for line: {@code L} and {@code U} lines with the indices of each load and unload, a {@code Q} line with
 * {@code index:position} per sample of each query, {@code F} per flush. Every sample completes inside
 * {@code issueQuery}: one at a time, or as one response array ({@code --sut-opt batch=true}). With
 * {@code --sut-opt tokens=N} each sample reports its first token first and completes with N tokens; with
 * {@code --sut-opt callback=true} (and batch) the payloads, each sample's QSL index as 4 little-endian bytes, are
 * written by the ResponseCallback, just before the engine copies them into the accuracy log.
 * <p>
 * With {@code --sut-opt allocation=true} it also measures the bytes the issuing thread allocates between the
 * middle and the end of the test, issue and completion paths included, and writes an {@code A} line with them.
 */
public final class TraceRecordingSutProvider implements SutProvider
{
    @Override
    public String name()
    {
        return "trace-recording";
    }

    @Override
    public String description()
    {
        return "test SUT: records loads, queries and flushes to --sut-opt file=PATH";
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final Path file = Path.of(context.option("file", "trace-recording.txt"));
        final boolean batch = Boolean.parseBoolean(context.option("batch", "false"));
        final boolean allocation = Boolean.parseBoolean(context.option("allocation", "false"));
        final long tokens = Long.parseLong(context.option("tokens", "0"));
        final boolean callback = Boolean.parseBoolean(context.option("callback", "false"));
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final Sut sut = new Sut(lines, batch, allocation, tokens, callback);
        final QuerySampleLibrary qsl = new RecordingQsl(
            new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), lines);
        return SutInstance.of(sut, qsl, () ->
        {
            sut.finish();
            write(file, lines);
        });
    }

    private static void write(final Path file, final List<String> lines)
    {
        try
        {
            Files.write(file, lines, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static final class Sut implements SystemUnderTest
    {
        private static final int CAPACITY = 1 << 16;
        private static final long MEASURE_FROM_QUERY = 40_000;

        private final List<String> lines;
        private final boolean batch;
        private final boolean allocation;
        private final QuerySampleResponses responses = new QuerySampleResponses(CAPACITY);
        private final MemorySegment payloads = Arena.ofAuto().allocate(4L * CAPACITY, 8);
        private final long[] batchIndices = new long[CAPACITY];
        private final ResponseCallback writePayload = (batchResponses, index) ->
        {
            payloads.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * index, (int)batchIndices[index]);
            batchResponses.data(index, payloads.address() + 4L * index, 4);
        };
        private final long tokens;
        private final boolean callback;
        private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        private final List<long[]> queries = new ArrayList<>();
        private long queryCount;
        /** The issuing thread's allocated bytes at the MEASURE_FROM_QUERY-th query, then at the last. */
        private final long[] allocatedBytesAt = {-1, -1};

        Sut(final List<String> lines, final boolean batch, final boolean allocation, final long tokens,
            final boolean callback)
        {
            this.lines = lines;
            this.batch = batch;
            this.allocation = allocation;
            this.tokens = tokens;
            this.callback = callback;
        }

        @Override
        public String name()
        {
            return "TraceRecordingSUT";
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            final int n = samples.size();
            if (allocation)
            {
                measure();
            }
            else
            {
                final long[] query = new long[2 * n];
                for (int i = 0; i < n; i++)
                {
                    query[2 * i] = samples.sampleIndex(i);
                    query[2 * i + 1] = samples.loadedPosition(i);
                }
                synchronized (queries)
                {
                    queries.add(query);
                }
            }
            if (!batch)
            {
                for (int i = 0; i < n; i++)
                {
                    if (tokens > 0)
                    {
                        sink.firstToken(samples.responseId(i), 0L, 0L);
                    }
                    sink.complete(samples.responseId(i), 0L, 0L, tokens);
                }
                return;
            }
            for (int first = 0; first < n; first += CAPACITY)
            {
                final int count = Math.min(CAPACITY, n - first);
                for (int i = 0; i < count; i++)
                {
                    responses.set(i, samples.responseId(first + i), 0L, 0L, tokens);
                    batchIndices[i] = samples.sampleIndex(first + i);
                }
                if (tokens > 0)
                {
                    sink.firstToken(responses, count);
                }
                if (callback)
                {
                    sink.complete(responses, count, writePayload);
                }
                else
                {
                    sink.complete(responses, count);
                }
            }
        }

        /**
         * Reads the issuing thread's allocated bytes at every query, into the first slot up to the
         * MEASURE_FROM_QUERY-th and into the second after it. No branch on the query count: a branch first taken at
         * the window's start was compiled as an uncommon trap, and the deoptimisation it set off there (objects the
         * compiled path had scalar-replaced, rematerialised; queries interpreted until the path was compiled again)
         * was now and then counted as the path's allocation (896 bytes once, in a full test run;
         * -Xlog:deoptimization showed the two traps in every run). {@code Math.min} and {@code Math.max} compile to
         * conditional moves.
         */
        private void measure()
        {
            queryCount++;
            final long bytes = threads.getCurrentThreadAllocatedBytes();
            allocatedBytesAt[(int)Math.min(1, Math.max(0, queryCount - MEASURE_FROM_QUERY))] = bytes;
        }

        @Override
        public void flushQueries()
        {
            synchronized (queries)
            {
                for (final long[] query : queries)
                {
                    final StringBuilder line = new StringBuilder("Q");
                    for (int i = 0; i < query.length; i += 2)
                    {
                        line.append(' ').append(query[i]).append(':').append(query[i + 1]);
                    }
                    lines.add(line.toString());
                }
                queries.clear();
            }
            lines.add("F");
        }

        void finish()
        {
            if (allocation)
            {
                lines.add("A " + (queryCount - MEASURE_FROM_QUERY) + " queries "
                    + (allocatedBytesAt[1] - allocatedBytesAt[0]) + " bytes");
            }
        }
    }

    private static final class RecordingQsl implements QuerySampleLibrary
    {
        private final QuerySampleLibrary qsl;
        private final List<String> lines;

        RecordingQsl(final QuerySampleLibrary qsl, final List<String> lines)
        {
            this.qsl = qsl;
            this.lines = lines;
        }

        @Override
        public String name()
        {
            return qsl.name();
        }

        @Override
        public long totalSampleCount()
        {
            return qsl.totalSampleCount();
        }

        @Override
        public long performanceSampleCount()
        {
            return qsl.performanceSampleCount();
        }

        @Override
        public void loadSamplesToRam(final long[] indices)
        {
            lines.add("L " + join(indices));
            qsl.loadSamplesToRam(indices);
        }

        @Override
        public void unloadSamplesFromRam(final long[] indices)
        {
            lines.add("U " + join(indices));
            qsl.unloadSamplesFromRam(indices);
        }

        private static String join(final long[] indices)
        {
            final StringBuilder text = new StringBuilder();
            for (final long index : indices)
            {
                text.append(text.isEmpty() ? "" : " ").append(index);
            }
            return text.toString();
        }
    }
}
