package org.jloadgen.bindings;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jloadgen.bindings.internal.JlgNative;
import org.jloadgen.bindings.internal.rlimit;

/**
 * Off-heap memory for the harness and SUTs: page-aligned allocation, optionally pinned (mlock), on transparent
 * huge pages (madvise) and bound to a NUMA node (mbind), plus the same operations on existing native segments.
 * <p>
 * {@link #allocate(long, MemoryOptions)} works without {@code libjlg_native.so}: it then falls back to a plain
 * {@link Arena} allocation and logs a warning (unless the options are strict). The other methods need the
 * library and throw {@link NativeLibraryUnavailableException} without it. Failures of the system calls become
 * a {@link NativeException} whose message says what was asked and how to fix it.
 */
public final class NativeMemory
{
    /** Alignment used without the native library: a multiple of every Linux base page size (4, 16, 64 KiB). */
    public static final long FALLBACK_ALIGNMENT_BYTES = 64 * 1024;
    /** Huge-page size assumed when the kernel does not say (x86-64 and 4 KiB-page aarch64 PMD size). */
    public static final long DEFAULT_HUGE_PAGE_BYTES = 2 * 1024 * 1024;

    static final Path HUGE_PAGE_SIZE_FILE = Path.of("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
    static final Path STATUS_FILE = Path.of("/proc/self/status");
    static final Path ONLINE_NODES_FILE = Path.of("/sys/devices/system/node/online");

    private static final System.Logger LOGGER = System.getLogger(NativeMemory.class.getName());
    private static final AtomicBoolean FALLBACK_WARNED = new AtomicBoolean();

    private NativeMemory()
    {
    }

    /**
     * @return the base page size in bytes; {@link #FALLBACK_ALIGNMENT_BYTES} without the native library.
     */
    public static long pageSize()
    {
        return NativeLibrary.isAvailable() ? JlgNative.jlg_page_size() : FALLBACK_ALIGNMENT_BYTES;
    }

    /**
     * @return the transparent huge-page size the kernel reports, or {@link #DEFAULT_HUGE_PAGE_BYTES}.
     */
    public static long hugePageSize()
    {
        try
        {
            final long bytes =
                Long.parseLong(Files.readString(HUGE_PAGE_SIZE_FILE, StandardCharsets.US_ASCII).strip());
            return bytes > 0 && Long.bitCount(bytes) == 1 ? bytes : DEFAULT_HUGE_PAGE_BYTES;
        }
        catch (final IOException | NumberFormatException ex)
        {
            return DEFAULT_HUGE_PAGE_BYTES;
        }
    }

    /**
     * Allocates zero-filled memory aligned to the page size (or the huge-page size with
     * {@link MemoryOptions#hugePages()}). Order of the native steps: map, advise huge pages, bind to the node, then
     * lock, which faults every page in, so pages are born on the right node and in huge pages where possible.
     *
     * @param bytes   size in bytes, at least 1.
     * @param options placement; a refused request is a warning unless {@link MemoryOptions#strict()}.
     * @return the region; close it to free the memory.
     * @throws NativeException                   when mapping fails, a strict request is refused, or the NUMA node
     *                                           does not exist.
     * @throws NativeLibraryUnavailableException when the options are strict, ask for more than plain memory and
     *                                           the library is not loaded.
     */
    public static NativeRegion allocate(final long bytes, final MemoryOptions options)
    {
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("bytes must be positive: " + bytes);
        }
        if (!NativeLibrary.isAvailable())
        {
            return allocateFallback(bytes, options);
        }
        final List<String> warnings = new ArrayList<>();
        final long alignment = options.hugePages() ? hugePageSize() : JlgNative.jlg_page_size();
        final long mappedBytes = roundUp(bytes, alignment);
        final Arena arena = Arena.ofShared();
        final MemorySegment base;
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment out = scratch.allocate(JlgNative.C_POINTER);
            final int error = JlgNative.jlg_map_anonymous(mappedBytes, alignment, out);
            if (error != 0)
            {
                arena.close();
                throw new NativeException("mmap", error, "cannot map " + mappedBytes + " bytes aligned to " +
                    alignment + ": " + Errno.describe(error));
            }
            final long address = out.get(JlgNative.C_POINTER, 0).address();
            base = MemorySegment.ofAddress(address).reinterpret(bytes, arena, segment -> unmap(address, mappedBytes));
        }
        try
        {
            boolean hugePageAdvised = false;
            if (options.hugePages())
            {
                final int error = JlgNative.jlg_madvise_hugepage(base, mappedBytes);
                hugePageAdvised = error == 0;
                if (error != 0)
                {
                    refuse(options, warnings, "madvise", error, "cannot advise huge pages for " + mappedBytes +
                        " bytes: " + Errno.describe(error) + " (kernel without transparent huge pages?)");
                }
            }
            int numaNode = -1;
            if (options.numaNode() >= 0)
            {
                final int error = mbind(base, options.numaNode());
                numaNode = error == 0 ? options.numaNode() : -1;
                if (error != 0)
                {
                    refuse(options, warnings, "mbind", error, mbindFailure(mappedBytes, options.numaNode(), error));
                }
            }
            boolean pinned = false;
            if (options.pinned())
            {
                final int error = JlgNative.jlg_mlock(base, mappedBytes);
                pinned = error == 0;
                if (error != 0)
                {
                    refuse(options, warnings, "mlock", error, mlockFailure(mappedBytes, error));
                }
            }
            return new NativeRegion(arena, base, true, pinned, hugePageAdvised, numaNode, warnings);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /**
     * Locks the pages of a native segment in RAM (mlock), faulting them in.
     *
     * @param segment a native segment (for example a view of a file mapping).
     * @throws NativeException with the RLIMIT_MEMLOCK figures when the kernel refuses.
     */
    public static void lock(final MemorySegment segment)
    {
        requireNative(segment);
        final int error = JlgNative.jlg_mlock(segment, segment.byteSize());
        if (error != 0)
        {
            throw new NativeException("mlock", error, mlockFailure(segment.byteSize(), error));
        }
    }

    /**
     * Unlocks the pages of a native segment (munlock).
     *
     * @param segment a native segment.
     */
    public static void unlock(final MemorySegment segment)
    {
        requireNative(segment);
        final int error = JlgNative.jlg_munlock(segment, segment.byteSize());
        if (error != 0)
        {
            throw new NativeException("munlock", error, "munlock of " + segment.byteSize() + " bytes at 0x" +
                Long.toHexString(segment.address()) + " failed: " + Errno.describe(error));
        }
    }

    /**
     * Advises transparent huge pages (MADV_HUGEPAGE) for the whole pages of a native segment.
     *
     * @param segment a native segment.
     */
    public static void adviseHugePages(final MemorySegment segment)
    {
        requireNative(segment);
        final int error = JlgNative.jlg_madvise_hugepage(segment, segment.byteSize());
        if (error != 0)
        {
            throw new NativeException("madvise", error, "madvise(MADV_HUGEPAGE) of " + segment.byteSize() +
                " bytes failed: " + Errno.describe(error) + " (kernel without transparent huge pages?)");
        }
    }

    /**
     * Starts read-ahead (MADV_WILLNEED) for the whole pages of a native segment, e.g. a file mapping.
     *
     * @param segment a native segment.
     */
    public static void adviseWillNeed(final MemorySegment segment)
    {
        requireNative(segment);
        final int error = JlgNative.jlg_madvise_willneed(segment, segment.byteSize());
        if (error != 0)
        {
            throw new NativeException("madvise", error, "madvise(MADV_WILLNEED) of " + segment.byteSize() +
                " bytes failed: " + Errno.describe(error));
        }
    }

    /**
     * Binds the whole pages of a native segment to a NUMA node (mbind MPOL_BIND), moving pages already placed
     * elsewhere.
     *
     * @param segment a native segment.
     * @param node    the node number.
     */
    public static void bindToNode(final MemorySegment segment, final int node)
    {
        requireNative(segment);
        if (node < 0)
        {
            throw new IllegalArgumentException("node must not be negative: " + node);
        }
        final int error = mbind(segment, node);
        if (error != 0)
        {
            throw new NativeException("mbind", error, mbindFailure(segment.byteSize(), node, error));
        }
    }

    /**
     * @param segment a non-empty native segment.
     * @return the NUMA node of the page holding its first byte (faulting it in if needed).
     */
    public static int nodeOf(final MemorySegment segment)
    {
        requireNative(segment);
        if (segment.byteSize() == 0)
        {
            throw new IllegalArgumentException("empty segment has no page");
        }
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment node = scratch.allocate(JlgNative.C_INT);
            final int error = JlgNative.jlg_node_of_address(segment, node);
            if (error != 0)
            {
                throw new NativeException("get_mempolicy", error, "cannot tell the NUMA node of 0x" +
                    Long.toHexString(segment.address()) + ": " + Errno.describe(error));
            }
            return node.get(JlgNative.C_INT, 0);
        }
    }

