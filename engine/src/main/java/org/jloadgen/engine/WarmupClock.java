package org.jloadgen.engine;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * When a warm-up may stop: once its budget has passed and either its rounds have settled or the JIT has finished no
 * compilation for {@value #JIT_QUIET_NS} ns; and not later than {@value #JIT_WAIT_BUDGETS} budgets from the start.
 * A kind of round (the same work each time: one trace issued to one SUT) has settled when none of its last
 * {@value #SETTLED_ROUNDS} rounds, nor any of the last {@value #SETTLED_NS} ns, was {@value #GAIN_PERCENT}% faster
 * than its round of the last gain; the rounds have when every kind has. Shared by the engine's warm-up and the
 * bridge's ({@code engine.official}).
 * <p>
 * Why the rounds and not the JIT alone: the JIT is never quiet for 100 ms at start-up (the CLI's, the log writers'
 * and the JDK's own methods keep arriving at C2 long after the warm-up's loops are compiled), so a warm-up that waited
 * for it ran to its cap every time; an Offline 3.3M-sample null-SUT process spent 1.1 s of its 1.7 s there, while
 * its rounds had reached their compiled speed after 0.3-0.4 s (benchmarks/README.md, issue 20, session 9). What a
 * measured run needs is the code its rounds run, compiled, and their time says when it is. The budget stays the
 * least warm-up: before C2's code arrives a round's time can sit still for a while in C1 code. Rounds whose time the
 * schedule sets (a paced Server trace) say nothing of the code: they are reported without a time ({@link #another()}).
 */
public final class WarmupClock
{
    /** Longest warm-up, in budgets, while compilations are still finishing or rounds still get faster. */
    public static final int JIT_WAIT_BUDGETS = 4;
    /** The JIT counts as done when no compilation finished for this long. */
    public static final long JIT_QUIET_NS = 100_000_000L;
    /** A kind of round has settled when it made no gain for this long... */
    public static final long SETTLED_NS = 100_000_000L;
    /** ...and in this many rounds of its kind. */
    public static final int SETTLED_ROUNDS = 8;
    /** A gain: a round this much faster, in percent, than its kind's round of the last gain. */
    public static final int GAIN_PERCENT = 10;
    /** Kinds of round a warm-up may report ({@link #another(int, long)}). */
    public static final int MAX_KINDS = 8;

    /** The JIT's total compilation time in ms so far, or {@code null} where the JVM does not time it. */
    private final LongSupplier compiledMsSource;
    private final long startNs;
    private final long deadlineNs;
    private final long capNs;
    /** Per kind, the round time of its last gain ({@code Long.MAX_VALUE}: none reported yet). */
    private final long[] gainRoundNs = new long[MAX_KINDS];
    /** Per kind, when its last gain was. */
    private final long[] gainAtNs = new long[MAX_KINDS];
    /** Per kind, its rounds since its last gain. */
    private final int[] roundsSinceGain = new int[MAX_KINDS];
    private long compiledMs;
    private long lastCompiledNs;
    private Ending ending;

    /** Why a warm-up ended, for the detail log. */
    public enum Ending
    {
        /** Its rounds stopped getting faster. */
        SETTLED("its rounds settled (no kind of round got " + GAIN_PERCENT + "% faster in " + SETTLED_ROUNDS
            + " rounds and " + SETTLED_NS / 1_000_000L + " ms)"),
        /** The JIT finished no compilation for a while. */
        JIT_QUIET("the JIT finished no compilation for " + JIT_QUIET_NS / 1_000_000L + " ms"),
        /** The JVM does not time its compilations, so the budget alone decides. */
        BUDGET("its budget passed (the JVM does not time its compilations)"),
        /** The cap, while rounds still got faster and the JIT still compiled. */
        CAP("its cap of " + JIT_WAIT_BUDGETS + " budgets, with rounds still getting faster and the JIT compiling");

        private final String reason;

        Ending(final String reason)
        {
            this.reason = reason;
        }

        /**
         * @return why, in words.
         */
        public String reason()
        {
            return reason;
        }
    }

    /**
     * Starts the clock.
     *
     * @param budgetMs the warm-up's budget, at least 1.
     */
    public WarmupClock(final long budgetMs)
    {
        this(budgetMs, jitCompilationMs());
    }

    /**
     * @param budgetMs         the warm-up's budget, at least 1.
     * @param compiledMsSource the JIT's total compilation time in ms so far, or {@code null} where it is not timed.
     */
    WarmupClock(final long budgetMs, final LongSupplier compiledMsSource)
    {
        this(budgetMs * 1_000_000L, JIT_WAIT_BUDGETS * budgetMs * 1_000_000L, compiledMsSource);
    }

    /**
     * Starts the clock for rounds that follow work done inside the warm-up's budget (the {@code .hlog} writer's
     * warm-up, the test's first trace, {@code SeriesRunner.prepareFirstTrace}): while that work ran on the warm-up's
     * thread, the compiler threads worked through their queue (the CLI's and the logs' methods), which is what the
     * budget waits out. So its time counts towards the budget, down to half of it (the least budget measured to keep
     * the figures, issue 20, session 9), and not towards the cap, which still gives the rounds
     * {@value #JIT_WAIT_BUDGETS} budgets.
     *
     * @param budgetMs   the warm-up's budget, at least 1.
     * @param preparedNs how long the work took.
     * @return the clock, started now.
     */
    static WarmupClock afterPreparation(final long budgetMs, final long preparedNs)
    {
        return afterPreparation(budgetMs, preparedNs, jitCompilationMs());
    }

    /**
     * {@link #afterPreparation(long, long)} with the JIT's compilation time read from {@code compiledMsSource}.
     *
     * @param budgetMs         the warm-up's budget, at least 1.
     * @param preparedNs       how long the work took.
     * @param compiledMsSource the JIT's total compilation time in ms so far, or {@code null} where it is not timed.
     * @return the clock, started now.
     */
    static WarmupClock afterPreparation(final long budgetMs, final long preparedNs, final LongSupplier compiledMsSource)
    {
        final long budgetNs = budgetMs * 1_000_000L;
        return new WarmupClock(Math.max(budgetNs - Math.max(0, preparedNs), budgetNs / 2),
            JIT_WAIT_BUDGETS * budgetNs, compiledMsSource);
    }

    private WarmupClock(final long budgetNs, final long capNs, final LongSupplier compiledMsSource)
    {
        this.compiledMsSource = compiledMsSource;
        startNs = System.nanoTime();
        deadlineNs = startNs + budgetNs;
        this.capNs = startNs + capNs;
        compiledMs = compiledMsSource != null ? compiledMsSource.getAsLong() : 0;
        lastCompiledNs = startNs;
        Arrays.fill(gainRoundNs, Long.MAX_VALUE);
    }

    /**
     * After each round whose time is the code's: its kind and its time.
     *
     * @param kind    0 to {@value #MAX_KINDS} - 1; the same kind is the same work.
     * @param roundNs how long the round took.
     * @return whether to run another round.
     */
    public boolean another(final int kind, final long roundNs)
    {
        if (kind < 0 || kind >= MAX_KINDS)
        {
            throw new IllegalArgumentException("round kind " + kind + " outside 0.." + (MAX_KINDS - 1));
        }
        final long nowNs = System.nanoTime();
        // roundNs * 100 < gain * (100 - GAIN_PERCENT), divided first so that no factor overflows.
        if (gainRoundNs[kind] == Long.MAX_VALUE || roundNs < gainRoundNs[kind] / 100 * (100 - GAIN_PERCENT))
        {
            gainRoundNs[kind] = roundNs;
            gainAtNs[kind] = nowNs;
            roundsSinceGain[kind] = 0;
        }
        else
        {
            roundsSinceGain[kind]++;
        }
        return another(nowNs);
    }

    /**
     * After each round whose time says nothing of the code (the schedule set it).
     *
     * @return whether to run another round.
     */
    public boolean another()
    {
        return another(System.nanoTime());
    }

    private boolean another(final long nowNs)
    {
        final boolean jitTimed = compiledMsSource != null;
        if (jitTimed)
        {
            final long totalMs = compiledMsSource.getAsLong();
            if (totalMs != compiledMs)
            {
                compiledMs = totalMs;
                lastCompiledNs = nowNs;
            }
        }
        if (nowNs - deadlineNs < 0)
        {
            return true;
        }
        if (!jitTimed)
        {
            ending = Ending.BUDGET;
        }
        else if (settled(nowNs))
        {
            ending = Ending.SETTLED;
        }
        else if (nowNs - lastCompiledNs >= JIT_QUIET_NS)
        {
            ending = Ending.JIT_QUIET;
        }
        else if (nowNs - capNs >= 0)
        {
            ending = Ending.CAP;
        }
        return ending == null;
    }

    private boolean settled(final long nowNs)
    {
        boolean any = false;
        for (int kind = 0; kind < MAX_KINDS; kind++)
        {
            if (gainRoundNs[kind] == Long.MAX_VALUE)
            {
                continue;
            }
            if (nowNs - gainAtNs[kind] < SETTLED_NS || roundsSinceGain[kind] < SETTLED_ROUNDS)
            {
                return false;
            }
            any = true;
        }
        return any;
    }

    private static LongSupplier jitCompilationMs()
    {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
    }

    /**
     * @return why the warm-up ended, or {@code null} while it runs.
     */
    public Ending ending()
    {
        return ending;
    }

    /**
     * @return nanoseconds since the clock started.
     */
    public long elapsedNs()
    {
        return System.nanoTime() - startNs;
    }
}
