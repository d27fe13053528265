package org.jloadgen.sut;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntConsumer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.concurrent.ParkingIdleStrategy;
import org.jloadgen.concurrent.TimerSlack;

/**
 * A system under test made of a {@link DynamicBatcher} and a pool of worker threads, each running batches
 * through its own {@link BatchProcessor}, which completes each batch (normally with one {@code complete}
 * call). The CPU and
 * synthetic SUTs are built on it; a new SUT only writes the processor.
 * <p>
 * If a processor throws, the SUT reports the failure through {@link ResponseSink#fail} and stops: the engine
 * ends the run with that error instead of waiting for samples that will never complete. When the engine gives up on
 * a test (an interrupt, a failure, the completion timeout) it drops the queued samples ({@link AbortableSut}).
 * <p>
 * How idle workers wait ({@link BatcherSettings#workerIdle()}): {@code AUTO} (the default of the built-in SUTs)
 * lets them spin only where each has a CPU of its own with one left for the issue thread and one for everything else
 * ({@link CpuBudget}; one for LoadGen's issue thread where the official engine reserved it);
 * then they spin, parking only after {@value #AUTO_SPIN_PARK_AFTER_MS} ms without work. Otherwise they
 * {@code PARK} as soon as they find no work, until the issue thread's next publish wakes one, which costs that thread
 * one memory read while no worker is parked (an explicit {@code PARK}, and {@code AUTO} under the official LoadGen,
 * spin {@value #PARK_SPIN_US} µs first). Such workers also park while a batch fills (until it is full, flushed or
 * timed out) instead of spinning. The workers are registered with the CPU budget while the SUT is open, so the
 * engine's issue thread does not spin on a CPU they need. The polling strategies ({@code SPIN}, {@code YIELD},
 * {@code BACKOFF}, {@code SLEEP}) are kept as given.
 */
public final class BatchingSut implements AbortableSut, AutoCloseable
{
    /** Longest park of the issue thread while it waits for room in a full queue. */
    public static final long PRODUCER_MAX_PARK_NS = 1_000_000;
    /** Spin window of a worker set to {@code PARK} after its last batch (about what a park and wake-up cost). */
    public static final long PARK_SPIN_US = 20;
    /** A worker that {@code AUTO} lets spin parks after this long without work (a SUT left idle between tests). */
    public static final long AUTO_SPIN_PARK_AFTER_MS = 100;
    /** Longest single park of an idle worker: how late it notices a stop at worst if a wake-up were missed. */
    private static final long WORKER_MAX_PARK_NS = 100_000_000L;

    private final String name;
    private final BatcherSettings settings;
    private final DynamicBatcher batcher;
    private final List<Thread> workers = new ArrayList<>();
    private final List<BatchProcessor> processors = new ArrayList<>();
    private final IdleStrategy producerIdle;
    private final IntConsumer cpuPinning;
    private final SutStatistics statistics;
    private final List<SutStatistics.Recorder> batchRecorders = new ArrayList<>();
    private final CompletionWaitStrategy workerWait;
    private final long workerSpinNs;
    private final boolean parkWhileFilling;
    private final String workerWaitReason;
    private final CpuBudget.Registration registration;
    private volatile ResponseSink sink;
    private volatile Throwable failure;

    /**
     * @param name       the SUT name ({@code sut_name}).
     * @param settings   batching and worker settings.
     * @param processors creates worker {@code i}'s processor (called on the constructing thread).
     * @param cpuPinning pins the calling worker thread to a CPU ({@link BatcherSettings#workerCpus()}); may be
     *                   {@code null} when no pinning is requested.
     */
    public BatchingSut(final String name, final BatcherSettings settings,
        final IntFunction<BatchProcessor> processors, final IntConsumer cpuPinning)
    {
        this(name, settings, new SutStatistics(name, settings.maxBatchSize(), List.of(SutStatistics.HANDOFF_STAGE)),
            processors, cpuPinning);
    }

    /**
     * @param name       the SUT name ({@code sut_name}).
     * @param settings   batching and worker settings.
     * @param statistics where each worker counts the sizes of its batches and, if the statistics name the stage
     *                   {@link SutStatistics#HANDOFF_STAGE}, the hand-off time of each batch (processors record their
     *                   own stages into it); its max batch size must be at least the settings'.
     * @param processors creates worker {@code i}'s processor (called on the constructing thread).
     * @param cpuPinning pins the calling worker thread to a CPU ({@link BatcherSettings#workerCpus()}); may be
     *                   {@code null} when no pinning is requested.
     */
    public BatchingSut(final String name, final BatcherSettings settings, final SutStatistics statistics,
        final IntFunction<BatchProcessor> processors, final IntConsumer cpuPinning)
    {
        this(name, settings, statistics, processors, cpuPinning, CpuBudget.process());
    }

