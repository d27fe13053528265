package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.bindings.internal.JlgNative;

/**
 * How the kernel schedules the calling thread: its timer slack (prctl {@code PR_SET_TIMERSLACK}) and its scheduling
 * policy ({@code SCHED_IDLE}). Linux applies both to one thread, not the process.
 * <p>
 * Timer slack lets the kernel fire a thread's timed waits up to that much late, to batch wake-ups; ordinary threads
 * get 50 µs, so a thread that parks until shortly before a deadline and spins the rest needs a small slack to wake
 * where it asked. {@code SCHED_IDLE} makes a background thread run only on CPU time no ordinary thread wants, and never
 * preempt one when it wakes: for the harness's own threads (log writers) that must not take a core from a SUT thread
 * while the clock runs.
 * <p>
 * Every {@code try...} method returns whether it worked and never throws when the native library is missing or the
 * kernel refuses: a run can always go on without these.
 */
public final class ThreadScheduling
{
    /** {@code SCHED_OTHER}, the ordinary time-sharing policy. */
    public static final int SCHED_OTHER = 0;
    /** {@code SCHED_IDLE}: runs only when nothing else wants the CPU. */
    public static final int SCHED_IDLE = 5;

    private ThreadScheduling()
    {
    }

    /**
     * Sets the calling thread's timer slack.
     *
     * @param slackNs how late its timed waits may fire, in ns (at least 1; the kernel's default is 50000).
     * @return whether it is set (false when the native library is unavailable or the kernel refused).
     */
    public static boolean trySetTimerSlackNs(final long slackNs)
    {
        if (slackNs < 1)
        {
            throw new IllegalArgumentException("timer slack must be at least 1 ns (0 would mean the default): "
                + slackNs);
        }
        return NativeLibrary.isAvailable() && JlgNative.jlg_set_thread_timer_slack(slackNs) == 0;
    }

    /**
     * @return the calling thread's timer slack in ns.
     * @throws NativeLibraryUnavailableException without the native library.
     * @throws NativeException if the kernel refuses.
     */
    public static long timerSlackNs()
    {
        NativeLibrary.require();
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment out = scratch.allocate(ValueLayout.JAVA_LONG);
            final int error = JlgNative.jlg_get_thread_timer_slack(out);
            if (error != 0)
            {
                throw new NativeException("prctl", error, "cannot read the timer slack: " + Errno.describe(error));
            }
            return out.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    /**
     * Gives the calling thread the {@code SCHED_IDLE} policy: it then runs only on CPU time that no ordinary thread
     * wants, so it cannot take a core from one. Only for threads whose work can wait (log writers), and whose
     * producers never spin on them without a bound.
     *
     * @return whether the policy is set (false when the native library is unavailable or the kernel refused).
     */
    public static boolean tryRunOnlyWhenIdle()
    {
        return NativeLibrary.isAvailable() && JlgNative.jlg_set_thread_idle_policy() == 0;
    }

    /**
     * @return the calling thread's scheduling policy ({@link #SCHED_OTHER}, {@link #SCHED_IDLE}, ...).
     * @throws NativeLibraryUnavailableException without the native library.
     * @throws NativeException if the kernel refuses.
     */
    public static int policy()
    {
        NativeLibrary.require();
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment out = scratch.allocate(ValueLayout.JAVA_INT);
            final int error = JlgNative.jlg_get_thread_policy(out);
            if (error != 0)
            {
                throw new NativeException("sched_getscheduler", error, "cannot read the scheduling policy: "
                    + Errno.describe(error));
            }
            return out.get(ValueLayout.JAVA_INT, 0);
        }
    }
}
