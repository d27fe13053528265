package org.jloadgen.api;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.memory.NativeOffHeapAllocator;
import org.jloadgen.memory.OffHeapAllocator;

/**
 * JLoadGen's own knobs, beside LoadGen's {@link TestSettings}: how the issue thread waits, how long a silent
 * SUT is tolerated, where buffers come from, what is recorded beside the exact latencies, and SyLT's start-up and
 * warm-up periods. None of them changes the measured trace or the result arithmetic; at their defaults (0) the
 * start-up and warm-up periods leave a test exactly as LoadGen runs it.
 */
public final class EngineOptions
{
    /** Default time without any completion after which outstanding samples are declared lost. */
    public static final long COMPLETION_TIMEOUT_MS_DEFAULT = 60_000;
    /** Default spin window of {@link ServerWaitStrategy#HYBRID}. */
    public static final long HYBRID_SPIN_NS_DEFAULT = 100_000;
    /** Default time an aborted series waits for the samples the SUT still has in flight. */
    public static final long ABORT_GRACE_MS_DEFAULT = 1_000;
    /** Default spin window before the issue thread parks while waiting for completions ({@code PARK}). */
    public static final long PARK_SPIN_NS_DEFAULT = 20_000;

    private ServerWaitStrategy serverWait = ServerWaitStrategy.AUTO;
    private long hybridSpinNs = HYBRID_SPIN_NS_DEFAULT;
    private CompletionWaitStrategy completionWait = CompletionWaitStrategy.AUTO;
    private long parkSpinNs = PARK_SPIN_NS_DEFAULT;
    private JitThreadPolicy jitThreads = JitThreadPolicy.AUTO;
    private boolean generateAhead;
    private CpuBudget cpuBudget = CpuBudget.process();
    private long completionTimeoutMs = COMPLETION_TIMEOUT_MS_DEFAULT;
    private long abortGraceMs = ABORT_GRACE_MS_DEFAULT;
    private OffHeapAllocator allocator = NativeOffHeapAllocator.largeInParallel();
    private boolean latencyHistogram = true;
    private boolean issueLateness = true;
    private boolean jfr;
    private long histogramIntervalMs = 1_000;
    private int issueCpu = -1;
    private long jitWarmupMs = JIT_WARMUP_MS_DEFAULT;
    private long startupMs;
    private long warmupMs;
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private EpochNanoClock wallClock = new SystemEpochNanoClock();

    /** Default engine warm-up before the first series. */
    public static final long JIT_WARMUP_MS_DEFAULT = 300;

    /**
     * @return a copy.
     */
    public EngineOptions copy()
    {
        final EngineOptions c = new EngineOptions();
        c.serverWait = serverWait;
        c.hybridSpinNs = hybridSpinNs;
        c.completionWait = completionWait;
        c.parkSpinNs = parkSpinNs;
        c.jitThreads = jitThreads;
        c.generateAhead = generateAhead;
        c.cpuBudget = cpuBudget;
        c.completionTimeoutMs = completionTimeoutMs;
        c.abortGraceMs = abortGraceMs;
        c.allocator = allocator;
        c.latencyHistogram = latencyHistogram;
        c.issueLateness = issueLateness;
        c.jfr = jfr;
        c.histogramIntervalMs = histogramIntervalMs;
        c.issueCpu = issueCpu;
        c.jitWarmupMs = jitWarmupMs;
        c.startupMs = startupMs;
        c.warmupMs = warmupMs;
        c.clock = clock;
        c.wallClock = wallClock;
        return c;
    }

    /**
     * @return how the Server issue thread waits for scheduled times.
     */
    public ServerWaitStrategy serverWait()
    {
        return serverWait;
    }

    /**
     * @param value how the Server issue thread waits for scheduled times.
     * @return this.
     */
    public EngineOptions serverWait(final ServerWaitStrategy value)
    {
        this.serverWait = value;
        return this;
    }

    /**
     * @return spin window before a deadline for {@link ServerWaitStrategy#HYBRID}.
     */
    public long hybridSpinNs()
    {
        return hybridSpinNs;
    }

