package org.jloadgen.engine.official;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import org.jloadgen.api.QuerySamples;

/**
 * The samples of one IssueQuery call, read in place from LoadGen's own array of {@code {id, index}} records (no
 * copy, whatever the query's size): a reusable flyweight, one per issuing thread, valid during the call.
 * A MultiStream query's samples are adjacent in the loaded set, so its positions follow its first sample's.
 */
final class BridgeSamples implements QuerySamples
{
    /** All of memory: a sample is read at its absolute address, so wrapping a query allocates nothing. */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final long RECORD_BYTES = 16;
    private static final long INDEX_OFFSET = 8;

    private final LoadedSet loaded;
    private final boolean adjacent;
    private long address;
    private int size;
    private int firstPosition;

    /**
     * @param loaded   the loaded set, for positions.
     * @param adjacent whether a query's samples are adjacent in the loaded set (MultiStream).
     */
    BridgeSamples(final LoadedSet loaded, final boolean adjacent)
    {
        this.loaded = loaded;
        this.adjacent = adjacent;
    }

    /**
     * @param samplesAddress LoadGen's {@code QuerySample} array.
     * @param count          its length.
     * @return this.
     */
    BridgeSamples wrap(final long samplesAddress, final int count)
    {
        this.address = samplesAddress;
        this.size = count;
        this.firstPosition = -1;
        return this;
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public long responseId(final int i)
    {
        return MEMORY.get(ValueLayout.JAVA_LONG, address + RECORD_BYTES * Objects.checkIndex(i, size));
    }

    @Override
    public long sampleIndex(final int i)
    {
        return MEMORY.get(ValueLayout.JAVA_LONG, address + RECORD_BYTES * Objects.checkIndex(i, size) + INDEX_OFFSET);
    }

    @Override
    public int loadedPosition(final int i)
    {
        if (!adjacent)
        {
            return loaded.position(sampleIndex(i));
        }
        Objects.checkIndex(i, size);
        if (firstPosition < 0)
        {
            firstPosition = loaded.position(sampleIndex(0));
        }
        return firstPosition + i;
    }
}
