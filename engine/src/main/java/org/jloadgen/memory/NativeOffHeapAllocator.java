package org.jloadgen.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeLibrary;
import org.jloadgen.bindings.NativeMemory;
import org.jloadgen.bindings.NativeRegion;
import org.jloadgen.concurrent.Uninterruptibly;

/**
 * Allocates the engine's buffers through the native library: page-aligned mmap'ed memory, optionally pinned
 * (mlock), advised to use huge pages and bound to a NUMA node. Requests the kernel refuses (pinning over
 * RLIMIT_MEMLOCK, an absent node) become warnings unless the options are strict; without the native library
 * it falls back to plain arenas with a warning (see {@link NativeMemory}).
 * <p>
 * Every page of a region is touched before the region is handed out, so no page is first written while the clock
 * runs. A large region is touched by several threads at once, which on a VM faults pages in several times faster
 * than one thread does (benchmarks/README.md, "Start to finish"); the JDK's {@code Arena} zero-fills on one thread.
 */
public final class NativeOffHeapAllocator implements OffHeapAllocator
{
    /** The least a touching thread takes on: below this a region is touched by the allocating thread alone. */
    static final long BYTES_PER_TOUCHING_THREAD = 64L << 20;
    /** The most threads that touch one region. */
    static final int MAX_TOUCHING_THREADS = 8;

    private final MemoryOptions options;

    /**
     * @param options pinning, huge pages, NUMA node, strictness.
     */
    public NativeOffHeapAllocator(final MemoryOptions options)
    {
        this.options = options;
    }

    /**
     * The engine's default: the JDK's arena, except for regions large enough for several threads to touch
     * ({@link #threadsFor}), which are plain mappings touched in parallel where the native library is loaded.
     * Regions below that stay in the arena: with every region a mapping of its own, the inline Server case's tail
     * grew (benchmarks/README.md, "Start to finish").
     *
     * @return the allocator the engine uses unless told otherwise.
     */
    public static OffHeapAllocator largeInParallel()
    {
        final OffHeapAllocator arena = OffHeapAllocator.arena();
        if (!NativeLibrary.isAvailable())
        {
            return arena;
        }
        final NativeOffHeapAllocator mapped = new NativeOffHeapAllocator(MemoryOptions.DEFAULT);
        final int cpus = Runtime.getRuntime().availableProcessors();
        return bytes -> threadsFor(bytes, cpus) > 1 ? mapped.allocate(bytes) : arena.allocate(bytes);
    }

    @Override
    public OffHeapRegion allocate(final long bytes)
    {
        final NativeRegion region = NativeMemory.allocate(Math.max(1, bytes), options);
        // Pinning (mlock) has faulted every page in already, and the fallback without the library is an arena the JDK
        // zero-filled; anything else is a fresh mapping of zero pages not yet touched.
        if (region.isMapped() && !region.isPinned())
        {
            final long size = region.segment().byteSize();
            touch(region.segment(), threadsFor(size, Runtime.getRuntime().availableProcessors()));
        }
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
     * @param bytes the region's size.
     * @param cpus  CPUs the process may use.
     * @return how many threads touch a region of that size: one per {@link #BYTES_PER_TOUCHING_THREAD}, at most one
     *         per CPU and {@link #MAX_TOUCHING_THREADS}, at least one.
     */
    static int threadsFor(final long bytes, final int cpus)
    {
        return (int)Math.max(1, Math.min(Math.min(cpus, MAX_TOUCHING_THREADS), bytes / BYTES_PER_TOUCHING_THREAD));
    }

    /**
     * Writes zeros over the segment (which is zero already), in {@code threads} slices at once: the calling thread
     * takes the first, helper threads the rest.
     */
    static void touch(final MemorySegment segment, final int threads)
    {
        final long size = segment.byteSize();
        if (threads <= 1)
        {
            segment.fill((byte)0);
            return;
        }
        final long page = NativeMemory.pageSize();
        final long slice = (size / threads + page - 1) / page * page;
        final List<Thread> helpers = new ArrayList<>(threads - 1);
        for (int t = 1; t < threads && (long)t * slice < size; t++)
        {
            final MemorySegment part = segment.asSlice(t * slice, Math.min(slice, size - t * slice));
            helpers.add(Thread.ofPlatform().name("jloadgen-touch-" + t).start(() -> part.fill((byte)0)));
        }
        segment.asSlice(0, Math.min(slice, size)).fill((byte)0);
        for (final Thread helper : helpers)
        {
            Uninterruptibly.join(helper);
        }
    }

    /**
     * @return the options regions are allocated with.
     */
    public MemoryOptions options()
    {
        return options;
    }
}
