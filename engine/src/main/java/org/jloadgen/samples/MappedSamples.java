package org.jloadgen.samples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.function.Consumer;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeException;
import org.jloadgen.bindings.NativeLibrary;
import org.jloadgen.bindings.NativeMemory;

/**
 * The mapped placement of a {@link SampleStore}: each loaded position is a read-only view of the file's pages,
 * scoped to the load, pinned with mlock when asked (and when that fails, unpinned with a warning unless the options
 * are strict) or else touched once per page so that the run does not fault the file in.
 */
final class MappedSamples
{
    /**
     * One loaded set's views.
     *
     * @param views  a read-only view per position.
     * @param pinned whether every view is locked in memory (to unlock at unload).
     */
    record Views(MemorySegment[] views, boolean pinned)
    {
    }

    private MappedSamples()
    {
    }

    /**
     * Maps a set.
     *
     * @param source        the data set.
     * @param indices       QSL indices in load order.
     * @param sampleSizes   their sizes.
     * @param arena         the load's arena: the views close with it.
     * @param memoryOptions pinning (the other options do not apply to mapped samples, which a warning says).
     * @param warnings      hears what was not done as asked.
     * @return the views.
     * @throws IOException       when a file cannot be mapped.
     * @throws NativeException   when pinning fails and the options are strict.
     */
    static Views mapIn(final SampleSource source, final long[] indices, final long[] sampleSizes, final Arena arena,
        final MemoryOptions memoryOptions, final Consumer<List<String>> warnings) throws IOException
    {
        final int count = indices.length;
        final MemorySegment[] mapped = new MemorySegment[count];
        final long pageBytes = NativeMemory.pageSize();
        boolean pin = memoryOptions.pinned();
        if (pin && !NativeLibrary.isAvailable())
        {
            refuse(memoryOptions, warnings, "cannot pin mapped samples: " + NativeLibrary.describe(), null);
            pin = false;
        }
        int lockedCount = 0;
        try
        {
            for (int p = 0; p < count; p++)
            {
                // Re-scoped to this load, so that unload invalidates views of a file mapping the source keeps open.
                mapped[p] = MemorySegment.ofAddress(source.map(indices[p], arena).address())
                    .reinterpret(sampleSizes[p], arena, null).asReadOnly();
                if (pin)
                {
                    try
                    {
                        NativeMemory.lock(mapped[p]);
                        lockedCount = p + 1;
                    }
                    catch (final NativeException ex)
                    {
                        unlockAll(mapped, lockedCount);
                        lockedCount = 0;
                        pin = false;
                        refuse(memoryOptions, warnings, ex.getMessage(), ex);
                    }
                }
                if (!pin)
                {
                    // Touch one byte per page so the first read during the run does not fault the file in.
                    for (long offset = 0; offset < mapped[p].byteSize(); offset += pageBytes)
                    {
                        mapped[p].get(ValueLayout.JAVA_BYTE, offset);
                    }
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // A source's own mapping outlives this load: leave none of its pages locked.
            unlockAll(mapped, lockedCount);
            throw ex;
        }
        if (memoryOptions.hugePages() || memoryOptions.numaNode() >= 0)
        {
            warnings.accept(List.of("huge pages and NUMA binding apply to copied samples only; mapped samples stay "
                + "in the page cache where the kernel put them"));
        }
        return new Views(mapped, pin);
    }

    /**
     * Unlocks the first {@code count} views.
     *
     * @param mapped the views.
     * @param count  how many are locked.
     */
    static void unlockAll(final MemorySegment[] mapped, final int count)
    {
        for (int p = 0; p < count; p++)
        {
            NativeMemory.unlock(mapped[p]);
        }
    }

    private static void refuse(final MemoryOptions memoryOptions, final Consumer<List<String>> warnings,
        final String message, final NativeException cause)
    {
        if (memoryOptions.strict())
        {
            throw cause != null ? cause : new IllegalStateException(message);
        }
        warnings.accept(List.of(message));
    }
}
