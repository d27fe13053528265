package org.jloadgen.engine;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * When a warm-up may stop: once its budget has passed and the JIT has finished no compilation for
 * {@value #JIT_QUIET_NS} ns, but not later than {@value #JIT_WAIT_BUDGETS} budgets from the start (at start-up the
 * compiler threads are busy with the CLI's own code, and the optimised loops otherwise arrive during the measured
 * run). Where the JVM does not time its compilations, after the budget. Shared by the engine's warm-up and the
 * bridge's ({@code engine.official}).
 */
public final class WarmupClock
{
    /** Longest warm-up, in budgets, while compilations are still finishing. */
    public static final int JIT_WAIT_BUDGETS = 4;
    /** The JIT counts as done when no compilation finished for this long. */
    public static final long JIT_QUIET_NS = 100_000_000L;

    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final boolean jitTimed = jit != null && jit.isCompilationTimeMonitoringSupported();
    private final long deadlineNs;
    private final long capNs;
    private long compiledMs;
    private long lastCompiledNs;

    /**
     * Starts the clock.
     *
     * @param budgetMs the warm-up's budget, at least 1.
     */
    public WarmupClock(final long budgetMs)
    {
        final long startNs = System.nanoTime();
        deadlineNs = startNs + budgetMs * 1_000_000L;
        capNs = startNs + JIT_WAIT_BUDGETS * budgetMs * 1_000_000L;
        compiledMs = jitTimed ? jit.getTotalCompilationTime() : 0;
        lastCompiledNs = startNs;
    }

    /**
     * @return whether to run another round: called after each.
     */
    public boolean another()
    {
        final long nowNs = System.nanoTime();
        if (jitTimed && jit.getTotalCompilationTime() != compiledMs)
        {
            compiledMs = jit.getTotalCompilationTime();
            lastCompiledNs = nowNs;
        }
        return nowNs - deadlineNs < 0 || (jitTimed && nowNs - lastCompiledNs < JIT_QUIET_NS && nowNs - capNs < 0);
    }
}
