package org.jloadgen.memory;

import java.lang.foreign.MemorySegment;

/**
 * An off-heap region owned by whoever allocated it; closing it frees the memory (and unpins it if pinned).
 */
public interface OffHeapRegion extends AutoCloseable
{
    /**
     * @return the memory of the region.
     */
    MemorySegment segment();

    /**
     * Frees the region; the segment must not be used afterwards.
     */
    @Override
    void close();
}
