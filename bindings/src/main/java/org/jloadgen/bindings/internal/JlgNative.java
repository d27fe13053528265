package org.jloadgen.bindings.internal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/**
 * Downcalls to {@code libjlg_native.so} ({@code native/src/main/c/include/jlg_native.h}), written by hand in the
 * shape {@code jextract --header-class-name JlgNative} produces (jextract is not installable on the build
 * machines): C type layouts, one holder class per function with {@code static final} descriptor, address and
 * handle, resolved on first use, and a static wrapper per function. {@code bindings/jextract.sh} regenerates it
 * where jextract exists, from the allow-list {@code bindings/src/main/jextract/includes.txt}.
 * <p>
 * Functions in {@code bindings/src/main/jextract/critical.txt} are short, never block and never call back, so
 * their handles use {@link Linker.Option#critical(boolean) Linker.Option.critical(false)}: no thread-state
 * transition, no heap segments. Everything else (mmap, mlock, mbind, which may fault in or move gigabytes) is a
 * normal downcall.
 * <p>
 * Not API: use {@code org.jloadgen.bindings}. Functions that can fail return 0 or an errno value.
 */
public final class JlgNative
{
    /** C {@code int} (and {@code uint32_t}). */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    /** C {@code long}, {@code size_t}, {@code int64_t}, {@code rlim_t} on LP64. */
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    /** C {@code void *}. */
    public static final AddressLayout C_POINTER =
        ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));
    /** Names of the functions bound here, in the order of the allow-list. */
    public static final List<String> FUNCTIONS = List.of(
        "jlg_page_size", "jlg_gettid", "jlg_process_cpu_ns", "jlg_map_anonymous", "jlg_unmap", "jlg_mlock",
        "jlg_munlock",
        "jlg_madvise_hugepage", "jlg_madvise_willneed", "jlg_mbind_node", "jlg_node_of_address", "jlg_getcpu",
        "jlg_get_memlock_limit", "jlg_set_thread_affinity", "jlg_get_thread_affinity", "jlg_set_thread_timer_slack",
        "jlg_get_thread_timer_slack", "jlg_set_thread_idle_policy", "jlg_get_thread_policy", "jlg_set_task_policy",
        "jlg_get_task_policy", "jlg_strerror", "jlg_baseline_increment");

    static final SymbolLookup SYMBOL_LOOKUP = symbolLookup();

    private static final Linker.Option LINKER_CRITICAL = Linker.Option.critical(false);

    private JlgNative()
    {
    }

    static SymbolLookup symbolLookup()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.result();
        return result.isLoaded() ? result.lookup() : name -> Optional.empty();
    }

    static MemorySegment findOrThrow(final String symbol)
    {
        return SYMBOL_LOOKUP.find(symbol).orElseThrow(() ->
        {
            final NativeLibraryLoader.Result result = NativeLibraryLoader.result();
            return new UnsatisfiedLinkError("unresolved symbol: " + symbol +
                (result.isLoaded() ? " in " + result.path() : ": " + result.failure()));
        });
    }

    private static final class jlg_page_size
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_page_size");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_page_size}.
     */
    public static FunctionDescriptor jlg_page_size$descriptor()
    {
        return jlg_page_size.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_page_size} (critical).
     */
    public static MethodHandle jlg_page_size$handle()
    {
        return jlg_page_size.HANDLE;
    }

    /**
     * @return the address of {@code jlg_page_size}.
     */
    public static MemorySegment jlg_page_size$address()
    {
        return jlg_page_size.ADDR;
    }

    /**
     * The size of a base page in bytes.
     *
     * @return the result.
     */
    public static long jlg_page_size()
    {
        try
        {
            return (long)jlg_page_size.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_gettid
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_gettid");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_gettid}.
     */
    public static FunctionDescriptor jlg_gettid$descriptor()
    {
        return jlg_gettid.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_gettid} (critical).
     */
    public static MethodHandle jlg_gettid$handle()
    {
        return jlg_gettid.HANDLE;
    }

    /**
     * @return the address of {@code jlg_gettid}.
     */
    public static MemorySegment jlg_gettid$address()
    {
        return jlg_gettid.ADDR;
    }

    /**
     * The kernel thread id of the calling thread.
     *
     * @return the result.
     */
    public static long jlg_gettid()
    {
        try
        {
            return (long)jlg_gettid.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_process_cpu_ns
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_process_cpu_ns");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_process_cpu_ns}.
     */
    public static FunctionDescriptor jlg_process_cpu_ns$descriptor()
    {
        return jlg_process_cpu_ns.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_process_cpu_ns} (critical).
     */
    public static MethodHandle jlg_process_cpu_ns$handle()
    {
        return jlg_process_cpu_ns.HANDLE;
    }

    /**
     * @return the address of {@code jlg_process_cpu_ns}.
     */
    public static MemorySegment jlg_process_cpu_ns$address()
    {
        return jlg_process_cpu_ns.ADDR;
    }

    /**
     * The CPU time of the whole process, every thread, exited ones too, in ns
     * (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)), or -1 if the clock cannot be read.
     *
     * @return the result.
     */
    public static long jlg_process_cpu_ns()
    {
        try
        {
            return (long)jlg_process_cpu_ns.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_map_anonymous
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_map_anonymous");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_map_anonymous}.
     */
    public static FunctionDescriptor jlg_map_anonymous$descriptor()
    {
        return jlg_map_anonymous.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_map_anonymous}.
     */
    public static MethodHandle jlg_map_anonymous$handle()
    {
        return jlg_map_anonymous.HANDLE;
    }

    /**
     * @return the address of {@code jlg_map_anonymous}.
     */
    public static MemorySegment jlg_map_anonymous$address()
    {
        return jlg_map_anonymous.ADDR;
    }

    /**
     * Maps zero-filled anonymous memory aligned to {@code alignment}; writes the start to {@code *address}.
     *
     * @param bytes bytes.
     * @param alignment alignment.
     * @param address address.
     * @return 0 or an errno value.
     */
    public static int jlg_map_anonymous(final long bytes, final long alignment, final MemorySegment address)
    {
        try
        {
            return (int)jlg_map_anonymous.HANDLE.invokeExact(bytes, alignment, address);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_unmap
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_unmap");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_unmap}.
     */
    public static FunctionDescriptor jlg_unmap$descriptor()
    {
        return jlg_unmap.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_unmap}.
     */
    public static MethodHandle jlg_unmap$handle()
    {
        return jlg_unmap.HANDLE;
    }

    /**
     * @return the address of {@code jlg_unmap}.
     */
    public static MemorySegment jlg_unmap$address()
    {
        return jlg_unmap.ADDR;
    }

    /**
     * Unmaps what {@code jlg_map_anonymous} mapped.
     *
     * @param address address.
     * @param bytes bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_unmap(final MemorySegment address, final long bytes)
    {
        try
        {
            return (int)jlg_unmap.HANDLE.invokeExact(address, bytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_mlock
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_mlock");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_mlock}.
     */
    public static FunctionDescriptor jlg_mlock$descriptor()
    {
        return jlg_mlock.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_mlock}.
     */
    public static MethodHandle jlg_mlock$handle()
    {
        return jlg_mlock.HANDLE;
    }

    /**
     * @return the address of {@code jlg_mlock}.
     */
    public static MemorySegment jlg_mlock$address()
    {
        return jlg_mlock.ADDR;
    }

    /**
     * Mlock(2).
     *
     * @param address address.
     * @param bytes bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_mlock(final MemorySegment address, final long bytes)
    {
        try
        {
            return (int)jlg_mlock.HANDLE.invokeExact(address, bytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_munlock
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_munlock");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_munlock}.
     */
    public static FunctionDescriptor jlg_munlock$descriptor()
    {
        return jlg_munlock.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_munlock}.
     */
    public static MethodHandle jlg_munlock$handle()
    {
        return jlg_munlock.HANDLE;
    }

    /**
     * @return the address of {@code jlg_munlock}.
     */
    public static MemorySegment jlg_munlock$address()
    {
        return jlg_munlock.ADDR;
    }

    /**
     * Munlock(2).
     *
     * @param address address.
     * @param bytes bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_munlock(final MemorySegment address, final long bytes)
    {
        try
        {
            return (int)jlg_munlock.HANDLE.invokeExact(address, bytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_madvise_hugepage
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_madvise_hugepage");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_madvise_hugepage}.
     */
    public static FunctionDescriptor jlg_madvise_hugepage$descriptor()
    {
        return jlg_madvise_hugepage.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_madvise_hugepage} (critical).
     */
    public static MethodHandle jlg_madvise_hugepage$handle()
    {
        return jlg_madvise_hugepage.HANDLE;
    }

    /**
     * @return the address of {@code jlg_madvise_hugepage}.
     */
    public static MemorySegment jlg_madvise_hugepage$address()
    {
        return jlg_madvise_hugepage.ADDR;
    }

    /**
     * Madvise(MADV_HUGEPAGE) over the whole pages of the range.
     *
     * @param address address.
     * @param bytes bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_madvise_hugepage(final MemorySegment address, final long bytes)
    {
        try
        {
            return (int)jlg_madvise_hugepage.HANDLE.invokeExact(address, bytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_madvise_willneed
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_madvise_willneed");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_madvise_willneed}.
     */
    public static FunctionDescriptor jlg_madvise_willneed$descriptor()
    {
        return jlg_madvise_willneed.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_madvise_willneed}.
     */
    public static MethodHandle jlg_madvise_willneed$handle()
    {
        return jlg_madvise_willneed.HANDLE;
    }

    /**
     * @return the address of {@code jlg_madvise_willneed}.
     */
    public static MemorySegment jlg_madvise_willneed$address()
    {
        return jlg_madvise_willneed.ADDR;
    }

    /**
     * Madvise(MADV_WILLNEED) over the whole pages of the range.
     *
     * @param address address.
     * @param bytes bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_madvise_willneed(final MemorySegment address, final long bytes)
    {
        try
        {
            return (int)jlg_madvise_willneed.HANDLE.invokeExact(address, bytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_mbind_node
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_mbind_node");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_mbind_node}.
     */
    public static FunctionDescriptor jlg_mbind_node$descriptor()
    {
        return jlg_mbind_node.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_mbind_node}.
     */
    public static MethodHandle jlg_mbind_node$handle()
    {
        return jlg_mbind_node.HANDLE;
    }

    /**
     * @return the address of {@code jlg_mbind_node}.
     */
    public static MemorySegment jlg_mbind_node$address()
    {
        return jlg_mbind_node.ADDR;
    }

    /**
     * Mbind(2) with MPOL_BIND to one node, moving pages already there.
     *
     * @param address address.
     * @param bytes bytes.
     * @param node node.
     * @return 0 or an errno value.
     */
    public static int jlg_mbind_node(final MemorySegment address, final long bytes, final int node)
    {
        try
        {
            return (int)jlg_mbind_node.HANDLE.invokeExact(address, bytes, node);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_node_of_address
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_node_of_address");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_node_of_address}.
     */
    public static FunctionDescriptor jlg_node_of_address$descriptor()
    {
        return jlg_node_of_address.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_node_of_address} (critical).
     */
    public static MethodHandle jlg_node_of_address$handle()
    {
        return jlg_node_of_address.HANDLE;
    }

    /**
     * @return the address of {@code jlg_node_of_address}.
     */
    public static MemorySegment jlg_node_of_address$address()
    {
        return jlg_node_of_address.ADDR;
    }

    /**
     * Get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR) into {@code *node}.
     *
     * @param address address.
     * @param node node.
     * @return 0 or an errno value.
     */
    public static int jlg_node_of_address(final MemorySegment address, final MemorySegment node)
    {
        try
        {
            return (int)jlg_node_of_address.HANDLE.invokeExact(address, node);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_getcpu
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_getcpu");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_getcpu}.
     */
    public static FunctionDescriptor jlg_getcpu$descriptor()
    {
        return jlg_getcpu.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_getcpu} (critical).
     */
    public static MethodHandle jlg_getcpu$handle()
    {
        return jlg_getcpu.HANDLE;
    }

    /**
     * @return the address of {@code jlg_getcpu}.
     */
    public static MemorySegment jlg_getcpu$address()
    {
        return jlg_getcpu.ADDR;
    }

    /**
     * Getcpu(2) into a {@link jlg_cpu_node}.
     *
     * @param out out.
     * @return 0 or an errno value.
     */
    public static int jlg_getcpu(final MemorySegment out)
    {
        try
        {
            return (int)jlg_getcpu.HANDLE.invokeExact(out);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_get_memlock_limit
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_get_memlock_limit");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_get_memlock_limit}.
     */
    public static FunctionDescriptor jlg_get_memlock_limit$descriptor()
    {
        return jlg_get_memlock_limit.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_get_memlock_limit} (critical).
     */
    public static MethodHandle jlg_get_memlock_limit$handle()
    {
        return jlg_get_memlock_limit.HANDLE;
    }

    /**
     * @return the address of {@code jlg_get_memlock_limit}.
     */
    public static MemorySegment jlg_get_memlock_limit$address()
    {
        return jlg_get_memlock_limit.ADDR;
    }

    /**
     * Getrlimit(RLIMIT_MEMLOCK) into an {@link rlimit}.
     *
     * @param out out.
     * @return 0 or an errno value.
     */
    public static int jlg_get_memlock_limit(final MemorySegment out)
    {
        try
        {
            return (int)jlg_get_memlock_limit.HANDLE.invokeExact(out);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_set_thread_affinity
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_set_thread_affinity");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_set_thread_affinity}.
     */
    public static FunctionDescriptor jlg_set_thread_affinity$descriptor()
    {
        return jlg_set_thread_affinity.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_set_thread_affinity} (critical).
     */
    public static MethodHandle jlg_set_thread_affinity$handle()
    {
        return jlg_set_thread_affinity.HANDLE;
    }

    /**
     * @return the address of {@code jlg_set_thread_affinity}.
     */
    public static MemorySegment jlg_set_thread_affinity$address()
    {
        return jlg_set_thread_affinity.ADDR;
    }

    /**
     * Sched_setaffinity(2) for the calling thread.
     *
     * @param mask mask.
     * @param maskBytes mask_bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_set_thread_affinity(final MemorySegment mask, final long maskBytes)
    {
        try
        {
            return (int)jlg_set_thread_affinity.HANDLE.invokeExact(mask, maskBytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_get_thread_affinity
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_get_thread_affinity");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_get_thread_affinity}.
     */
    public static FunctionDescriptor jlg_get_thread_affinity$descriptor()
    {
        return jlg_get_thread_affinity.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_get_thread_affinity} (critical).
     */
    public static MethodHandle jlg_get_thread_affinity$handle()
    {
        return jlg_get_thread_affinity.HANDLE;
    }

    /**
     * @return the address of {@code jlg_get_thread_affinity}.
     */
    public static MemorySegment jlg_get_thread_affinity$address()
    {
        return jlg_get_thread_affinity.ADDR;
    }

    /**
     * Sched_getaffinity(2) for the calling thread.
     *
     * @param mask mask.
     * @param maskBytes mask_bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_get_thread_affinity(final MemorySegment mask, final long maskBytes)
    {
        try
        {
            return (int)jlg_get_thread_affinity.HANDLE.invokeExact(mask, maskBytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_set_thread_timer_slack
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_set_thread_timer_slack");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_set_thread_timer_slack}.
     */
    public static FunctionDescriptor jlg_set_thread_timer_slack$descriptor()
    {
        return jlg_set_thread_timer_slack.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_set_thread_timer_slack} (critical).
     */
    public static MethodHandle jlg_set_thread_timer_slack$handle()
    {
        return jlg_set_thread_timer_slack.HANDLE;
    }

    /**
     * @return the address of {@code jlg_set_thread_timer_slack}.
     */
    public static MemorySegment jlg_set_thread_timer_slack$address()
    {
        return jlg_set_thread_timer_slack.ADDR;
    }

    /**
     * Prctl(PR_SET_TIMERSLACK) for the calling thread.
     *
     * @param slackNs slack_ns.
     * @return 0 or an errno value.
     */
    public static int jlg_set_thread_timer_slack(final long slackNs)
    {
        try
        {
            return (int)jlg_set_thread_timer_slack.HANDLE.invokeExact(slackNs);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_get_thread_timer_slack
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_get_thread_timer_slack");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_get_thread_timer_slack}.
     */
    public static FunctionDescriptor jlg_get_thread_timer_slack$descriptor()
    {
        return jlg_get_thread_timer_slack.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_get_thread_timer_slack} (critical).
     */
    public static MethodHandle jlg_get_thread_timer_slack$handle()
    {
        return jlg_get_thread_timer_slack.HANDLE;
    }

    /**
     * @return the address of {@code jlg_get_thread_timer_slack}.
     */
    public static MemorySegment jlg_get_thread_timer_slack$address()
    {
        return jlg_get_thread_timer_slack.ADDR;
    }

    /**
     * Prctl(PR_GET_TIMERSLACK) for the calling thread.
     *
     * @param slackNs slack_ns.
     * @return 0 or an errno value.
     */
    public static int jlg_get_thread_timer_slack(final MemorySegment slackNs)
    {
        try
        {
            return (int)jlg_get_thread_timer_slack.HANDLE.invokeExact(slackNs);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_set_thread_idle_policy
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_set_thread_idle_policy");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_set_thread_idle_policy}.
     */
    public static FunctionDescriptor jlg_set_thread_idle_policy$descriptor()
    {
        return jlg_set_thread_idle_policy.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_set_thread_idle_policy}.
     */
    public static MethodHandle jlg_set_thread_idle_policy$handle()
    {
        return jlg_set_thread_idle_policy.HANDLE;
    }

    /**
     * @return the address of {@code jlg_set_thread_idle_policy}.
     */
    public static MemorySegment jlg_set_thread_idle_policy$address()
    {
        return jlg_set_thread_idle_policy.ADDR;
    }

    /**
     * Sched_setscheduler(SCHED_IDLE) for the calling thread.
     *
     * @return 0 or an errno value.
     */
    public static int jlg_set_thread_idle_policy()
    {
        try
        {
            return (int)jlg_set_thread_idle_policy.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_get_thread_policy
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_get_thread_policy");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_get_thread_policy}.
     */
    public static FunctionDescriptor jlg_get_thread_policy$descriptor()
    {
        return jlg_get_thread_policy.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_get_thread_policy} (critical).
     */
    public static MethodHandle jlg_get_thread_policy$handle()
    {
        return jlg_get_thread_policy.HANDLE;
    }

    /**
     * @return the address of {@code jlg_get_thread_policy}.
     */
    public static MemorySegment jlg_get_thread_policy$address()
    {
        return jlg_get_thread_policy.ADDR;
    }

    /**
     * Sched_getscheduler(2) for the calling thread.
     *
     * @param policy policy.
     * @return 0 or an errno value.
     */
    public static int jlg_get_thread_policy(final MemorySegment policy)
    {
        try
        {
            return (int)jlg_get_thread_policy.HANDLE.invokeExact(policy);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_set_task_policy
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_set_task_policy");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_set_task_policy}.
     */
    public static FunctionDescriptor jlg_set_task_policy$descriptor()
    {
        return jlg_set_task_policy.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_set_task_policy}.
     */
    public static MethodHandle jlg_set_task_policy$handle()
    {
        return jlg_set_task_policy.HANDLE;
    }

    /**
     * @return the address of {@code jlg_set_task_policy}.
     */
    public static MemorySegment jlg_set_task_policy$address()
    {
        return jlg_set_task_policy.ADDR;
    }

    /**
     * Sched_setscheduler(2) of a thread of the process to a time-sharing policy.
     *
     * @param tid    kernel thread id (0: the calling thread).
     * @param policy SCHED_OTHER, SCHED_BATCH or SCHED_IDLE.
     * @return 0 or an errno value.
     */
    public static int jlg_set_task_policy(final long tid, final int policy)
    {
        try
        {
            return (int)jlg_set_task_policy.HANDLE.invokeExact(tid, policy);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_get_task_policy
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_get_task_policy");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_get_task_policy}.
     */
    public static FunctionDescriptor jlg_get_task_policy$descriptor()
    {
        return jlg_get_task_policy.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_get_task_policy} (critical).
     */
    public static MethodHandle jlg_get_task_policy$handle()
    {
        return jlg_get_task_policy.HANDLE;
    }

    /**
     * @return the address of {@code jlg_get_task_policy}.
     */
    public static MemorySegment jlg_get_task_policy$address()
    {
        return jlg_get_task_policy.ADDR;
    }

    /**
     * Sched_getscheduler(2) of a thread of the process.
     *
     * @param tid    kernel thread id (0: the calling thread).
     * @param policy policy.
     * @return 0 or an errno value.
     */
    public static int jlg_get_task_policy(final long tid, final MemorySegment policy)
    {
        try
        {
            return (int)jlg_get_task_policy.HANDLE.invokeExact(tid, policy);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_strerror
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_strerror");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_strerror}.
     */
    public static FunctionDescriptor jlg_strerror$descriptor()
    {
        return jlg_strerror.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_strerror} (critical).
     */
    public static MethodHandle jlg_strerror$handle()
    {
        return jlg_strerror.HANDLE;
    }

    /**
     * @return the address of {@code jlg_strerror}.
     */
    public static MemorySegment jlg_strerror$address()
    {
        return jlg_strerror.ADDR;
    }

    /**
     * Strerror_r(3) into {@code buffer}, NUL-terminated.
     *
     * @param errnum errnum.
     * @param buffer buffer.
     * @param bufferBytes buffer_bytes.
     * @return 0 or an errno value.
     */
    public static int jlg_strerror(final int errnum, final MemorySegment buffer, final long bufferBytes)
    {
        try
        {
            return (int)jlg_strerror.HANDLE.invokeExact(errnum, buffer, bufferBytes);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_baseline_increment
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_baseline_increment");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC,
            LINKER_CRITICAL);
    }

    /**
     * @return the descriptor of {@code jlg_baseline_increment}.
     */
    public static FunctionDescriptor jlg_baseline_increment$descriptor()
    {
        return jlg_baseline_increment.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_baseline_increment} (critical).
     */
    public static MethodHandle jlg_baseline_increment$handle()
    {
        return jlg_baseline_increment.HANDLE;
    }

    /**
     * @return the address of {@code jlg_baseline_increment}.
     */
    public static MemorySegment jlg_baseline_increment$address()
    {
        return jlg_baseline_increment.ADDR;
    }

    /**
     * Call-overhead baseline: {@code value + 1}.
     *
     * @param value value.
     * @return the result.
     */
    public static long jlg_baseline_increment(final long value)
    {
        try
        {
            return (long)jlg_baseline_increment.HANDLE.invokeExact(value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }}
