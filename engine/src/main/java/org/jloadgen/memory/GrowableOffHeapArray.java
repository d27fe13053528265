package org.jloadgen.memory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An append-only array of {@code short}s, {@code int}s or {@code long}s off-heap, used while generating a trace (before
 * the
 * clock starts). It starts at a capacity estimate and doubles by copying if the estimate was short.
 * Not thread-safe.
 */
public final class GrowableOffHeapArray implements AutoCloseable
{
    private final OffHeapAllocator allocator;
    private final int elementBytes;
    private OffHeapRegion region;
    private MemorySegment segment;
    private long capacity;
    private long size;

    /**
     * @param allocator       where the memory comes from.
     * @param elementBytes    2 for shorts, 4 for ints, 8 for longs.
     * @param initialCapacity number of elements to reserve.
     */
    public GrowableOffHeapArray(final OffHeapAllocator allocator, final int elementBytes, final long initialCapacity)
    {
        if (elementBytes != 2 && elementBytes != 4 && elementBytes != 8)
        {
            throw new IllegalArgumentException("element size must be 2, 4 or 8 bytes: " + elementBytes);
        }
        this.allocator = allocator;
        this.elementBytes = elementBytes;
        this.capacity = Math.max(16, initialCapacity);
        this.region = allocator.allocate(capacity * elementBytes);
        this.segment = region.segment();
    }

    /**
     * @return bytes per element.
     */
    public int elementBytes()
    {
        return elementBytes;
    }

    /**
     * @param value appended as a short.
     */
    public void addShort(final short value)
    {
        if (size == capacity)
        {
            grow(size + 1);
        }
        segment.set(ValueLayout.JAVA_SHORT, size++ << 1, value);
    }

    /**
     * @param value appended as an int.
     */
    public void addInt(final int value)
    {
        if (size == capacity)
        {
            grow(size + 1);
        }
        segment.set(ValueLayout.JAVA_INT, size++ << 2, value);
    }

    /**
     * @param value appended as a long.
     */
    public void addLong(final long value)
    {
        if (size == capacity)
        {
            grow(size + 1);
        }
        segment.set(ValueLayout.JAVA_LONG, size++ << 3, value);
    }

    /**
     * Makes room for {@code count} more elements and returns the index of the first; the caller writes them
     * directly into {@link #segment()}.
     *
     * @param count number of elements.
     * @return index of the first reserved element.
     */
    public long reserve(final long count)
    {
        if (size + count > capacity)
        {
            grow(size + count);
        }
        final long first = size;
        size += count;
        return first;
    }

    /**
     * @return number of elements.
     */
    public long size()
    {
        return size;
    }

    /**
     * @return the current memory (invalid after the next growth).
     */
    public MemorySegment segment()
    {
        return segment;
    }

    /**
     * @param i index.
     * @return element {@code i} as an int.
     */
    public int getInt(final long i)
    {
        return segment.get(ValueLayout.JAVA_INT, i << 2);
    }

    /**
     * @param i index.
     * @return element {@code i} as a long.
     */
    public long getLong(final long i)
    {
        return segment.get(ValueLayout.JAVA_LONG, i << 3);
    }

    /**
     * Hands the memory to the caller, shrinking nothing; this array becomes empty and owns no memory.
     *
     * @return the region holding {@link #size()} elements.
     */
    public OffHeapRegion detach()
    {
        final OffHeapRegion r = region;
        region = null;
        segment = null;
        size = 0;
        capacity = 0;
        return r;
    }

    private void grow(final long minCapacity)
    {
        long newCapacity = capacity;
        while (newCapacity < minCapacity)
        {
            newCapacity = newCapacity << 1;
        }
        final OffHeapRegion bigger = allocator.allocate(newCapacity * elementBytes);
        MemorySegment.copy(segment, 0, bigger.segment(), 0, size * elementBytes);
        region.close();
        region = bigger;
        segment = bigger.segment();
        capacity = newCapacity;
    }

    @Override
    public void close()
    {
        if (region != null)
        {
            region.close();
            region = null;
            segment = null;
        }
    }
}
