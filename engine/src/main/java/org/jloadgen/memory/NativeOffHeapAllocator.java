package org.jloadgen.memory;

import java.lang.foreign.MemorySegment;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeMemory;
import org.jloadgen.bindings.NativeRegion;

/**
 * Allocates the engine's buffers through the native library: page-aligned mmap'ed memory, optionally pinned
 * (mlock), advised to use huge pages and bound to a NUMA node. Requests the kernel refuses (pinning over
 * RLIMIT_MEMLOCK, an absent node) become warnings unless the options are strict; without the native library
 * it falls back to plain arenas with a warning (see {@link NativeMemory}).
 */
public final class NativeOffHeapAllocator implements OffHeapAllocator
{
    private final MemoryOptions options;

    /**
     * @param options pinning, huge pages, NUMA node, strictness.
     */
    public NativeOffHeapAllocator(final MemoryOptions options)
    {
        this.options = options;
    }

    @Override
    public OffHeapRegion allocate(final long bytes)
    {
        final NativeRegion region = NativeMemory.allocate(Math.max(1, bytes), options);
        return new OffHeapRegion()
        {
            @Override
            public MemorySegment segment()
            {
                return region.segment();
            }

            @Override
            public void close()
            {
                region.close();
            }
        };
    }

    /**
     * @return the options regions are allocated with.
     */
    public MemoryOptions options()
    {
        return options;
    }
}
