package org.jloadgen.schedule;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.memory.GrowableOffHeapArray;
import org.jloadgen.memory.OffHeapRegion;

/**
 * The queries of one series, generated before the clock starts (spec §3.2; loadgen/loadgen.cc, GenerateQueries), held
 * off-heap as struct-of-arrays: the loaded-set position of every sample (MultiStream: of every query's first sample,
 * the rest are contiguous; 16 bits each while the loaded set has at most 65536 samples, as MLPerf's do, else 32), the
 * scheduled offset of every query (Server only; other scenarios use a constant period) and, in performance mode, a bit
 * per sample selected for the accuracy log. Every query of a series has the same number of samples, so sample {@code s}
 * belongs to query {@code s / samplesPerQuery}.
 * <p>
 * Immutable once generated; read by the issue thread and (for accuracy-log selection) by completing threads. A long
 * SingleStream or MultiStream trace may still be generating while its series runs ({@link #fill()}): its queries
 * from {@link TraceFill#readyQueries()} on are not written yet.
 */
public final class Trace implements AutoCloseable
{
    private final TestScenario scenario;
    private final TestMode mode;
    private final LoadableSet loadableSet;
    private final int samplesPerQuery;
    private final long queryCount;
    private final long firstQueryId;
    private final long firstSampleId;
    private final long periodNs;
    private final long durationNs;
    private final boolean logAllSamples;
    private final OffHeapRegion positionsRegion;
    private final OffHeapRegion offsetsRegion;
    private final OffHeapRegion accuracyBitsRegion;
    private final OffHeapRegion continuationRegion;
    private final MemorySegment continuation;
    private final MemorySegment positions;
    private final MemorySegment offsets;
    private final MemorySegment accuracyBits;
    private final boolean shortPositions;
    private final TraceFill fill;

    Trace(
        final TestScenario scenario,
        final TestMode mode,
        final LoadableSet loadableSet,
        final int samplesPerQuery,
        final long queryCount,
        final long firstQueryId,
        final long firstSampleId,
        final long periodNs,
        final long durationNs,
        final boolean logAllSamples,
        final OffHeapRegion positionsRegion,
        final OffHeapRegion offsetsRegion,
        final OffHeapRegion accuracyBitsRegion,
        final OffHeapRegion continuationRegion,
        final TraceFill fill)
    {
        this.fill = fill;
        this.scenario = scenario;
        this.mode = mode;
        this.loadableSet = loadableSet;
        this.samplesPerQuery = samplesPerQuery;
        this.queryCount = queryCount;
        this.firstQueryId = firstQueryId;
        this.firstSampleId = firstSampleId;
        this.periodNs = periodNs;
        this.durationNs = durationNs;
        this.logAllSamples = logAllSamples;
        this.positionsRegion = positionsRegion;
        this.offsetsRegion = offsetsRegion;
        this.accuracyBitsRegion = accuracyBitsRegion;
        this.positions = positionsRegion.segment();
        this.shortPositions = positionBytes(loadableSet.size()) == 2;
        this.offsets = offsetsRegion == null ? null : offsetsRegion.segment();
        this.accuracyBits = accuracyBitsRegion == null ? null : accuracyBitsRegion.segment();
        this.continuationRegion = continuationRegion;
        this.continuation = continuationRegion == null ? null : continuationRegion.segment();
    }

    /**
     * @param loadedSetSize samples in the loaded set (padding included).
     * @return bytes per stored position: 2 while every position fits 16 bits, else 4.
     */
    static int positionBytes(final int loadedSetSize)
    {
        return loadedSetSize <= 1 << 16 ? 2 : 4;
    }

    /**
     * Appends a position to an array made with {@link #positionBytes} bytes per element.
     *
     * @param positions the array.
     * @param position  a loaded-set position.
     */
    static void addPosition(final GrowableOffHeapArray positions, final int position)
    {
        if (positions.elementBytes() == 2)
        {
            positions.addShort((short)position);
        }
        else
        {
            positions.addInt(position);
        }
    }

    /**
     * Writes element {@code index} of a positions array of {@code bytes} bytes per element.
     *
     * @param positions the array's memory.
     * @param bytes     2 or 4.
     * @param index     element.
     * @param position  a loaded-set position.
     */
    static void setPosition(final MemorySegment positions, final int bytes, final long index, final int position)
    {
        if (bytes == 2)
        {
            positions.set(ValueLayout.JAVA_SHORT, index << 1, (short)position);
        }
        else
        {
            positions.set(ValueLayout.JAVA_INT, index << 2, position);
        }
    }

    private int storedPosition(final long index)
    {
        return shortPositions ? Short.toUnsignedInt(positions.get(ValueLayout.JAVA_SHORT, index << 1))
            : positions.get(ValueLayout.JAVA_INT, index << 2);
    }

