package org.jloadgen.samples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeMemory;
import org.jloadgen.bindings.NativeRegion;

/**
 * The copy placement of a {@link SampleStore}: one page-aligned slab from {@link NativeMemory}, kept from one load
 * to the next and grown when a set needs more, into which a loaded set is copied in load order (slot {@code p} at
 * {@code p * strideBytes} when all samples have one size, else at an offset from a table; slot padding zeroed).
 * Owned by one store; the store's loading thread only.
 */
final class SampleSlab implements AutoCloseable
{
    /**
     * Where one loaded set lies in the slab.
     *
     * @param slab         the set's view of the slab, scoped to the load.
     * @param fixedStride  whether all samples have one size.
     * @param strideBytes  bytes from one slot to the next with {@code fixedStride}.
     * @param uniformBytes the one sample size with {@code fixedStride}.
     * @param offsets      slot offsets without {@code fixedStride}, else {@code null}.
     * @param sizes        sample sizes without {@code fixedStride}, else {@code null}.
     */
    record Layout(MemorySegment slab, boolean fixedStride, long strideBytes, long uniformBytes, long[] offsets,
        long[] sizes)
    {
    }

    private final MemoryOptions memoryOptions;
    private final long slotAlignment;
    private NativeRegion region;

    /**
     * @param memoryOptions how the slab is allocated.
     * @param slotAlignment a power of two each slot starts at a multiple of.
     */
    SampleSlab(final MemoryOptions memoryOptions, final long slotAlignment)
    {
        this.memoryOptions = memoryOptions;
        this.slotAlignment = slotAlignment;
    }

    /**
     * Copies a set into the slab, growing it first when it is too small.
     *
     * @param source      the data set.
     * @param indices     QSL indices in load order.
     * @param sampleSizes their sizes.
     * @param arena       the load's arena: the returned view closes with it.
     * @param warnings    hears the allocator's warnings (no huge pages, no pinning...).
     * @return where the set lies.
     * @throws IOException when a sample cannot be read.
     */
    Layout copyIn(final SampleSource source, final long[] indices, final long[] sampleSizes, final Arena arena,
        final Consumer<List<String>> warnings) throws IOException
    {
        final int count = indices.length;
        final boolean uniform = count > 0 && Arrays.stream(sampleSizes).allMatch(size -> size == sampleSizes[0]);
        long totalBytes;
        long strideBytes = 0;
        long[] slotOffsets = null;
        if (uniform)
        {
            strideBytes = alignUp(sampleSizes[0]);
            totalBytes = Math.multiplyExact(strideBytes, (long)count);
        }
        else
        {
            slotOffsets = new long[count];
            totalBytes = 0;
            for (int p = 0; p < count; p++)
            {
                slotOffsets[p] = totalBytes;
                totalBytes = alignUp(Math.addExact(totalBytes, sampleSizes[p]));
            }
        }
        if (region == null || region.byteSize() < totalBytes)
        {
            if (region != null)
            {
                region.close();
                region = null;
            }
            if (totalBytes > 0)
            {
                region = NativeMemory.allocate(totalBytes, memoryOptions);
                warnings.accept(region.warnings());
            }
        }
        // A view per load, so that unload invalidates every view handed out for this set.
        final MemorySegment loadSlab = totalBytes == 0 ? arena.allocate(0) :
            MemorySegment.ofAddress(region.address()).reinterpret(totalBytes, arena, null);
        for (int p = 0; p < count; p++)
        {
            final long offset = uniform ? p * strideBytes : slotOffsets[p];
            source.copyTo(indices[p], loadSlab.asSlice(offset, sampleSizes[p]));
            final long end = p + 1 < count ? (uniform ? (p + 1) * strideBytes : slotOffsets[p + 1]) : totalBytes;
            if (end > offset + sampleSizes[p])
            {
                loadSlab.asSlice(offset + sampleSizes[p], end - offset - sampleSizes[p]).fill((byte)0);
            }
        }
        return new Layout(loadSlab, uniform, strideBytes, uniform ? sampleSizes[0] : 0, slotOffsets,
            uniform ? null : sampleSizes);
    }

    /**
     * @return whether the slab is allocated and locked in memory.
     */
    boolean isPinned()
    {
        return region != null && region.isPinned();
    }

    /**
     * Frees the slab; idempotent.
     */
    @Override
    public void close()
    {
        if (region != null)
        {
            region.close();
            region = null;
        }
    }

    private long alignUp(final long bytes)
    {
        return Math.addExact(bytes, slotAlignment - 1) & -slotAlignment;
    }
}
