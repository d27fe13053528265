package org.jloadgen.issue;

import org.jloadgen.api.JitThreadPolicy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.NativeLibrary;
import org.jloadgen.concurrent.JitCompilerThreads;

/**
 * What a test does with the JVM's JIT compiler threads ({@link JitThreadPolicy}, {@code AUTO} resolved), and why, for
 * the detail log: like {@link IssueWaits}, a choice made once per test from the machine and the scenario.
 *
 * @param lowers whether each measured series lowers them to {@code SCHED_IDLE} ({@link JitCompilerThreads#lower()}).
 * @param reason why, e.g. {@code IDLE while each measured series runs (auto: Server is latency-bound; ...)}.
 */
public record JitThreads(boolean lowers, String reason)
{
    /**
     * @param policy   the engine option.
     * @param scenario the test's scenario.
     * @return what a test of JLoadGen's engine does.
     */
    public static JitThreads resolve(final JitThreadPolicy policy, final TestScenario scenario)
    {
        if (policy == JitThreadPolicy.NORMAL)
        {
            return new JitThreads(false, "NORMAL (set explicitly)");
        }
        final int found = JitCompilerThreads.find().size();
        if (!NativeLibrary.isAvailable() || found == 0)
        {
            return new JitThreads(false, "NORMAL (" + (policy == JitThreadPolicy.AUTO ? "auto: " : "")
                + (found == 0 ? "no compiler thread found under " + JitCompilerThreads.TASKS
                : "no native library: " + NativeLibrary.describe()) + ")");
        }
        final String threads = found + (found == 1 ? " compiler thread" : " compiler threads");
        final boolean restorable = JitCompilerThreads.canRaiseBack();
        final String back = restorable ? "SCHED_OTHER again after each series"
            : "they stay SCHED_IDLE after the first: this process may not raise a thread's policy again (no "
            + "CAP_SYS_NICE, RLIMIT_NICE below 20)";
        if (policy == JitThreadPolicy.IDLE)
        {
            return new JitThreads(true, "IDLE while each measured series runs (set explicitly; " + threads + "; "
                + back + ")");
        }
        if (scenario == TestScenario.OFFLINE)
        {
            return new JitThreads(false, "NORMAL (auto: Offline measures throughput, and its SUT keeps every CPU "
                + "busy: a compilation it still needs must not starve)");
        }
        if (!restorable)
        {
            return new JitThreads(false, "NORMAL (auto: this process could not put them back to SCHED_OTHER after "
                + "a series: no CAP_SYS_NICE, RLIMIT_NICE below 20)");
        }
        return new JitThreads(true, "IDLE while each measured series runs (auto: " + scenario
            + " is latency-bound; " + threads + "; " + back + ")");
    }

    /**
     * @param policy   the engine option.
     * @param scenario the test's scenario.
     * @return what a test under the official LoadGen ({@code --engine official}) does: {@code AUTO} lowers them for
     *         Server only, where LoadGen's issue thread sleeps between queries and leaves CPU time to compile in
     *         (bridge, 10k QPS, one worker: Java/C++ p99 0.93 lowered, 0.80 not). Under SingleStream and MultiStream
     *         LoadGen's issuing thread runs the Java path back to back while it is still being compiled, and a lowered
     *         compiler left it in C1 code that allocated on that thread (OfficialAllocationTest: 1224 bytes over the
     *         second half of 80,000 SingleStream queries).
     */
    public static JitThreads resolveUnderOfficialLoadGen(final JitThreadPolicy policy, final TestScenario scenario)
    {
        if (policy == JitThreadPolicy.AUTO && scenario != TestScenario.SERVER)
        {
            return new JitThreads(false, "NORMAL (auto: under the official LoadGen, " + scenario + "'s issuing thread "
                + "runs the Java path back to back while it is compiled, which must not wait for a CPU)");
        }
        final JitThreads chosen = resolve(policy, scenario);
        return chosen.lowers() ? new JitThreads(true, chosen.reason().replace("while each measured series runs",
            "while LoadGen's test runs").replace("after each series", "after it")) : chosen;
    }
}
