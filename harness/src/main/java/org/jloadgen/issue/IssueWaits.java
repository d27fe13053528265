package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;

/**
 * The waits the issue thread uses in a run, with {@code AUTO} resolved from the CPU budget, and why. The CPUs the
 * SUT's registered threads leave decide: with two or more, the issue thread busy-spins (for a Server query's
 * scheduled time, and for a completion), one CPU staying free for everything else; with one, it shares that CPU:
 * it parks until shortly before each query ({@link ServerWaitStrategy#HYBRID}); with none (the SUT's threads need
 * every CPU, e.g. a compute-bound SUT with a worker per CPU), it sleeps to each query ({@link ServerWaitStrategy#SLEEP},
 * LoadGen's way), since any spinning would take a CPU from inference. For completions it parks until the completing
 * thread wakes it ({@link CompletionWaitStrategy#PARK}) whenever it does not spin. Explicit settings are kept.
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
        final int free = budget.freeCpus();
        final String auto = "auto: " + budget.describe() + ", " + (free >= 2
            ? "a CPU is free for a spinning issue thread and one for everything else"
            : free == 1 ? "the issue thread shares the one CPU left for everything else"
            : "no CPU is left for the issue thread");

        final ServerWaitStrategy server = options.serverWait() != ServerWaitStrategy.AUTO ? options.serverWait()
            : free >= 2 ? ServerWaitStrategy.SPIN : free == 1 ? ServerWaitStrategy.HYBRID : ServerWaitStrategy.SLEEP;
        final String serverDetail = switch (server)
        {
            case HYBRID -> "; parks between queries, spins the last " + options.hybridSpinNs() / 1_000
                + " us, widened up to " + HybridWindow.maxWindowNs(options.hybridSpinNs()) / 1_000
                + " us when wake-ups are late";
            case SLEEP -> "; sleeps to each query with a 1 ns timer slack, as LoadGen sleeps";
            default -> "";
        };
        final String serverReason = server + " ("
            + (options.serverWait() == ServerWaitStrategy.AUTO ? auto : "set explicitly") + serverDetail + ")";

        final CompletionWaitStrategy completion = options.completionWait() != CompletionWaitStrategy.AUTO
            ? options.completionWait() : free >= 2 ? CompletionWaitStrategy.SPIN : CompletionWaitStrategy.PARK;
        final String completionWindow = completion == CompletionWaitStrategy.PARK
            ? "; spins " + options.parkSpinNs() / 1_000 + " us, then parks until the completing thread wakes it" : "";
        final String completionReason = completion + " ("
            + (options.completionWait() == CompletionWaitStrategy.AUTO ? auto : "set explicitly") + completionWindow
            + ")";
        return new IssueWaits(server, completion, serverReason, completionReason);
    }
}
