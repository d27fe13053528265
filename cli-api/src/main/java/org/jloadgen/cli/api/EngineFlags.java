package org.jloadgen.cli.api;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.JitThreadPolicy;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.memory.NativeOffHeapAllocator;

import picocli.CommandLine.Option;

/**
 * JLoadGen's engine options on the command line (waits, timeouts, recording, issue lateness, flight recording,
 * placement, the JIT warm-up and SyLT's start-up and warm-up periods), shared by the commands that run tests.
 */
public final class EngineFlags
{
    @Option(names = "--server-wait", paramLabel = "STRATEGY", defaultValue = "AUTO",
        description = "How the Server issue thread waits for scheduled times: ${COMPLETION-CANDIDATES} "
            + "(default: ${DEFAULT-VALUE}: SPIN where a CPU is free for it - the process's CPUs minus one for "
            + "everything else minus the SUT's worker threads; on the one CPU left for everything else, HYBRID "
            + "spinning the last quarter of the mean gap where that is 20 us or more (12.5k QPS and below); else "
            + "SLEEP, as LoadGen does; the detail log says which ran and why).")
    ServerWaitStrategy serverWait;

    @Option(names = "--hybrid-spin-ns", paramLabel = "NS", defaultValue = "100000",
        description = "Spin window before a deadline for --server-wait HYBRID, which parks until then with a 1 ns "
            + "timer slack; the window widens to twice the longest recent wake-up delay, up to 4 times this "
            + "(default: ${DEFAULT-VALUE}).")
    long hybridSpinNs;

    @Option(names = "--completion-wait", paramLabel = "STRATEGY", defaultValue = "AUTO",
        description = "How the issue thread waits for completions: ${COMPLETION-CANDIDATES} (default: "
            + "${DEFAULT-VALUE}: SPIN where a CPU is free for it, else PARK: spin --park-spin-ns, then park until the "
            + "completing thread wakes it).")
    CompletionWaitStrategy completionWait;

    @Option(names = "--park-spin-ns", paramLabel = "NS", defaultValue = "20000",
        description = "Spin window before the issue thread parks for a completion with --completion-wait PARK "
            + "(default: ${DEFAULT-VALUE}).")
    long parkSpinNs;

    @Option(names = "--jit-threads", paramLabel = "POLICY", defaultValue = "AUTO",
        description = "The JVM's JIT compiler threads while a measured series runs: ${COMPLETION-CANDIDATES} "
            + "(default: ${DEFAULT-VALUE}: IDLE - SCHED_IDLE, so that a compilation never holds a CPU a measured "
            + "thread wakes on - for Server, SingleStream and MultiStream where the process may put them back "
            + "after the series, else NORMAL; under --engine official for Server only; the detail log "
            + "says which and why).")
    public JitThreadPolicy jitThreads;

    @Option(names = "--completion-timeout-ms", paramLabel = "MS", defaultValue = "60000",
        description = "End the run INVALID when no sample completes for this long (default: ${DEFAULT-VALUE}).")
    public long completionTimeoutMs;

    @Option(names = "--abort-grace-ms", paramLabel = "MS", defaultValue = "1000",
        description = "After Ctrl-C, a SUT failure or the completion timeout: how long the samples the SUT still has "
            + "in flight are waited for, once it has dropped its queue (default: ${DEFAULT-VALUE}).")
    long abortGraceMs;

    @Option(names = "--no-latency-histogram",
        description = "Do not record HdrHistogram interval histograms (mlperf_log_latency.hlog).")
    boolean noLatencyHistogram;

    @Option(names = "--no-issue-lateness",
        description = "Server: do not record each query's issue lateness (scheduled time to the SUT call; "
            + "mlperf_log_issue_lateness.hlog).")
    boolean noIssueLateness;

    @Option(names = "--jfr",
        description = "Record the test with Java Flight Recorder (GC pauses, safepoints, parks of the issue thread) "
            + "into mlperf_log_jfr.jfr beside the logs; jloadgen report lays the pauses over the latency chart.")
    boolean jfr;

    @Option(names = "--latency-interval-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Interval of the HdrHistogram latency and issue lateness logs (default: ${DEFAULT-VALUE}).")
    long latencyIntervalMs;

