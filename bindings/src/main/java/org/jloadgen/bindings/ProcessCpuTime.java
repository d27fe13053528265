package org.jloadgen.bindings;

import org.jloadgen.bindings.internal.JlgNative;

/**
 * The CPU time of this whole process to the nanosecond ({@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)}): every
 * thread's, the JVM's own and exited ones included. What Java offers instead counts in the kernel's 10 ms ticks
 * ({@code /proc/self/stat}, {@code OperatingSystemMXBean.getProcessCpuTime}, measured on Linux 6.18), too coarse to
 * tell this process's share of a CPU over a tenth of a second.
 */
public final class ProcessCpuTime
{
    private ProcessCpuTime()
    {
    }

    /**
     * @return the process's CPU time in ns, or -1 where it cannot be read (no native library, or the clock is
     *         refused); never throws.
     */
    public static long nanosOrMinusOne()
    {
        return NativeLibrary.isAvailable() ? JlgNative.jlg_process_cpu_ns() : -1;
    }
}