    /**
     * @return this process's RLIMIT_MEMLOCK.
     */
    public static MemlockLimit memlockLimit()
    {
        NativeLibrary.require();
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment limit = rlimit.allocate(scratch);
            final int error = JlgNative.jlg_get_memlock_limit(limit);
            if (error != 0)
            {
                throw new NativeException("getrlimit", error, "getrlimit(RLIMIT_MEMLOCK) failed: " +
                    Errno.describe(error));
            }
            return new MemlockLimit(rlimit.rlim_cur(limit), rlimit.rlim_max(limit));
        }
    }

    /**
     * @return bytes this process has locked in RAM ({@code VmLck} of /proc/self/status), or -1 if unknown.
     */
    public static long lockedBytes()
    {
        try
        {
            for (final String line : Files.readAllLines(STATUS_FILE, StandardCharsets.US_ASCII))
            {
                if (line.startsWith("VmLck:"))
                {
                    final String value = line.substring("VmLck:".length()).strip();
                    return Long.parseLong(value.substring(0, value.indexOf(' '))) * 1024;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
        return -1;
    }

    static String mlockFailure(final long bytes, final int errno)
    {
        final StringBuilder message = new StringBuilder(320)
            .append("cannot pin ").append(bytes).append(" bytes in RAM: mlock failed with ")
            .append(Errno.describe(errno)).append(". RLIMIT_MEMLOCK is ");
        try
        {
            message.append(memlockLimit().describe());
        }
        catch (final RuntimeException ex)
        {
            message.append("unknown (").append(ex.getMessage()).append(')');
        }
        final long lockedBytes = lockedBytes();
        if (lockedBytes >= 0)
        {
            message.append("; this process already has ").append(lockedBytes).append(" bytes locked");
        }
        message.append(" and asked for ").append(bytes).append(" more. ");
        if (errno == Errno.EPERM || errno == Errno.ENOMEM || errno == Errno.EAGAIN)
        {
            message.append("Raise the limit (shell: ulimit -l unlimited; systemd: LimitMEMLOCK=infinity; ")
                .append("docker: --ulimit memlock=-1:-1) or grant CAP_IPC_LOCK; ENOMEM can also mean the range ")
                .append("is not mapped or RAM is short.");
        }
        return message.toString();
    }

    private static String mbindFailure(final long bytes, final int node, final int errno)
    {
        final String what = "cannot bind " + bytes + " bytes to NUMA node " + node + ": mbind failed with " +
            Errno.describe(errno);
        if (errno == Errno.EINVAL)
        {
            return what + "; the node does not exist or is not allowed to this process (online nodes: " +
                onlineNodes() + ")";
        }
        if (errno == Errno.ENOSYS || errno == Errno.EPERM || errno == Errno.EOPNOTSUPP)
        {
            return what + "; NUMA placement is not supported or not permitted here (kernel without NUMA, or a " +
                "container's seccomp profile)";
        }
        return what;
    }

    private static String onlineNodes()
    {
        try
        {
            return Files.readString(ONLINE_NODES_FILE, StandardCharsets.US_ASCII).strip();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static int mbind(final MemorySegment segment, final int node)
    {
        return JlgNative.jlg_mbind_node(segment, segment.byteSize(), node);
    }

    /**
     * A request the system refused: fatal when strict or when the request itself is wrong (a NUMA node that does
     * not exist), otherwise a warning kept with the region and logged.
     */
    private static void refuse(
        final MemoryOptions options, final List<String> warnings, final String function, final int errno,
        final String message)
    {
        if (options.strict() || ("mbind".equals(function) && errno == Errno.EINVAL))
        {
            throw new NativeException(function, errno, message);
        }
        warnings.add(message);
        LOGGER.log(System.Logger.Level.WARNING, message + " Continuing without it.");
    }

    private static NativeRegion allocateFallback(final long bytes, final MemoryOptions options)
    {
        final String reason = "libjlg_native.so is not loaded, so " + bytes + " bytes come from a plain Arena " +
            "(not pinned, no huge-page advice, no NUMA binding): " + NativeLibrary.describe();
        if (options.strict() && options.needsNative())
        {
            throw new NativeLibraryUnavailableException("cannot allocate with " + options + ": " + reason);
        }
        if (FALLBACK_WARNED.compareAndSet(false, true))
        {
            LOGGER.log(System.Logger.Level.WARNING, reason);
        }
        final Arena arena = Arena.ofShared();
        final MemorySegment segment = arena.allocate(bytes, FALLBACK_ALIGNMENT_BYTES);
        return new NativeRegion(arena, segment, false, false, false, -1,
            options.needsNative() ? List.of(reason) : List.of());
    }

    private static void unmap(final long address, final long mappedBytes)
    {
        final int error = JlgNative.jlg_unmap(MemorySegment.ofAddress(address), mappedBytes);
        if (error != 0)
        {
            LOGGER.log(System.Logger.Level.WARNING, "munmap of " + mappedBytes + " bytes at 0x" +
                Long.toHexString(address) + " failed: " + Errno.describe(error));
        }
    }

    private static void requireNative(final MemorySegment segment)
    {
        NativeLibrary.require();
        if (!segment.isNative())
        {
            throw new IllegalArgumentException("not a native segment: " + segment);
        }
    }

    private static long roundUp(final long bytes, final long alignment)
    {
        return (bytes + alignment - 1) & -alignment;
    }
}
