package org.jloadgen.bindings;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NativeMemoryTest
{
    private static final long MIB = 1024 * 1024;
    private static final int CAP_IPC_LOCK = 14;

    @Test
    void shouldAllocateZeroFilledPageAlignedMemory()
    {
        final long pageSize = NativeMemory.pageSize();
        assertTrue(pageSize >= 4096 && Long.bitCount(pageSize) == 1, "page size " + pageSize);
        final MemorySegment segment;
        try (NativeRegion region = NativeMemory.allocate(3 * pageSize + 5, MemoryOptions.DEFAULT))
        {
            segment = region.segment();
            assertTrue(region.isMapped());
            assertFalse(region.isPinned());
            assertEquals(-1, region.numaNode());
            assertTrue(region.warnings().isEmpty());
            assertEquals(3 * pageSize + 5, segment.byteSize());
            assertEquals(0, region.address() % pageSize);
            assertEquals(-1, segment.mismatch(MemorySegment.ofArray(new byte[(int)segment.byteSize()])));
            segment.set(ValueLayout.JAVA_BYTE, segment.byteSize() - 1, (byte)42);
            assertEquals(42, segment.get(ValueLayout.JAVA_BYTE, segment.byteSize() - 1));
        }
        assertFalse(segment.scope().isAlive(), "closing the region frees the memory");
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void shouldRejectNonPositiveSizes()
    {
        assertThrows(IllegalArgumentException.class, () -> NativeMemory.allocate(0, MemoryOptions.DEFAULT));
        assertThrows(IllegalArgumentException.class, () -> MemoryOptions.DEFAULT.withNumaNode(-2));
    }

    @Test
    void shouldPinAndUnpinSoTheKernelCountsTheLockedBytes() throws IOException
    {
        final long before = NativeMemory.lockedBytes();
        try (NativeRegion region = NativeMemory.allocate(8 * MIB + 1, MemoryOptions.DEFAULT.withPinned(true)))
        {
            assertTrue(region.isPinned(), region.warnings().toString());
            assertTrue(NativeMemory.lockedBytes() - before >= 8 * MIB, "VmLck grew by the region");
            assertEquals(String.valueOf(roundUp(8 * MIB + 1, NativeMemory.pageSize()) / 1024),
                ProcSelf.smapsField(region.address(), "Locked"));
        }
        assertEquals(before, NativeMemory.lockedBytes(), "unmapping unlocks");
    }

    @Test
    void shouldLockAndUnlockAnExistingSegment() throws IOException
    {
        try (Arena arena = Arena.ofConfined())
        {
            final long pageSize = NativeMemory.pageSize();
            final MemorySegment segment = arena.allocate(4 * pageSize, pageSize);
            final long before = NativeMemory.lockedBytes();
            NativeMemory.lock(segment);
            assertEquals(before + 4 * pageSize, NativeMemory.lockedBytes());
            NativeMemory.unlock(segment);
            assertEquals(before, NativeMemory.lockedBytes());
            assertThrows(IllegalArgumentException.class, () -> NativeMemory.lock(MemorySegment.ofArray(new byte[8])));
        }
    }

    @Test
    void shouldExplainAFailedLockWithTheLimit() throws IOException
    {
        final MemorySegment unmapped;
        try (NativeRegion region = NativeMemory.allocate(NativeMemory.pageSize(), MemoryOptions.DEFAULT))
        {
            unmapped = MemorySegment.ofAddress(region.address()).reinterpret(region.byteSize());
        }
        final NativeException ex = assertThrows(NativeException.class, () -> NativeMemory.lock(unmapped));

        assertEquals("mlock", ex.function());
        assertEquals("ENOMEM", ex.errnoName());
        final long[] limit = ProcSelf.limits("Max locked memory");
        assertTrue(ex.getMessage().startsWith("cannot pin " + NativeMemory.pageSize() +
            " bytes in RAM: mlock failed with ENOMEM (Cannot allocate memory). RLIMIT_MEMLOCK is soft " +
            (limit[0] < 0 ? "unlimited" : limit[0] + " bytes")), ex.getMessage());
        assertTrue(ex.getMessage().contains("ulimit -l"), ex.getMessage());
    }

    @Test
    void shouldReadTheMemlockLimitTheKernelReports() throws IOException
    {
        final long[] limit = ProcSelf.limits("Max locked memory");
        assertEquals(new MemlockLimit(limit[0], limit[1]), NativeMemory.memlockLimit());
    }

    @Test
    void shouldReportALowMemlockLimitInAChildProcess() throws Exception
    {
        final List<String> command = new ArrayList<>();
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "prlimit (util-linux) is not installed");
        command.addAll(List.of("/usr/bin/prlimit", "--memlock=65536:65536"));
        if (hasCapability(CAP_IPC_LOCK))
        {
            // CAP_IPC_LOCK ignores RLIMIT_MEMLOCK: drop it for the child.
            assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv is needed to drop CAP_IPC_LOCK");
            command.addAll(List.of("/usr/bin/setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock", "--"));
        }
        final String output = runChild(command, NativeLibrary.path().toString(), 4 * MIB);

        assertTrue(output.contains("LIMIT=soft 65536 bytes, hard 65536 bytes"), output);
        assertTrue(output.contains("STRICT_ERROR=ENOMEM mlock: cannot pin " + 4 * MIB + " bytes in RAM: mlock " +
            "failed with ENOMEM (Cannot allocate memory). RLIMIT_MEMLOCK is soft 65536 bytes, hard 65536 bytes; " +
            "this process already has "), output);
        assertTrue(output.contains("and asked for " + 4 * MIB + " more. Raise the limit"), output);
        assertTrue(output.contains("LENIENT_PINNED=false"), output);
        assertTrue(output.contains("LENIENT_WARNINGS=[cannot pin " + 4 * MIB + " bytes in RAM"), output);
        assertTrue(output.contains("Continuing without it."), "the warning is logged: " + output);
    }

    @Test
    void shouldAlignAndAdviseHugePages() throws IOException
    {
        final long hugePageSize = NativeMemory.hugePageSize();
        try (NativeRegion region = NativeMemory.allocate(hugePageSize + 1, MemoryOptions.DEFAULT.withHugePages(true)))
        {
            assertEquals(0, region.address() % hugePageSize);
            assertTrue(region.isHugePageAdvised(), region.warnings().toString());
            final String thp = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
            if (!thp.contains("[never]"))
            {
                assertEquals("1", ProcSelf.smapsField(region.address(), "THPeligible"));
            }
        }
    }

    @Test
    void shouldBindToANodeAndTellTheNodeOfAPage() throws IOException
    {
        final int node = ThreadAffinity.currentCpu().node();
        try (NativeRegion region = NativeMemory.allocate(4 * MIB, MemoryOptions.DEFAULT.withNumaNode(node)))
        {
            assumeTrue(region.numaNode() == node, "mbind not supported here: " + region.warnings());
            region.segment().fill((byte)7);
            assertEquals(node, NativeMemory.nodeOf(region.segment()));
            assertEquals(node, NativeMemory.nodeOf(region.segment().asSlice(4 * MIB - 1)));
            final String numaMaps = Files.readString(Path.of("/proc/self/numa_maps"));
            assertTrue(numaMaps.contains(Long.toHexString(region.address()) + " bind:" + node), numaMaps);
        }
    }

    @Test
    void shouldRefuseANodeThatDoesNotExistEvenWhenLenient()
    {
        final NativeException ex = assertThrows(NativeException.class,
            () -> NativeMemory.allocate(MIB, MemoryOptions.DEFAULT.withNumaNode(1000)));

        assertEquals("EINVAL", ex.errnoName());
        assertTrue(ex.getMessage().startsWith("cannot bind " + MIB + " bytes to NUMA node 1000: mbind failed with " +
            "EINVAL (Invalid argument); the node does not exist or is not allowed to this process (online nodes: "),
            ex.getMessage());
    }

    @Test
    void shouldPinBindAndAdviseTogether()
    {
        final MemoryOptions options = MemoryOptions.DEFAULT.withPinned(true).withHugePages(true).withNumaNode(0)
            .withStrict(true);
        try (NativeRegion region = NativeMemory.allocate(3 * MIB, options))
        {
            assertTrue(region.isPinned() && region.isHugePageAdvised() && region.numaNode() == 0, region.toString());
            assertEquals(-1, region.segment().mismatch(MemorySegment.ofArray(new byte[3 * (int)MIB])));
        }
        catch (final NativeException ex)
        {
            assumeTrue(false, "strict placement refused here: " + ex.getMessage());
        }
    }

    @Test
    void shouldFallBackToAnArenaWithAWarningWithoutTheLibrary() throws Exception
    {
        final String output = runChild(new ArrayList<>(), "/nonexistent/libjlg_native.so", MIB);

        assertTrue(output.contains("AVAILABLE=false"), output);
        assertTrue(output.contains("STRICT_UNAVAILABLE=cannot allocate with MemoryOptions{pinned=true, " +
            "hugePages=false, numaNode=-1, strict=true}: libjlg_native.so is not loaded"), output);
        assertTrue(output.contains("jloadgen.native.path=/nonexistent/libjlg_native.so -> " +
            "/nonexistent/libjlg_native.so: no such file"), output);
        assertTrue(output.contains("LENIENT_MAPPED=false"), output);
        assertTrue(output.contains("LENIENT_PINNED=false"), output);
        assertTrue(output.contains("LENIENT_ALIGNED=true"), output);
        assertTrue(output.contains("LENIENT_WARNINGS=[libjlg_native.so is not loaded, so " + MIB + " bytes come " +
            "from a plain Arena (not pinned, no huge-page advice, no NUMA binding)"), output);
        assertTrue(output.contains("WARNING: libjlg_native.so is not loaded"), "the warning is logged: " + output);
    }

    private static String runChild(final List<String> prefix, final String libraryPath, final long bytes)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            JvmFlags.NATIVE_ACCESS, "-Djloadgen.native.path=" + libraryPath,
            "-cp", System.getProperty("java.class.path"), NativeMemoryChild.class.getName(), String.valueOf(bytes)));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child did not finish: " + command);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    private static boolean hasCapability(final int capability) throws IOException
    {
        final long effective = Long.parseUnsignedLong(ProcSelf.statusField("/proc/self/status", "CapEff"), 16);
        return (effective >>> capability & 1) != 0;
    }

    private static long roundUp(final long bytes, final long alignment)
    {
        return (bytes + alignment - 1) / alignment * alignment;
    }
}