    /**
     * @param value spin window before a deadline for {@link ServerWaitStrategy#HYBRID}.
     * @return this.
     */
    public EngineOptions hybridSpinNs(final long value)
    {
        this.hybridSpinNs = value;
        return this;
    }

    /**
     * @return what the JIT compiler threads may take from the measured threads while a series runs.
     */
    public JitThreadPolicy jitThreads()
    {
        return jitThreads;
    }

    /**
     * @param value what the JIT compiler threads may take from the measured threads while a series runs.
     * @return this.
     */
    public EngineOptions jitThreads(final JitThreadPolicy value)
    {
        this.jitThreads = value;
        return this;
    }

    /**
     * @return whether every trace is generated before its series' clock starts, as LoadGen does, also a SingleStream
     *         or MultiStream trace long enough to be generated while its series runs by default.
     */
    public boolean generateAhead()
    {
        return generateAhead;
    }

    /**
     * @param value whether every trace is generated before its series' clock starts.
     * @return this.
     */
    public EngineOptions generateAhead(final boolean value)
    {
        this.generateAhead = value;
        return this;
    }

    /**
     * @return how the issue thread waits for completions.
     */
    public CompletionWaitStrategy completionWait()
    {
        return completionWait;
    }

    /**
     * @param value how the issue thread waits for completions.
     * @return this.
     */
    public EngineOptions completionWait(final CompletionWaitStrategy value)
    {
        this.completionWait = value;
        return this;
    }

    /**
     * @return how long the issue thread spins for a completion before it parks ({@link CompletionWaitStrategy#PARK}).
     */
    public long parkSpinNs()
    {
        return parkSpinNs;
    }

    /**
     * @param value how long the issue thread spins for a completion before it parks.
     * @return this.
     */
    public EngineOptions parkSpinNs(final long value)
    {
        this.parkSpinNs = value;
        return this;
    }

    /**
     * @return the CPUs the run may keep busy, which {@code AUTO} waits are chosen from (the process's by default).
     */
    public CpuBudget cpuBudget()
    {
        return cpuBudget;
    }

    /**
     * @param value the CPUs the run may keep busy.
     * @return this.
     */
    public EngineOptions cpuBudget(final CpuBudget value)
    {
        this.cpuBudget = value;
        return this;
    }

    /**
     * @return time without any completion after which the outstanding samples are declared lost and the run
     *         ends INVALID (LoadGen would wait forever).
     */
    public long completionTimeoutMs()
    {
        return completionTimeoutMs;
    }

    /**
     * @param value time without any completion after which outstanding samples are declared lost.
     * @return this.
     */
    public EngineOptions completionTimeoutMs(final long value)
    {
        this.completionTimeoutMs = value;
        return this;
    }

    /**
     * @return how long a series cut short (an abort, a SUT failure, the completion timeout) waits for the samples
     *         the SUT still has in flight once it was told to drop its queued work; the logs are written after it.
     */
    public long abortGraceMs()
    {
        return abortGraceMs;
    }

