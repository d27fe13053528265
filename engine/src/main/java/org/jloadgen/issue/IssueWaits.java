package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;

/**
 * The waits the issue thread uses in a run, with {@code AUTO} resolved from the CPU budget, and why. The CPUs the
 * SUT's registered threads leave decide: with two or more, the issue thread busy-spins (for a Server query's
 * scheduled time, and for a completion), one CPU staying free for everything else; with fewer, it sleeps to each
 * query ({@link ServerWaitStrategy#SLEEP}, LoadGen's way) and parks for completions until the completing thread wakes
 * it ({@link CompletionWaitStrategy#PARK}). A thread that only shares a CPU does not spin on it at all: on 2 CPUs
 * with a one-worker SUT, every waiting thread that kept a CPU (a spinning worker, an issue thread spinning a window
 * before each query) left the kernel's millisecond-long threads ({@code kdamond}, {@code rcu_preempt}) one CPU to
 * share with the issue thread, and the p99.9 latency was 1.9-3.3 ms against LoadGen's 0.8-1.3 ms; with both threads
 * sleeping, as LoadGen's are, whichever CPU such a thread takes leaves the other to both (benchmarks/README.md, "A
 * worker SUT on two CPUs"). The SUT toolkit's workers follow the same rule ({@code BatchingSut}). Explicit settings are
 * kept.
 *
 * @param server           how the Server issue thread waits for scheduled times.
 * @param hybridMinNs      the HYBRID spin window it starts with (and never goes below).
 * @param hybridMaxNs      the widest the HYBRID spin window may widen to.
 * @param completion       how the issue thread waits for completions.
 * @param serverReason     why, for the detail log.
 * @param completionReason why, for the detail log.
 */
public record IssueWaits(ServerWaitStrategy server, long hybridMinNs, long hybridMaxNs,
    CompletionWaitStrategy completion, String serverReason, String completionReason)
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
            : free == 1 ? "the issue thread would share the one CPU left for everything else"
            : "no CPU is left for the issue thread");

        final ServerWaitStrategy server = options.serverWait() != ServerWaitStrategy.AUTO ? options.serverWait()
            : free >= 2 ? ServerWaitStrategy.SPIN : ServerWaitStrategy.SLEEP;
        final long hybridMinNs = Math.max(0, options.hybridSpinNs());
        final long hybridMaxNs = HybridWindow.maxWindowNs(options.hybridSpinNs());
        final String serverDetail = switch (server)
        {
            case HYBRID -> "; parks between queries, spins the last " + hybridMinNs / 1_000
                + " us, widened up to " + hybridMaxNs / 1_000 + " us when wake-ups are late";
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
        return new IssueWaits(server, hybridMinNs, hybridMaxNs, completion, serverReason, completionReason);
    }
}
