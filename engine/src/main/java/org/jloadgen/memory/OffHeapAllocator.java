package org.jloadgen.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Where the engine gets its large off-heap buffers (traces, per-sample completion slots). The default takes
 * zero-filled, page-aligned memory from a shared {@link Arena}; a native-backed allocator can pin it, advise
 * huge pages and place it on a NUMA node.
 */
@FunctionalInterface
public interface OffHeapAllocator
{
    /** Alignment of every region: a 4 KiB page. */
    long PAGE_BYTES = 4096;

    /**
     * @param bytes size of the region, zero-filled.
     * @return a region that owns its memory until closed.
     */
    OffHeapRegion allocate(long bytes);

    /**
     * @return an allocator over {@link Arena#ofShared()}: each region is one shared arena.
     */
    static OffHeapAllocator arena()
    {
        return bytes ->
        {
            final Arena arena = Arena.ofShared();
            final MemorySegment segment = arena.allocate(Math.max(bytes, 1), PAGE_BYTES);
            return new OffHeapRegion()
            {
                @Override
                public MemorySegment segment()
                {
                    return segment;
                }

                @Override
                public void close()
                {
                    arena.close();
                }
            };
        };
    }
}