    /**
     * @param value how long a series cut short waits for the samples in flight (0 = not at all).
     * @return this.
     * @throws IllegalArgumentException for a negative value.
     */
    public EngineOptions abortGraceMs(final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("the abort grace period must not be negative, got " + value + " ms");
        }
        this.abortGraceMs = value;
        return this;
    }

    /**
     * @return where traces and completion slots are allocated.
     */
    public OffHeapAllocator allocator()
    {
        return allocator;
    }

    /**
     * @param value where traces and completion slots are allocated.
     * @return this.
     */
    public EngineOptions allocator(final OffHeapAllocator value)
    {
        this.allocator = value;
        return this;
    }

    /**
     * @return whether latencies are also recorded into an HdrHistogram recorder at completion time (interval
     *         histograms for jitter analysis, written as an {@code .hlog}).
     */
    public boolean latencyHistogram()
    {
        return latencyHistogram;
    }

    /**
     * @param value whether latencies are also recorded into an HdrHistogram recorder.
     * @return this.
     */
    public EngineOptions latencyHistogram(final boolean value)
    {
        this.latencyHistogram = value;
        return this;
    }

    /**
     * @return whether a Server run keeps, per query, when the SUT was called (one 8-byte off-heap slot per query,
     *         one store on the issue thread) and writes each query's issue lateness (scheduled time to the call)
     *         as interval histograms beside the logs after each performance series.
     */
    public boolean issueLateness()
    {
        return issueLateness;
    }

    /**
     * @param value whether Server issue lateness is recorded.
     * @return this.
     */
    public EngineOptions issueLateness(final boolean value)
    {
        this.issueLateness = value;
        return this;
    }

    /**
     * @return whether the test is recorded with Java Flight Recorder (GC pauses, safepoints, parks of the issue
     *         thread, the series) into a {@code .jfr} file beside the logs.
     */
    public boolean jfr()
    {
        return jfr;
    }

    /**
     * @param value whether the test is recorded with Java Flight Recorder.
     * @return this.
     */
    public EngineOptions jfr(final boolean value)
    {
        this.jfr = value;
        return this;
    }

    /**
     * @return interval of the HdrHistogram interval log.
     */
    public long histogramIntervalMs()
    {
        return histogramIntervalMs;
    }

    /**
     * @param value interval of the HdrHistogram interval log.
     * @return this.
     */
    public EngineOptions histogramIntervalMs(final long value)
    {
        this.histogramIntervalMs = value;
        return this;
    }

    /**
     * @return CPU to pin the issue thread to, or -1 to leave it unpinned.
     */
    public int issueCpu()
    {
        return issueCpu;
    }

    /**
     * @param value CPU to pin the issue thread to, or -1 to leave it unpinned.
     * @return this.
     */
    public EngineOptions issueCpu(final int value)
    {
        this.issueCpu = value;
        return this;
    }

    /**
     * @return how long the engine runs its own code against an internal null SUT before the first series, so
     *         class loading and JIT compilation happen before the clock starts (0 = no warm-up).
     */
    public long jitWarmupMs()
    {
        return jitWarmupMs;
    }

    /**
     * @param value warm-up time before the first series (0 = none).
     * @return this.
     */
    public EngineOptions jitWarmupMs(final long value)
    {
        this.jitWarmupMs = value;
        return this;
    }

    /**
     * @return SyLT's start-up time: how long the SUT, loaded with the test's first samples, stays idle before the
     *         test's first query (0 = none). Not part of any measured period.
     */
    public long startupMs()
    {
        return startupMs;
    }

    /**
     * @param value SyLT's start-up time (0 = none; not negative).
     * @return this.
     */
    public EngineOptions startupMs(final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("start-up time must not be negative: " + value + " ms");
        }
        this.startupMs = value;
        return this;
    }

    /**
     * @return SyLT's warm-up time: before the measured queries of each Server performance series, queries arrive
     *         at the target rate for this long and their latencies are excluded from the results (0 = none).
     */
    public long warmupMs()
    {
        return warmupMs;
    }

    /**
     * @param value SyLT's warm-up time (0 = none; not negative).
     * @return this.
     */
    public EngineOptions warmupMs(final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("warm-up time must not be negative: " + value + " ms");
        }
        this.warmupMs = value;
        return this;
    }

    /**
     * @return the clock of the run: issue times, completion times and log times ({@code System.nanoTime()} by
     *         default; tests substitute a scripted clock to make whole runs deterministic).
     */
    public NanoClock clock()
    {
        return clock;
    }

    /**
     * @param value the clock of the run.
     * @return this.
     */
    public EngineOptions clock(final NanoClock value)
    {
        this.clock = value;
        return this;
    }

    /**
     * @return the wall clock ({@code power_begin}/{@code power_end} and the check that it keeps pace with
     *         {@link #clock()}); the system's by default.
     */
    public EpochNanoClock wallClock()
    {
        return wallClock;
    }

    /**
     * @param value the wall clock of the run.
     * @return this.
     */
    public EngineOptions wallClock(final EpochNanoClock value)
    {
        this.wallClock = value;
        return this;
    }
}
