package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;

/**
 * The waits the issue thread uses in a run, with {@code AUTO} resolved from the CPU budget, and why. The CPUs the
 * SUT's registered threads leave decide: with two or more, the issue thread busy-spins (for a Server query's
 * scheduled time, and for a completion), one CPU staying free for everything else; with one, it shares that CPU:
 * it parks until shortly before each query ({@link ServerWaitStrategy#HYBRID}) and spins at most a quarter of the
 * mean time between queries, so that it leaves that CPU free three quarters of the time (a window as wide as the
 * gap between queries is a busy spin, which took the CPU from a spinning worker and made the p99 far worse than the
 * capped window's; the figures are in benchmarks/README.md, "Measurements behind the code"); with none (the SUT's
 * threads need every CPU, e.g. a compute-bound SUT with a worker per CPU), it sleeps to each query
 * ({@link ServerWaitStrategy#SLEEP}, LoadGen's way), since any spinning would take a CPU from inference. For
 * completions it parks until the completing thread wakes it ({@link CompletionWaitStrategy#PARK}) whenever it does
 * not spin. Explicit settings are kept.
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
    /** The share of the mean time between queries an issue thread that shares its CPU may spin. */
    static final int SHARED_SPIN_DIVISOR = 4;

    /**
     * The waits of a test that is not a Server test, or whose rate is unknown: no cap on the HYBRID window.
     *
     * @param options the engine options (strategies, spin windows, CPU budget).
     * @return the waits, {@code AUTO} resolved.
     */
    public static IssueWaits resolve(final EngineOptions options)
    {
        return resolve(options, 0);
    }

    /**
     * @param options         the engine options (strategies, spin windows, CPU budget).
     * @param serverTargetQps the Server test's target rate (0 or less: not a Server test, no cap).
     * @return the waits, {@code AUTO} resolved.
     */
    public static IssueWaits resolve(final EngineOptions options, final double serverTargetQps)
    {
        final CpuBudget budget = options.cpuBudget();
        final int free = budget.freeCpus();
        final String auto = "auto: " + budget.describe() + ", " + (free >= 2
            ? "a CPU is free for a spinning issue thread and one for everything else"
            : free == 1 ? "the issue thread shares the one CPU left for everything else"
            : "no CPU is left for the issue thread");

        final ServerWaitStrategy server = options.serverWait() != ServerWaitStrategy.AUTO ? options.serverWait()
            : free >= 2 ? ServerWaitStrategy.SPIN : free == 1 ? ServerWaitStrategy.HYBRID : ServerWaitStrategy.SLEEP;
        // Only AUTO's HYBRID shares a CPU by choice: an explicit window is the user's.
        final long capNs = options.serverWait() == ServerWaitStrategy.AUTO && serverTargetQps > 0
            ? (long) (1e9 / serverTargetQps / SHARED_SPIN_DIVISOR) : Long.MAX_VALUE;
        final long hybridMinNs = Math.min(Math.max(0, options.hybridSpinNs()), capNs);
        final long hybridMaxNs = Math.min(HybridWindow.maxWindowNs(options.hybridSpinNs()), capNs);
        final String serverDetail = switch (server)
        {
            case HYBRID -> "; parks between queries, spins the last " + hybridMinNs / 1_000
                + " us, widened up to " + hybridMaxNs / 1_000 + " us when wake-ups are late"
                + (capNs == Long.MAX_VALUE ? "" : " (at most a quarter of the " + (long) (1e6 / serverTargetQps)
                + " us between queries)");
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
