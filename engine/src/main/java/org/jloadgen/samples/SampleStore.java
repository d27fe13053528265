package org.jloadgen.samples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeMemory;

/**
 * The loaded samples of a QSL in off-heap memory, following LoadGen's {@code LoadSamplesToRam} /
 * {@code UnloadSamplesFromRam} (spec §1.3; loadgen/loadgen.cc, LoadSamplesToRam): {@link #load(long[])} takes the
 * loaded set (QSL indices in load order, repeats allowed as in MultiStream padding) and {@link #unload(long[])} the
 * same set again.
 * <p>
 * <b>Placement.</b> With {@link Placement#COPY} (the default) the set is copied into one page-aligned slab from
 * {@link NativeMemory} (optionally pinned, on huge pages, on a NUMA node) in load order: position {@code p} of
 * the set is slot {@code p}, at {@code p * strideBytes()} when all samples have one size, else at an offset from a
 * table. The samples of a MultiStream or Offline query, adjacent in the loaded set, are therefore adjacent in
 * memory: a batch is one address and one length ({@link #address(int)}, {@link #rangeBytes(int, int)}). With
 * {@link Placement#MAPPED} nothing is copied: each position is a read-only view of the file's pages (pinned with
 * mlock when asked), and a range is contiguous only where the file happens to hold those samples back to back.
 * <p>
 * <b>Views.</b> {@link #sample(int)}, {@link #range(int, int)} and {@link #byteBuffer(int, int)} are zero-copy
 * views valid from {@link #load} to {@link #unload}; afterwards they throw {@link IllegalStateException}. They
 * allocate a small view object; a hot path uses {@link #address(int)}, {@link #offset(int)} and {@link #slab()},
 * which do not.
 * <p>
 * <b>Threads.</b> {@code load}, {@code unload} and {@code close} run on one thread (the engine's), never while a
 * series is issued; any thread may read during a series (the engine's hand-off to the SUT publishes the load).
 */
public final class SampleStore implements AutoCloseable
{
    /** Where loaded samples live. */
    public enum Placement
    {
        /** Copied into one off-heap slab in load order: contiguous batches. */
        COPY,
        /** Views of the memory-mapped files: no copy, no contiguity. */
        MAPPED
    }

    private final SampleSource source;
    private final Placement placement;
    private final MemoryOptions memoryOptions;
    private final SampleSlab copySlab;
    private final List<String> warnings = new ArrayList<>();

    private Arena loadArena;
    private MemorySegment slab;
    private long[] loaded;
    private int loadedCount;
    private boolean fixedStride;
    private long strideBytes;
    private long uniformBytes;
    private long[] offsets;
    private long[] sizes;
    private MemorySegment[] views;
    private boolean mappedPinned;

    private SampleStore(final Builder builder)
    {
        this.source = builder.source;
        this.placement = builder.placement;
        this.memoryOptions = builder.memoryOptions;
        this.copySlab = new SampleSlab(builder.memoryOptions, builder.slotAlignmentBytes);
    }

    /**
     * @param source the data set; the store owns it and closes it.
     * @return a builder with the defaults: copy, plain memory, no slot padding.
     */
    public static Builder builder(final SampleSource source)
    {
        return new Builder(Objects.requireNonNull(source, "source"));
    }

