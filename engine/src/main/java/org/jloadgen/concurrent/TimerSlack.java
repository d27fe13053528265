package org.jloadgen.concurrent;

import org.jloadgen.bindings.NativeException;
import org.jloadgen.bindings.NativeLibrary;
import org.jloadgen.bindings.ThreadScheduling;

/**
 * Precise timed waits for one thread while it needs them. Linux lets an ordinary thread's timed waits fire up to its
 * timer slack late (50 µs by default) to batch wake-ups; a thread that parks until shortly before a deadline and
 * spins the rest would then have to spin through the slack too. Lowering the slack to 1 ns makes the park end where
 * asked, give or take the kernel's wake-up time.
 */
public final class TimerSlack
{
    /** The slack of a precise thread. */
    public static final long PRECISE_NS = 1;
    /** What {@link #makePrecise()} returns when the slack could not be changed. */
    public static final long UNCHANGED = -1;

    private TimerSlack()
    {
    }

    /**
     * Lowers the calling thread's timer slack to {@value #PRECISE_NS} ns.
     *
     * @return the previous slack, for {@link #restore}, or {@link #UNCHANGED} when the slack could not be read or set
     *         (no native library, or the kernel refused): the thread then waits with its old slack.
     */
    public static long makePrecise()
    {
        if (!NativeLibrary.isAvailable())
        {
            return UNCHANGED;
        }
        try
        {
            final long previous = ThreadScheduling.timerSlackNs();
            return ThreadScheduling.trySetTimerSlackNs(PRECISE_NS) ? previous : UNCHANGED;
        }
        catch (final NativeException ex)
        {
            return UNCHANGED;
        }
    }

    /**
     * Gives the calling thread back the slack {@link #makePrecise()} returned.
     *
     * @param previous that value ({@link #UNCHANGED}: nothing to do).
     */
    public static void restore(final long previous)
    {
        if (previous > 0)
        {
            ThreadScheduling.trySetTimerSlackNs(previous);
        }
    }
}
