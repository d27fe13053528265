package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;

/**
 * The waits the issue thread uses in a run, with {@code AUTO} resolved from the CPU budget, and why: the issue thread
 * busy-spins (for a Server query's scheduled time, or for a completion) only where a CPU is free for it after the
 * SUT's registered threads and one CPU for everything else; otherwise it parks until shortly before each deadline
 * ({@link ServerWaitStrategy#HYBRID}) and parks for completions until the completing thread wakes it
 * ({@link CompletionWaitStrategy#PARK}). Explicit settings are kept as given.
 *
 * @param server           how the Server issue thread waits for scheduled times.
 * @param completion       how the issue thread waits for completions.
 * @param serverReason     why, for the detail log.
 * @param completionReason why, for the detail log.
 */
public record IssueWaits(ServerWaitStrategy server, CompletionWaitStrategy completion, String serverReason,
    String completionReason)
{
    /**
     * @param options the engine options (strategies, spin windows, CPU budget).
     * @return the waits, {@code AUTO} resolved.
     */
    public static IssueWaits resolve(final EngineOptions options)
    {
        final CpuBudget budget = options.cpuBudget();
        final boolean cpuFree = budget.canSpin(1);
        final String auto = "auto: " + budget.describe() + ", " + (cpuFree ? "a CPU is free for a spinning issue thread"
            : "no CPU is free for a spinning issue thread") + " after one for everything else";

        final ServerWaitStrategy server = options.serverWait() != ServerWaitStrategy.AUTO ? options.serverWait()
            : cpuFree ? ServerWaitStrategy.SPIN : ServerWaitStrategy.HYBRID;
        final String serverWindow = server == ServerWaitStrategy.HYBRID
            ? "; spin window " + options.hybridSpinNs() / 1_000 + " us, widened to twice the longest recent wake-up "
                + "delay" : "";
        final String serverReason = server + " ("
            + (options.serverWait() == ServerWaitStrategy.AUTO ? auto : "set explicitly") + serverWindow + ")";

        final CompletionWaitStrategy completion = options.completionWait() != CompletionWaitStrategy.AUTO
            ? options.completionWait() : cpuFree ? CompletionWaitStrategy.SPIN : CompletionWaitStrategy.PARK;
        final String completionWindow = completion == CompletionWaitStrategy.PARK
            ? "; spins " + options.parkSpinNs() / 1_000 + " us, then parks until the completing thread wakes it" : "";
        final String completionReason = completion + " ("
            + (options.completionWait() == CompletionWaitStrategy.AUTO ? auto : "set explicitly") + completionWindow
            + ")";
        return new IssueWaits(server, completion, serverReason, completionReason);
    }
}
