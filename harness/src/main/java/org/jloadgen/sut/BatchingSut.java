package org.jloadgen.sut;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntConsumer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;

/**
 * A system under test made of a {@link DynamicBatcher} and a pool of worker threads, each running batches
 * through its own {@link BatchProcessor}, which completes each batch (normally with one {@code complete}
 * call). The CPU and
 * synthetic SUTs are built on it; a new SUT only writes the processor.
 * <p>
 * If a processor throws, the SUT reports the failure through {@link ResponseSink#fail} and stops: the engine
 * ends the run with that error instead of waiting for samples that will never complete. When the engine gives up on
 * a test (an interrupt, a failure, the completion timeout) it drops the queued samples ({@link AbortableSut}).
 */
public final class BatchingSut implements AbortableSut, AutoCloseable
{
    /** Longest park of the issue thread while it waits for room in a full queue. */
    public static final long PRODUCER_MAX_PARK_NS = 1_000_000;

    private final String name;
    private final BatcherSettings settings;
    private final DynamicBatcher batcher;
    private final List<Thread> workers = new ArrayList<>();
    private final List<BatchProcessor> processors = new ArrayList<>();
    private final IdleStrategy producerIdle;
    private final IntConsumer cpuPinning;
    private final SutStatistics statistics;
    private final List<SutStatistics.Recorder> batchRecorders = new ArrayList<>();
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
        this(name, settings, new SutStatistics(name, settings.maxBatchSize(), List.of()), processors, cpuPinning);
    }

    /**
     * @param name       the SUT name ({@code sut_name}).
     * @param settings   batching and worker settings.
     * @param statistics where each worker counts the sizes of its batches (processors record their own stages
     *                   into it); its max batch size must be at least the settings'.
     * @param processors creates worker {@code i}'s processor (called on the constructing thread).
     * @param cpuPinning pins the calling worker thread to a CPU ({@link BatcherSettings#workerCpus()}); may be
     *                   {@code null} when no pinning is requested.
     */
    public BatchingSut(final String name, final BatcherSettings settings, final SutStatistics statistics,
        final IntFunction<BatchProcessor> processors, final IntConsumer cpuPinning)
    {
        if (statistics.maxBatchSize() < settings.maxBatchSize())
        {
            throw new IllegalArgumentException("statistics count batches up to " + statistics.maxBatchSize()
                + " samples but the batcher forms up to " + settings.maxBatchSize());
        }
        this.name = name;
        this.statistics = statistics;
        this.settings = settings;
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
        workers.forEach(Thread::start);
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
        final SampleBatch batch = new SampleBatch(settings.maxBatchSize());
        final QuerySampleResponses responses = new QuerySampleResponses(settings.maxBatchSize());
        final BatchProcessor processor = processors.get(worker);
        final SutStatistics.Recorder batchSizes = batchRecorders.get(worker);
        final IdleStrategy idle = settings.workerIdle().newIdleStrategy();
        final IdleStrategy fillIdle = new org.agrona.concurrent.BusySpinIdleStrategy();
        while (batcher.running())
        {
            if (!processor.readyForBatch())
            {
                idle.idle();
                continue;
            }
            final int n = batcher.nextBatch(batch, fillIdle);
            if (n == 0)
            {
                idle.idle();
                continue;
            }
            idle.reset();
            batchSizes.recordBatch(n);
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
