package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A page-aligned, zero-filled block of off-heap memory from {@link NativeMemory#allocate(long, MemoryOptions)},
 * owning its {@link MemorySegment} through a shared {@link Arena}: any thread may read and write it until
 * {@link #close()}, which unmaps it (and so unpins it) and invalidates the segment.
 * <p>
 * The flags say what was actually obtained, which can be less than what was asked when the request was not
 * strict; {@link #warnings()} says why.
 */
public final class NativeRegion implements AutoCloseable
{
    private final Arena arena;
    private final MemorySegment segment;
    private final boolean mapped;
    private final boolean pinned;
    private final boolean hugePageAdvised;
    private final int numaNode;
    private final List<String> warnings;

    NativeRegion(
        final Arena arena,
        final MemorySegment segment,
        final boolean mapped,
        final boolean pinned,
        final boolean hugePageAdvised,
        final int numaNode,
        final List<String> warnings)
    {
        this.arena = arena;
        this.segment = segment;
        this.mapped = mapped;
        this.pinned = pinned;
        this.hugePageAdvised = hugePageAdvised;
        this.numaNode = numaNode;
        this.warnings = List.copyOf(warnings);
    }

    /**
     * @return the memory, exactly the requested number of bytes long.
     */
    public MemorySegment segment()
    {
        return segment;
    }

    /**
     * @return the requested size in bytes.
     */
    public long byteSize()
    {
        return segment.byteSize();
    }

    /**
     * @return the address of the first byte.
     */
    public long address()
    {
        return segment.address();
    }

    /**
     * @return whether the memory is an anonymous mapping made by the native library ({@code false} for the plain
     *         {@link Arena} fallback used when the library is not loaded).
     */
    public boolean isMapped()
    {
        return mapped;
    }

    /**
     * @return whether the pages are locked in RAM.
     */
    public boolean isPinned()
    {
        return pinned;
    }

    /**
     * @return whether transparent huge pages were advised (and the region aligned to the huge-page size).
     */
    public boolean isHugePageAdvised()
    {
        return hugePageAdvised;
    }

    /**
     * @return the NUMA node the pages are bound to, or -1 when not bound.
     */
    public int numaNode()
    {
        return numaNode;
    }

    /**
     * @return why the region has less than was asked (one line each; empty when it has everything).
     */
    public List<String> warnings()
    {
        return warnings;
    }

    /**
     * Frees the memory. Every view of {@link #segment()} becomes unusable; idempotent.
     */
    @Override
    public void close()
    {
        if (arena.scope().isAlive())
        {
            arena.close();
        }
    }

    @Override
    public String toString()
    {
        return "NativeRegion{address=0x" + Long.toHexString(address()) + ", bytes=" + byteSize() +
            ", mapped=" + mapped + ", pinned=" + pinned + ", hugePageAdvised=" + hugePageAdvised +
            ", numaNode=" + numaNode + "}";
    }
}