    /**
     * @param name       the SUT name ({@code sut_name}).
     * @param settings   batching and worker settings.
     * @param statistics where each worker counts the sizes of its batches (processors record their own stages
     *                   into it); its max batch size must be at least the settings'.
     * @param processors creates worker {@code i}'s processor (called on the constructing thread).
     * @param cpuPinning pins the calling worker thread to a CPU ({@link BatcherSettings#workerCpus()}); may be
     *                   {@code null} when no pinning is requested.
     * @param budget     the CPUs an {@code AUTO} worker wait is chosen from; the workers are registered with it until
     *                   {@link #close()}.
     */
    public BatchingSut(final String name, final BatcherSettings settings, final SutStatistics statistics,
        final IntFunction<BatchProcessor> processors, final IntConsumer cpuPinning, final CpuBudget budget)
    {
        if (statistics.maxBatchSize() < settings.maxBatchSize())
        {
            throw new IllegalArgumentException("statistics count batches up to " + statistics.maxBatchSize()
                + " samples but the batcher forms up to " + settings.maxBatchSize());
        }
        this.name = name;
        this.statistics = statistics;
        this.settings = settings;
        final CompletionWaitStrategy asked = settings.workerIdle();
        // A worker spins only beside a CPU for the issue thread (LoadGen's, when one is reserved for it) and one for
        // everything else: on 2 CPUs, a spinning worker left the issue thread sharing the other CPU with the kernel's
        // millisecond-long threads, p99.9 1.9-3.3 ms against 0.8-1.3 ms with both parked (benchmarks/README.md).
        final boolean underOfficialLoadGen = budget.reservedThreads() > 0;
        final int issueThreads = underOfficialLoadGen ? 0 : 1;
        final boolean cpusFree = budget.canSpin(settings.workers() + issueThreads);
        this.workerWait = asked == CompletionWaitStrategy.AUTO ? CompletionWaitStrategy.PARK : asked;
        final boolean autoSpin = asked == CompletionWaitStrategy.AUTO && cpusFree;
        // AUTO's parking worker under JLoadGen's engine does not spin first: on 2 CPUs with one worker, the 20 us spin
        // after each batch left the hand-off 12-15 us at p50 against 4-5 us without, and Server p99.9 at 1.4-3.2 ms
        // against 0.8-1.4 ms at 50k QPS (5 alternated runs each; a third of the woken worker's runs waited over 10 us
        // for a CPU with the spin, an eighth without: perf sched). Under the official LoadGen, whose issue thread
        // sleeps with the default 50 us timer slack, the spin stays: without it the bridge's 10k-QPS worker p99 fell
        // to 0.54-0.77 of a C++ SUT's against 0.78-1.00 (benchmarks/README.md, issue 20, session 10).
        this.workerSpinNs = autoSpin ? AUTO_SPIN_PARK_AFTER_MS * 1_000_000L
            : asked == CompletionWaitStrategy.AUTO && !underOfficialLoadGen ? 0 : PARK_SPIN_US * 1_000L;
        this.parkWhileFilling = workerWait == CompletionWaitStrategy.PARK && !autoSpin;
        this.workerWaitReason = describeWait(asked, cpusFree, budget, settings.workers(), workerSpinNs);
        this.batcher = new DynamicBatcher(settings);
        // The issue thread waits here only when a whole ring of samples is queued (a large Offline query): a
        // coarse park then costs no latency and keeps it from waking up on the workers' cores thousands of times
        // a second.
        this.producerIdle = new BackoffIdleStrategy(10, 10, 1_000, PRODUCER_MAX_PARK_NS);
        this.cpuPinning = cpuPinning;
        for (int i = 0; i < settings.workers(); i++)
        {
            this.processors.add(processors.apply(i));
            this.batchRecorders.add(statistics.newRecorder());
        }
        for (int i = 0; i < settings.workers(); i++)
        {
            final int worker = i;
            final Thread t = new Thread(() -> runWorker(worker), name + "-worker-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        registration = budget.addSutThreads(settings.workers(), name + ": " + settings.workers()
            + (settings.workers() == 1 ? " worker, idle wait " : " workers, idle wait ") + workerWaitReason);
        workers.forEach(Thread::start);
    }

    private static String describeWait(final CompletionWaitStrategy asked, final boolean cpusFree,
        final CpuBudget budget, final int workers, final long spinNs)
    {
        if (asked != CompletionWaitStrategy.AUTO)
        {
            return asked + " (set explicitly)";
        }
        final String why = "auto: " + budget.describe() + " before this SUT's " + workers
            + (workers == 1 ? " worker: " : " workers: ") + (cpusFree ? "a CPU is free for each spinning worker"
            : "no CPU is free for each spinning worker") + " after one for the issue thread and one for everything "
            + "else";
        return (cpusFree ? "SPIN, parking after " + spinNs / 1_000_000 + " ms without work"
            : spinNs == 0 ? "PARK at once" : "PARK after a " + spinNs / 1_000 + " us spin") + " (" + why + ")";
    }

    /**
     * @return how the idle workers wait and why, e.g.
     *         {@code PARK at once (auto: 2 CPUs, 0 SUT threads before this SUT's 2 workers: ...)}.
     */
    public String workerWait()
    {
        return workerWaitReason;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        this.sink = sink;
        final Throwable failed = failure;
        if (failed != null)
        {
            throw new IllegalStateException("SUT " + name + " stopped after a failure: " + failed, failed);
        }
        batcher.offer(samples, producerIdle);
    }

    @Override
    public void flushQueries()
    {
        batcher.flush();
    }

    /**
     * Drops the queued samples: the workers finish the batches they run and find nothing more; an
     * {@link #issueQuery} waiting for room returns.
     */
    @Override
    public void dropQueuedSamples()
    {
        batcher.dropQueued();
    }

    /**
     * @return samples dropped by {@link #dropQueuedSamples()} so far.
     */
    public long droppedSamples()
    {
        return batcher.droppedSamples();
    }

    /**
     * @return the batch-size counts and stage times of this SUT.
     */
    public SutStatistics statistics()
    {
        return statistics;
    }

    /**
     * @return the ids of the worker threads (for tests that measure what they allocate).
     */
    long[] workerThreadIds()
    {
        return workers.stream().mapToLong(Thread::threadId).toArray();
    }

    /**
     * @return the batching settings.
     */
    public BatcherSettings settings()
    {
        return settings;
    }

    private void runWorker(final int worker)
    {
        final int[] cpus = settings.workerCpus();
        if (cpus.length > 0 && cpuPinning != null)
        {
            cpuPinning.accept(cpus[worker % cpus.length]);
        }
        final boolean parking = workerWait == CompletionWaitStrategy.PARK;
        if (parkWhileFilling)
        {
            // A parked leader waits for its batch timeout with a timed park: it should end where asked.
            TimerSlack.makePrecise();
        }
        final SampleBatch batch = new SampleBatch(settings.maxBatchSize());
        final QuerySampleResponses responses = new QuerySampleResponses(settings.maxBatchSize());
        final BatchProcessor processor = processors.get(worker);
        final SutStatistics.Recorder batchSizes = batchRecorders.get(worker);
        final int handoffStage = statistics.stageNames().indexOf(SutStatistics.HANDOFF_STAGE);
        final IdleStrategy idle = parking ? new ParkingIdleStrategy(batcher.idleWorkers(), worker, workerSpinNs,
            WORKER_MAX_PARK_NS, batcher::workAvailable) : workerWait.newIdleStrategy();
        // A processor that is not ready (its pipeline is full) gets ready on a thread of its own, which wakes nobody.
        final IdleStrategy notReadyIdle = parking ? CompletionWaitStrategy.BACKOFF.newIdleStrategy() : idle;
        final IdleStrategy fillIdle = parkWhileFilling ? null : new BusySpinIdleStrategy();
        while (batcher.running())
        {
            if (!processor.readyForBatch())
            {
                notReadyIdle.idle();
                continue;
            }
            notReadyIdle.reset();
            final int n = batcher.nextBatch(batch, fillIdle);
            if (n == 0)
            {
                idle.idle();
                continue;
            }
            idle.reset();
            batchSizes.recordBatch(n);
            if (handoffStage >= 0)
            {
                batchSizes.recordStageNs(handoffStage, batch.takenNs() - batch.arrivalNs(0));
            }
            for (int i = 0; i < n; i++)
            {
                responses.set(i, batch.responseId(i));
            }
            try
            {
                processor.process(batch, responses, sink);
            }
            catch (final Throwable t)
            {
                failure = t;
                batcher.stop();
                final ResponseSink s = sink;
                if (s != null)
                {
                    s.fail(new IllegalStateException("SUT " + name + " worker " + worker + " failed: " + t, t));
                }
                return;
            }
        }
    }

    /**
     * Stops the workers (after their current batch) and closes the processors.
     */
    @Override
    public void close()
    {
        registration.close();
        batcher.stop();
        for (final Thread t : workers)
        {
            try
            {
                t.join(10_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        for (final BatchProcessor p : processors)
        {
            p.close();
        }
    }
}