    /**
     * @return the generation still to run while the series runs, or {@code null} when the trace is complete.
     */
    public TraceFill fill()
    {
        return fill;
    }

    /**
     * @return whether some queries must be issued together with the query before them (replayed traces).
     */
    public boolean hasContinuations()
    {
        return continuation != null;
    }

    /**
     * @param query query number in the series.
     * @return whether it belongs to the same replayed query as the one before it and goes out in the same call.
     */
    public boolean continuesPrevious(final long query)
    {
        if (continuation == null)
        {
            return false;
        }
        final long word = continuation.get(ValueLayout.JAVA_LONG, (query >>> 6) << 3);
        return (word & (1L << (query & 63))) != 0;
    }

    /**
     * @return the scenario the trace was generated for.
     */
    public TestScenario scenario()
    {
        return scenario;
    }

    /**
     * @return {@link TestMode#ACCURACY_ONLY} or {@link TestMode#PERFORMANCE_ONLY}.
     */
    public TestMode mode()
    {
        return mode;
    }

    /**
     * @return the loadable set the positions refer to.
     */
    public LoadableSet loadableSet()
    {
        return loadableSet;
    }

    /**
     * @return samples per query ({@code generated_samples_per_query}).
     */
    public int samplesPerQuery()
    {
        return samplesPerQuery;
    }

    /**
     * @return number of queries ({@code generated_query_count}).
     */
    public long queryCount()
    {
        return queryCount;
    }

    /**
     * @return number of samples.
     */
    public long sampleCount()
    {
        return queryCount * samplesPerQuery;
    }

    /**
     * @return sequence id of the first query.
     */
    public long firstQueryId()
    {
        return firstQueryId;
    }

    /**
     * @return sequence id of the first sample.
     */
    public long firstSampleId()
    {
        return firstSampleId;
    }

    /**
     * @return the schedule's end: the offset after the last query ({@code generated_query_duration}).
     */
    public long durationNs()
    {
        return durationNs;
    }

    /**
     * @param query query number in the series.
     * @return its scheduled offset from the start of issuing.
     */
    public long scheduledOffsetNs(final long query)
    {
        return offsets != null ? offsets.get(ValueLayout.JAVA_LONG, query << 3) : query * periodNs;
    }

    /**
     * @param sample sample number in the series.
     * @return its position in the loaded set.
     */
    public int position(final long sample)
    {
        if (scenario == TestScenario.MULTI_STREAM)
        {
            final long query = sample / samplesPerQuery;
            return storedPosition(query) + (int)(sample - query * samplesPerQuery);
        }
        return storedPosition(sample);
    }

    /**
     * @param query query number in the series.
     * @return loaded-set position of its first sample.
     */
    public int firstPosition(final long query)
    {
        return position(query * samplesPerQuery);
    }

    /**
     * @param sample sample number in the series.
     * @return its QSL index.
     */
    public long sampleIndex(final long sample)
    {
        return loadableSet.indices()[position(sample)];
    }

    /**
     * @return whether every sample goes to the accuracy log (accuracy mode).
     */
    public boolean logAllSamples()
    {
        return logAllSamples;
    }

    /**
     * @return whether any sample goes to the accuracy log.
     */
    public boolean logsAnySample()
    {
        return logAllSamples || accuracyBits != null && (fill == null || fill.anySelected());
    }

    /**
     * @param sample sample number in the series.
     * @return whether its response is copied to the accuracy log (spec §4.6; loadgen/loadgen.cc,
     * ResponseDelegateDetailed::SampleComplete).
     */
    public boolean accuracyLogged(final long sample)
    {
        if (logAllSamples)
        {
            return true;
        }
        if (accuracyBits == null)
        {
            return false;
        }
        final long word = accuracyBits.get(ValueLayout.JAVA_LONG, (sample >>> 6) << 3);
        return (word & (1L << (sample & 63))) != 0;
    }

    /**
     * @return bytes of off-heap memory this trace holds.
     */
    public long offHeapBytes()
    {
        return positions.byteSize() + (offsets == null ? 0 : offsets.byteSize())
            + (accuracyBits == null ? 0 : accuracyBits.byteSize());
    }

    @Override
    public void close()
    {
        if (fill != null)
        {
            // Its thread writes into the regions freed below.
            fill.stopAndAwait();
        }
        positionsRegion.close();
        if (offsetsRegion != null)
        {
            offsetsRegion.close();
        }
        if (accuracyBitsRegion != null)
        {
            accuracyBitsRegion.close();
        }
        if (continuationRegion != null)
        {
            continuationRegion.close();
        }
    }
}
