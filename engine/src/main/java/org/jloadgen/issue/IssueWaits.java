package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;

/**
 * The waits the issue thread uses in a run, with {@code AUTO} resolved from the CPU budget and, for the Server wait,
 * the target rate, and why. The CPUs the SUT's registered threads leave decide: with two or more, the issue thread
 * busy-spins (for a Server query's scheduled time, and for a completion), one CPU staying free for everything else.
 * With one, which it shares with everything else, it parks for completions until the completing thread wakes it ({@link
 * CompletionWaitStrategy#PARK}) and waits for a Server query {@link ServerWaitStrategy#HYBRID}: parked until a quarter
 * of the mean gap between queries before each (at most {@code --hybrid-spin-ns}), then spinning, so that it holds that
 * CPU a quarter of the time at most; where that window would be shorter than {@value #MIN_AUTO_WINDOW_NS} ns, about
 * what waking a parked thread costs (above 12.5k QPS), it sleeps to each query as LoadGen does ({@link
 * ServerWaitStrategy#SLEEP}). With none it sleeps. A thread that only shares a CPU never spins on it for long: on 2
 * CPUs with a one-worker SUT, every waiting thread that kept a CPU (a spinning worker, an issue thread whose window
 * widened to the whole gap) left the kernel's and the JVM's threads one CPU to share with the issue thread, and the
 * p99.9 latency was 1.9-3.3 ms against LoadGen's 0.8-1.3 ms (benchmarks/README.md, "A worker SUT on two CPUs"); the
 * quarter-gap window beat sleeping at every percentile at 10k QPS (benchmarks/README.md, "Where the worker case's tail
 * came from"). The SUT toolkit's workers follow the same rule ({@code BatchingSut}). Explicit settings are kept.
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
     * AUTO's HYBRID window is never shorter than this: what waking a parked thread costs at p99 on the 2-CPU VM
     * (20-23 us, ftrace), so that the spin takes the wake-up out of the p99; at 25k QPS a 10 us window left p50 and p99
     * where sleeping had them.
     */
    public static final long MIN_AUTO_WINDOW_NS = 20_000;

    /**
     * @param options         the engine options (strategies, spin windows, CPU budget).
     * @param serverTargetQps the Server series' target rate (its mean gap sizes AUTO's HYBRID window); 0 where unknown
     *                        or not a Server series.
     * @return the waits, {@code AUTO} resolved.
     */
    public static IssueWaits resolve(final EngineOptions options, final double serverTargetQps)
    {
        final CpuBudget budget = options.cpuBudget();
        final int free = budget.freeCpus();
        final String auto = "auto: " + budget.describe() + ", " + (free >= 2
            ? "a CPU is free for a spinning issue thread and one for everything else"
            : free == 1 ? "the issue thread would share the one CPU left for everything else"
            : "no CPU is left for the issue thread");

        final long gapNs = serverTargetQps > 0 ? (long)(1e9 / serverTargetQps) : 0;
        final long quarterGapNs = Math.min(Math.max(0, options.hybridSpinNs()), gapNs / 4);
        final ServerWaitStrategy server;
        final long hybridMinNs;
        final long hybridMaxNs;
        final String serverDetail;
        if (options.serverWait() != ServerWaitStrategy.AUTO)
        {
            server = options.serverWait();
            hybridMinNs = Math.max(0, options.hybridSpinNs());
            hybridMaxNs = HybridWindow.maxWindowNs(options.hybridSpinNs());
            serverDetail = switch (server)
            {
                case HYBRID -> "; parks between queries, spins the last " + hybridMinNs / 1_000
                    + " us, widened up to " + hybridMaxNs / 1_000 + " us when wake-ups are late";
                case SLEEP -> "; sleeps to each query with a 1 ns timer slack, as LoadGen sleeps";
                default -> "";
            };
        }
        else if (free >= 2)
        {
            server = ServerWaitStrategy.SPIN;
            hybridMinNs = 0;
            hybridMaxNs = 0;
            serverDetail = "";
        }
        else if (free == 1 && quarterGapNs >= MIN_AUTO_WINDOW_NS)
        {
            server = ServerWaitStrategy.HYBRID;
            hybridMinNs = quarterGapNs;
            hybridMaxNs = quarterGapNs;
            serverDetail = "; parks with a 1 ns timer slack until " + quarterGapNs / 1_000 + " us before each query "
                + "and spins the rest: a quarter of the " + gapNs / 1_000 + " us mean gap at "
                + Math.round(serverTargetQps) + " QPS" + (quarterGapNs == options.hybridSpinNs()
                ? ", capped at --hybrid-spin-ns" : "") + ", so it holds that CPU a quarter of the time at most";
        }
        else
        {
            server = ServerWaitStrategy.SLEEP;
            hybridMinNs = 0;
            hybridMaxNs = 0;
            serverDetail = (free == 1 && gapNs > 0 ? "; a quarter of the " + gapNs / 1_000 + " us mean gap at "
                + Math.round(serverTargetQps) + " QPS is shorter than a wake-up (" + MIN_AUTO_WINDOW_NS / 1_000
                + " us)" : "") + "; sleeps to each query with a 1 ns timer slack, as LoadGen sleeps";
        }
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
