package org.jloadgen.bindings;

/**
 * Run in a child JVM by {@code NativeMemoryTest}, for what one process cannot show twice: prints what strict
 * and lenient pinned allocations of {@code <bytes>} do there, one {@code KEY=value} per line. The test starts it
 * with RLIMIT_MEMLOCK lowered (and CAP_IPC_LOCK dropped), or with the library made unloadable.
 */
public final class NativeMemoryChild
{
    private NativeMemoryChild()
    {
    }

    /**
     * @param args {@code <bytes>}.
     */
    public static void main(final String[] args)
    {
        final long bytes = Long.parseLong(args[0]);
        System.out.println("AVAILABLE=" + NativeLibrary.isAvailable());
        if (NativeLibrary.isAvailable())
        {
            System.out.println("LIMIT=" + NativeMemory.memlockLimit().describe());
        }
        final MemoryOptions strict = MemoryOptions.DEFAULT.withPinned(true).withStrict(true);
        try (NativeRegion region = NativeMemory.allocate(bytes, strict))
        {
            System.out.println("STRICT_PINNED=" + region.isPinned());
        }
        catch (final NativeException ex)
        {
            System.out.println("STRICT_ERROR=" + ex.errnoName() + " " + ex.function() + ": " + ex.getMessage());
        }
        catch (final NativeLibraryUnavailableException ex)
        {
            System.out.println("STRICT_UNAVAILABLE=" + ex.getMessage().replace('\n', '|'));
        }
        try (NativeRegion region = NativeMemory.allocate(bytes, MemoryOptions.DEFAULT.withPinned(true)))
        {
            region.segment().fill((byte)1);
            System.out.println("LENIENT_MAPPED=" + region.isMapped());
            System.out.println("LENIENT_PINNED=" + region.isPinned());
            System.out.println("LENIENT_ALIGNED=" + (region.address() % NativeMemory.pageSize() == 0));
            System.out.println("LENIENT_WARNINGS=" + region.warnings().toString().replace('\n', '|'));
        }
    }
}
