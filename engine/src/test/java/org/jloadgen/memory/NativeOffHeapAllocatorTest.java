package org.jloadgen.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeLibrary;
import org.junit.jupiter.api.Test;

class NativeOffHeapAllocatorTest
{
    private static final long MIB = 1L << 20;

    @Test
    void shouldTouchALargeRegionWithAThreadPerSliceUpToTheCpusAndTheCap()
    {
        assertEquals(1, NativeOffHeapAllocator.threadsFor(1, 16));
        assertEquals(1, NativeOffHeapAllocator.threadsFor(127 * MIB, 16), "under two slices: the caller alone");
        assertEquals(3, NativeOffHeapAllocator.threadsFor(200 * MIB, 16));
        assertEquals(2, NativeOffHeapAllocator.threadsFor(3072 * MIB, 2), "no more threads than CPUs");
        assertEquals(8, NativeOffHeapAllocator.threadsFor(3072 * MIB, 16), "the cap");
        assertEquals(1, NativeOffHeapAllocator.threadsFor(3072 * MIB, 1));
    }

    @Test
    void shouldHandOutAZeroedRegionWhosePagesAreAllResident() throws IOException
    {
        assumeTrue(NativeLibrary.isAvailable(), "libjlg_native.so not loaded: the arena fallback zero-fills itself");
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "no /proc/self/status: not Linux");
        final long bytes = 200 * MIB;
        final long residentBeforeKib = residentKib();
        try (OffHeapRegion region = NativeOffHeapAllocator.largeInParallel().allocate(bytes))
        {
            final MemorySegment segment = region.segment();
            assertEquals(bytes, segment.byteSize());
            // Touched by 2 or 3 threads: every page resident before the region is handed out, none first written
            // while the clock runs (an untouched mapping adds nothing to the process's resident memory).
            final long grownKib = residentKib() - residentBeforeKib;
            assertTrue(grownKib * 1024 >= bytes * 9 / 10, "resident memory grew by " + grownKib + " KiB, not "
                + bytes / 1024);
            for (long offset = 0; offset < bytes; offset += 4093 * 1024)
            {
                assertEquals(0L, segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset), "offset " + offset);
            }
        }
        // A small region of the native allocator: one page, touched by the caller alone.
        try (OffHeapRegion small = new NativeOffHeapAllocator(MemoryOptions.DEFAULT).allocate(10))
        {
            assertEquals(10, small.segment().byteSize());
            assertEquals(0, small.segment().get(ValueLayout.JAVA_BYTE, 9));
        }
    }

    /** This process's resident memory (VmRSS of /proc/self/status), in KiB. */
    private static long residentKib() throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII))
        {
            if (line.startsWith("VmRSS:"))
            {
                return Long.parseLong(line.substring("VmRSS:".length()).strip().split("\\s+")[0]);
            }
        }
        throw new AssertionError("no VmRSS in /proc/self/status");
    }
}
