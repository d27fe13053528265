package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.BitSet;

import org.jloadgen.bindings.internal.JlgNative;
import org.jloadgen.bindings.internal.jlg_cpu_node;

/**
 * Affinity of the calling thread (sched_setaffinity / sched_getaffinity on the kernel thread behind it), where
 * it runs (getcpu) and its kernel thread id (gettid). A platform thread keeps its kernel thread, so pinning once
 * at the start of an issue or completion thread holds for its life; do not pin virtual threads.
 * <p>
 * CPU sets are {@link BitSet}s of CPU numbers; {@link #parseCpuList(String)} reads the kernel's list syntax
 * ({@code 0-3,8,10-11}).
 */
public final class ThreadAffinity
{
    /** Bytes of the smallest mask passed to the kernel: 1024 CPUs, glibc's {@code cpu_set_t}. */
    static final int MIN_MASK_BYTES = 128;
    /** Largest mask tried when reading: 262144 CPUs, more than any kernel's NR_CPUS. */
    static final int MAX_MASK_BYTES = 32768;

    private static final System.Logger LOGGER = System.getLogger(ThreadAffinity.class.getName());

    private ThreadAffinity()
    {
    }

    /**
     * Restricts the calling thread to {@code cpus}.
     *
     * @param cpus a non-empty set of CPU numbers.
     * @throws NativeException when the kernel refuses (no CPU of the set online or allowed by the cpuset, or not
     *                         permitted).
     */
    public static void pinCurrentThread(final BitSet cpus)
    {
        final int error = setAffinity(cpus);
        if (error != 0)
        {
            throw new NativeException("sched_setaffinity", error, affinityFailure(cpus, error));
        }
    }

    /**
     * Restricts the calling thread to {@code cpus} if the kernel allows it, otherwise logs a warning and leaves
     * the thread where it was: for callers whose run can go on unpinned.
     *
     * @param cpus a non-empty set of CPU numbers.
     * @return whether the thread is now pinned.
     */
    public static boolean tryPinCurrentThread(final BitSet cpus)
    {
        final int error = setAffinity(cpus);
        if (error != 0)
        {
            LOGGER.log(System.Logger.Level.WARNING, affinityFailure(cpus, error) + " Continuing unpinned.");
            return false;
        }
        return true;
    }

    /**
     * {@link #tryPinCurrentThread(BitSet)} to one CPU: what a worker pool's pinning callback does.
     *
     * @param cpu a CPU number.
     * @return whether the thread is now pinned.
     */
    public static boolean tryPinCurrentThreadTo(final int cpu)
    {
        final BitSet set = new BitSet();
        set.set(cpu);
        return tryPinCurrentThread(set);
    }

    /**
     * @return the CPUs the calling thread may run on.
     */
    public static BitSet currentThreadCpus()
    {
        NativeLibrary.require();
        try (Arena scratch = Arena.ofConfined())
        {
            for (int maskBytes = MIN_MASK_BYTES; maskBytes <= MAX_MASK_BYTES; maskBytes *= 2)
            {
                final MemorySegment mask = scratch.allocate(maskBytes, Long.BYTES);
                final int error = JlgNative.jlg_get_thread_affinity(mask, maskBytes);
                if (error == 0)
                {
                    return BitSet.valueOf(mask.toArray(JlgNative.C_LONG));
                }
                if (error != Errno.EINVAL)
                {
                    throw new NativeException("sched_getaffinity", error, "cannot read the affinity of thread " +
                        currentThreadId() + ": " + Errno.describe(error));
                }
            }
        }
        throw new NativeException("sched_getaffinity", Errno.EINVAL, "the kernel's CPU mask is larger than " +
            MAX_MASK_BYTES + " bytes");
    }

    /**
     * @return the CPU and NUMA node the calling thread runs on now.
     */
    public static CpuNode currentCpu()
    {
        NativeLibrary.require();
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment out = jlg_cpu_node.allocate(scratch);
            final int error = JlgNative.jlg_getcpu(out);
            if (error != 0)
            {
                throw new NativeException("getcpu", error, "getcpu failed: " + Errno.describe(error));
            }
            return new CpuNode(jlg_cpu_node.cpu(out), jlg_cpu_node.node(out));
        }
    }

    /**
     * @return the kernel thread id (gettid) of the calling thread, as shown in /proc/self/task and by top -H.
     */
    public static long currentThreadId()
    {
        NativeLibrary.require();
        return JlgNative.jlg_gettid();
    }

    /**
     * Parses the kernel's CPU list syntax, as in /sys/devices/system/cpu/online or {@code taskset -c}.
     *
     * @param list e.g. {@code 0-3,8,10-11}.
     * @return the CPUs.
     * @throws IllegalArgumentException naming the bad part.
     */
    public static BitSet parseCpuList(final String list)
    {
        final BitSet cpus = new BitSet();
        if (list == null || list.isBlank())
        {
            throw new IllegalArgumentException("empty CPU list");
        }
        for (final String part : list.strip().split(",", -1))
        {
            final String item = part.strip();
            final int dash = item.indexOf('-');
            try
            {
                final int first = Integer.parseInt(dash < 0 ? item : item.substring(0, dash).strip());
                final int last = dash < 0 ? first : Integer.parseInt(item.substring(dash + 1).strip());
                if (first < 0 || last < first)
                {
                    throw new IllegalArgumentException("bad CPU range '" + item + "' in CPU list '" + list + "'");
                }
                cpus.set(first, last + 1);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("bad CPU number '" + item + "' in CPU list '" + list + "'", ex);
            }
        }
        return cpus;
    }

    /**
     * @param cpus a set of CPU numbers.
     * @return it in the kernel's CPU list syntax, e.g. {@code 0-3,8}.
     */
    public static String formatCpuList(final BitSet cpus)
    {
        final StringBuilder out = new StringBuilder();
        for (int first = cpus.nextSetBit(0); first >= 0; )
        {
            final int end = cpus.nextClearBit(first);
            if (out.length() > 0)
            {
                out.append(',');
            }
            out.append(first);
            if (end - 1 > first)
            {
                out.append('-').append(end - 1);
            }
            first = cpus.nextSetBit(end);
        }
        return out.toString();
    }

    private static int setAffinity(final BitSet cpus)
    {
        NativeLibrary.require();
        if (cpus.isEmpty())
        {
            throw new IllegalArgumentException("empty CPU set");
        }
        final long[] words = cpus.toLongArray();
        final int maskBytes = Math.max(MIN_MASK_BYTES, words.length * Long.BYTES);
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment mask = scratch.allocate(maskBytes, Long.BYTES);
            MemorySegment.copy(words, 0, mask, JlgNative.C_LONG, 0, words.length);
            return JlgNative.jlg_set_thread_affinity(mask, maskBytes);
        }
    }

    private static String affinityFailure(final BitSet cpus, final int errno)
    {
        final String what = "cannot pin thread " + JlgNative.jlg_gettid() + " (" + Thread.currentThread().getName() +
            ") to CPUs " + formatCpuList(cpus) + ": sched_setaffinity failed with " + Errno.describe(errno);
        if (errno == Errno.EINVAL)
        {
            return what + "; none of these CPUs is online and allowed to this process (allowed now: " +
                formatCpuList(currentThreadCpus()) + ")";
        }
        if (errno == Errno.EPERM)
        {
            return what + "; not permitted here (CAP_SYS_NICE or a container policy)";
        }
        return what;
    }
}