    /**
     * Loads a set of samples: position {@code p} of {@code indices} becomes slot {@code p}.
     *
     * @param indices QSL indices in load order; the array is copied.
     * @throws IllegalStateException     when a set is loaded already (LoadGen unloads before it loads again).
     * @throws IndexOutOfBoundsException naming the position of an index outside the source.
     * @throws UncheckedIOException      when a file cannot be read (its cause names file and offset).
     */
    public void load(final long[] indices)
    {
        if (loaded != null)
        {
            throw new IllegalStateException("load of " + indices.length + " samples while " + loadedCount +
                " are loaded: unload them first");
        }
        final long total = source.sampleCount();
        final int count = indices.length;
        final long[] sampleSizes = new long[count];
        for (int p = 0; p < count; p++)
        {
            if (indices[p] < 0 || indices[p] >= total)
            {
                throw new IndexOutOfBoundsException("QSL index " + indices[p] + " at position " + p +
                    " of the loaded set is out of range: " + source.description() + " has " + total + " samples");
            }
            sampleSizes[p] = source.sampleBytes(indices[p]);
        }
        final Arena arena = Arena.ofShared();
        try
        {
            if (placement == Placement.COPY)
            {
                useSlab(copySlab.copyIn(source, indices, sampleSizes, arena, this::addWarnings));
            }
            else
            {
                useViews(MappedSamples.mapIn(source, indices, sampleSizes, arena, memoryOptions, this::addWarnings),
                    sampleSizes);
            }
        }
        catch (final IOException ex)
        {
            arena.close();
            throw new UncheckedIOException(ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
        loadArena = arena;
        loaded = indices.clone();
        loadedCount = count;
    }

    /**
     * Unloads the loaded set; every view of it becomes unusable. Copy placement keeps the slab for the next set.
     *
     * @param indices the same indices as the matching {@link #load}.
     * @throws IllegalStateException    when nothing is loaded.
     * @throws IllegalArgumentException when {@code indices} differ from the loaded set.
     */
    public void unload(final long[] indices)
    {
        if (loaded == null)
        {
            throw new IllegalStateException("unload of " + indices.length + " samples but nothing is loaded");
        }
        if (!Arrays.equals(loaded, indices))
        {
            final int at = Arrays.mismatch(loaded, indices);
            throw new IllegalArgumentException("unload does not match the loaded set of " + loadedCount +
                " samples: " + (at >= Math.min(loadedCount, indices.length) ?
                indices.length + " indices given" :
                "position " + at + " is QSL index " + indices[at] + ", loaded was " + loaded[at]));
        }
        release();
    }

    /**
     * @return whether a set is loaded.
     */
    public boolean isLoaded()
    {
        return loaded != null;
    }

    /**
     * @return the number of samples loaded (0 when none).
     */
    public int loadedCount()
    {
        return loadedCount;
    }

    /**
     * @param position a position of the loaded set.
     * @return the QSL index loaded there.
     */
    public long loadedIndex(final int position)
    {
        return loaded[Objects.checkIndex(position, loadedCount)];
    }

    /**
     * @return whether sample {@code p} is at {@code p * strideBytes()} in {@link #slab()} (copy placement, all
     *         loaded samples of one size).
     */
    public boolean isFixedStride()
    {
        return fixedStride;
    }

    /**
     * @return bytes from one slot to the next with {@link #isFixedStride()}, else -1.
     */
    public long strideBytes()
    {
        return fixedStride ? strideBytes : -1;
    }

    /**
     * @param position a position of the loaded set.
     * @return the sample's size in bytes.
     */
    public long sampleBytes(final int position)
    {
        Objects.checkIndex(position, loadedCount);
        return fixedStride ? uniformBytes : sizes[position];
    }

    /**
     * @param position a position of the loaded set (copy placement).
     * @return the sample's byte offset in {@link #slab()}.
     */
    public long offset(final int position)
    {
        requireCopy();
        Objects.checkIndex(position, loadedCount);
        return fixedStride ? position * strideBytes : offsets[position];
    }

    /**
     * @param position a position of the loaded set.
     * @return the address of the sample's first byte, for native code and device copies.
     */
    public long address(final int position)
    {
        if (placement == Placement.COPY)
        {
            return slab.address() + offset(position);
        }
        return views[Objects.checkIndex(position, loadedCount)].address();
    }

    /**
     * @param first first position of the range.
     * @param count number of samples.
     * @return bytes from the start of {@code first} to the end of the last sample (slot padding included).
     */
    public long rangeBytes(final int first, final int count)
    {
        Objects.checkFromIndexSize(first, count, loadedCount);
        if (count == 0)
        {
            return 0;
        }
        final int last = first + count - 1;
        return address(last) + sampleBytes(last) - address(first);
    }

    /**
     * @param first first position of the range.
     * @param count number of samples.
     * @return whether the samples lie back to back in memory, so that {@link #range} can view them as one block:
     *         always with copy placement.
     */
    public boolean isContiguous(final int first, final int count)
    {
        Objects.checkFromIndexSize(first, count, loadedCount);
        if (placement == Placement.COPY)
        {
            return true;
        }
        for (int p = first; p < first + count - 1; p++)
        {
            if (views[p].address() + sizes[p] != views[p + 1].address())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param position a position of the loaded set.
     * @return a zero-copy view of the sample (read-only with mapped placement).
     */
    public MemorySegment sample(final int position)
    {
        if (placement == Placement.COPY)
        {
            return slab.asSlice(offset(position), sampleBytes(position));
        }
        return views[Objects.checkIndex(position, loadedCount)];
    }

    /**
     * @param first first position.
     * @param count number of samples.
     * @return a zero-copy view of the samples as one block (read-only with mapped placement).
     * @throws IllegalStateException when mapped samples are not back to back ({@link #isContiguous}).
     */
    public MemorySegment range(final int first, final int count)
    {
        if (loaded == null)
        {
            throw new IllegalStateException("nothing is loaded");
        }
        final long bytes = rangeBytes(first, count);
        if (count == 0)
        {
            return loadArena.allocate(0);
        }
        if (placement == Placement.COPY)
        {
            return slab.asSlice(offset(first), bytes);
        }
        if (!isContiguous(first, count))
        {
            throw new IllegalStateException("positions " + first + ".." + (first + count - 1) + " are not adjacent " +
                "in the mapped file(s); use Placement.COPY for contiguous batches");
        }
        return MemorySegment.ofAddress(views[first].address()).reinterpret(bytes, loadArena, null).asReadOnly();
    }

    /**
     * @param first first position.
     * @param count number of samples.
     * @return {@link #range} as a direct buffer in the dtype's byte order (at most 2 GiB).
     */
    public ByteBuffer byteBuffer(final int first, final int count)
    {
        final ByteOrder order = source.dtype().order();
        return range(first, count).asByteBuffer().order(order == null ? ByteOrder.nativeOrder() : order);
    }

    /**
     * @return the loaded set as one segment, slot 0 at offset 0 (copy placement).
     */
    public MemorySegment slab()
    {
        requireCopy();
        if (loaded == null)
        {
            throw new IllegalStateException("nothing is loaded");
        }
        return slab;
    }

    /**
     * @return the data set.
     */
    public SampleSource source()
    {
        return source;
    }

    /**
     * @return the placement.
     */
    public Placement placement()
    {
        return placement;
    }

    /**
     * @return whether the loaded samples are locked in RAM.
     */
    public boolean isPinned()
    {
        return placement == Placement.COPY ? copySlab.isPinned() : mappedPinned;
    }

    /**
     * @return what was asked and not obtained (pinning refused, NUMA unsupported...), one line each.
     */
    public List<String> warnings()
    {
        return List.copyOf(warnings);
    }

    /**
     * Unloads whatever is loaded, frees the slab and closes the source; idempotent.
     */
    @Override
    public void close()
    {
        if (loaded != null)
        {
            release();
        }
        copySlab.close();
        source.close();
    }

    @Override
    public String toString()
    {
        return "SampleStore{" + placement + ", " + source.description() + ", loaded=" + loadedCount +
            (fixedStride ? ", strideBytes=" + strideBytes : "") + "}";
    }

    private void useSlab(final SampleSlab.Layout layout)
    {
        if (layout.fixedStride())
        {
            strideBytes = layout.strideBytes();
            uniformBytes = layout.uniformBytes();
        }
        slab = layout.slab();
        fixedStride = layout.fixedStride();
        offsets = layout.offsets();
        sizes = layout.sizes();
    }

    private void useViews(final MappedSamples.Views mapped, final long[] sampleSizes)
    {
        views = mapped.views();
        sizes = sampleSizes;
        fixedStride = false;
        mappedPinned = mapped.pinned();
    }

    private void release()
    {
        if (mappedPinned)
        {
            MappedSamples.unlockAll(views, loadedCount);
            mappedPinned = false;
        }
        loadArena.close();
        loadArena = null;
        loaded = null;
        loadedCount = 0;
        slab = null;
        views = null;
        offsets = null;
        sizes = null;
        fixedStride = false;
    }

    private void addWarnings(final List<String> more)
    {
        for (final String warning : more)
        {
            if (!warnings.contains(warning))
            {
                warnings.add(warning);
            }
        }
    }

    private void requireCopy()
    {
        if (placement != Placement.COPY)
        {
            throw new IllegalStateException("mapped samples have no slab; use address(position) or sample(position)");
        }
    }

    /**
     * Settings of a {@link SampleStore}.
     */
    public static final class Builder
    {
        private final SampleSource source;
        private Placement placement = Placement.COPY;
        private MemoryOptions memoryOptions = MemoryOptions.DEFAULT;
        private long slotAlignmentBytes = 1;

        private Builder(final SampleSource source)
        {
            this.source = source;
        }

        /**
         * @param placement copy into a slab (default) or map the files.
         * @return this.
         */
        public Builder placement(final Placement placement)
        {
            this.placement = Objects.requireNonNull(placement, "placement");
            return this;
        }

        /**
         * @param memoryOptions how the slab is allocated (pinned, huge pages, NUMA node, strict); mapped placement
         *                      honours only pinning.
         * @return this.
         */
        public Builder memoryOptions(final MemoryOptions memoryOptions)
        {
            this.memoryOptions = Objects.requireNonNull(memoryOptions, "memoryOptions");
            return this;
        }

        /**
         * @param slotAlignmentBytes a power of two each slot starts at a multiple of (default 1: samples packed back to
         *                           back, so a batch is a dense tensor); e.g. 64 for cache-line-aligned samples.
         * @return this.
         */
        public Builder slotAlignment(final long slotAlignmentBytes)
        {
            if (slotAlignmentBytes <= 0 || Long.bitCount(slotAlignmentBytes) != 1)
            {
                throw new IllegalArgumentException("slot alignment must be a power of two: " + slotAlignmentBytes);
            }
            this.slotAlignmentBytes = slotAlignmentBytes;
            return this;
        }

        /**
         * @return the store, with nothing loaded.
         */
        public SampleStore build()
        {
            return new SampleStore(this);
        }
    }
}