    @Option(names = "--issue-cpu", paramLabel = "CPU", defaultValue = "-1",
        description = "Pin the issue thread to this CPU (default: not pinned).")
    int issueCpu;

    @Option(names = "--pin-memory",
        description = "mlock the trace and completion buffers (a refusal, e.g. over RLIMIT_MEMLOCK, is a warning).")
    boolean pinMemory;

    @Option(names = "--huge-pages", description = "Advise huge pages for the trace and completion buffers.")
    boolean hugePages;

    @Option(names = "--generate-ahead",
        description = "Generate every trace before the clock starts, as LoadGen does. By default a SingleStream or "
            + "MultiStream trace of 32M queries or more (a fast SUT: LoadGen generates twice min_duration's worth) "
            + "is generated while its series runs, on a SCHED_IDLE thread, which takes seconds off the process and "
            + "costs the null SUT's p90 a few ns.")
    boolean generateAhead;

    @Option(names = "--numa-node", paramLabel = "NODE", defaultValue = "-1",
        description = "Place the trace and completion buffers on this NUMA node (default: the kernel's choice).")
    int numaNode;

    @Option(names = "--jit-warmup-ms", paramLabel = "MS", defaultValue = "300",
        description = "Run the engine's own code against an internal null SUT for this long before the first "
            + "series, so JIT compilation happens before the clock starts; the SUT is not called (default: "
            + "${DEFAULT-VALUE}; 0 = none). Not SyLT's warm-up: see --warmup-ms.")
    public long jitWarmupMs;

    @Option(names = "--startup-ms", paramLabel = "MS", defaultValue = "0",
        description = "SyLT's start-up time: the SUT, loaded, idles this long before the first query "
            + "(default: ${DEFAULT-VALUE}).")
    long startupMs;

    @Option(names = "--warmup-ms", paramLabel = "MS", defaultValue = "0",
        description = "SyLT's warm-up time (Server): queries arrive at the target rate for this long before the "
            + "measured queries, and their latencies are left out of the results (default: ${DEFAULT-VALUE}).")
    long warmupMs;

    /**
     * @return the engine options these flags give.
     * @throws IllegalArgumentException naming the option of a value out of range.
     */
    public EngineOptions engineOptions()
    {
        OptionChecks.atLeast("--hybrid-spin-ns", hybridSpinNs, 0);
        OptionChecks.atLeast("--park-spin-ns", parkSpinNs, 0);
        OptionChecks.atLeast("--completion-timeout-ms", completionTimeoutMs, 1);
        OptionChecks.atLeast("--abort-grace-ms", abortGraceMs, 0);
        OptionChecks.atLeast("--latency-interval-ms", latencyIntervalMs, 1);
        OptionChecks.atLeast("--issue-cpu", issueCpu, -1);
        OptionChecks.atLeast("--numa-node", numaNode, -1);
        OptionChecks.atLeast("--jit-warmup-ms", jitWarmupMs, 0);
        OptionChecks.atLeast("--startup-ms", startupMs, 0);
        OptionChecks.atLeast("--warmup-ms", warmupMs, 0);
        final EngineOptions engine = new EngineOptions().serverWait(serverWait).hybridSpinNs(hybridSpinNs)
            .completionWait(completionWait).parkSpinNs(parkSpinNs).jitThreads(jitThreads).generateAhead(generateAhead)
            .completionTimeoutMs(completionTimeoutMs)
            .abortGraceMs(abortGraceMs)
            .latencyHistogram(!noLatencyHistogram).histogramIntervalMs(latencyIntervalMs)
            .issueLateness(!noIssueLateness).jfr(jfr)
            .issueCpu(issueCpu).jitWarmupMs(jitWarmupMs).startupMs(startupMs).warmupMs(warmupMs);
        // Every page is touched before the clock starts, whatever the allocator: a page first written while the clock
        // ran once cost Offline 3.3M most of its figure (361M samples/s down to 46M here).
        if (pinMemory || hugePages || numaNode >= 0)
        {
            engine.allocator(new NativeOffHeapAllocator(
                MemoryOptions.DEFAULT.withPinned(pinMemory).withHugePages(hugePages).withNumaNode(numaNode)));
        }
        return engine;
    }
}
