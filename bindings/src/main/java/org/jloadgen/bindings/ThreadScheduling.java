package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.bindings.internal.JlgNative;

/**
 * How the kernel schedules the calling thread: its timer slack (prctl {@code PR_SET_TIMERSLACK}) and its scheduling
 * policy ({@code SCHED_IDLE}); and the policy of another thread of the process, named by its kernel thread id (the
 * JVM's own threads, which Java cannot reach as {@link Thread}s). Linux applies both to one thread, not the process.
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
    /** The kernel thread id that names the calling thread. */
    public static final long CALLING_THREAD = 0;

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

    /**
     * Sets the time-sharing policy of one thread of this process. Lowering a thread to {@link #SCHED_IDLE} needs no
     * privilege; raising it back to {@link #SCHED_OTHER} needs {@code CAP_SYS_NICE} or an {@code RLIMIT_NICE} of at
     * least 20, and is refused otherwise.
     *
     * @param tid    the thread's kernel thread id ({@link ThreadAffinity#currentThreadId()} on that thread, or a
     *               {@code /proc/self/task} entry), or {@link #CALLING_THREAD}.
     * @param policy {@link #SCHED_OTHER} or {@link #SCHED_IDLE}.
     * @return whether the policy is set (false when the native library is unavailable, the thread is gone or the
     *         kernel refused).
     */
    public static boolean trySetPolicy(final long tid, final int policy)
    {
        if (policy != SCHED_OTHER && policy != SCHED_IDLE)
        {
            throw new IllegalArgumentException("only SCHED_OTHER (0) and SCHED_IDLE (5) are set here, not " + policy);
        }
        return NativeLibrary.isAvailable() && JlgNative.jlg_set_task_policy(tid, policy) == 0;
    }

    /**
     * @param tid a kernel thread id of this process, or {@link #CALLING_THREAD}.
     * @return that thread's scheduling policy.
     * @throws NativeLibraryUnavailableException without the native library.
     * @throws NativeException if the kernel refuses (no such thread: {@code ESRCH}).
     */
    public static int policyOf(final long tid)
    {
        NativeLibrary.require();
        try (Arena scratch = Arena.ofConfined())
        {
            final MemorySegment out = scratch.allocate(ValueLayout.JAVA_INT);
            final int error = JlgNative.jlg_get_task_policy(tid, out);
            if (error != 0)
            {
                throw new NativeException("sched_getscheduler", error, "cannot read the scheduling policy of thread "
                    + tid + ": " + Errno.describe(error));
            }
            return out.get(ValueLayout.JAVA_INT, 0);
        }
    }
}
