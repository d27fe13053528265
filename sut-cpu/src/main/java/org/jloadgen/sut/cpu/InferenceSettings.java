package org.jloadgen.sut.cpu;

import java.util.Arrays;
import java.util.Objects;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.sut.BatcherSettings;

/**
 * How the CPU SUT batches and runs: the {@link org.jloadgen.sut.DynamicBatcher} cut ({@code maxBatchSize} samples
 * or {@code batchTimeoutUs} after a batch's first sample), the worker threads, ONNX Runtime's intra-op threads and
 * spinning, and CPU pinning. {@link #defaults(TestScenario)} gives the measured defaults per scenario (see
 * {@code sut-cpu/README.md}, "Defaults").
 *
 * @param maxBatchSize   largest batch ({@code --sut-opt batch=}).
 * @param batchTimeoutUs longest wait for a batch to fill, 0 to cut what is queued ({@code timeout-us=}).
 * @param workers        inference worker threads, each running whole batches ({@code workers=}).
 * @param intraOpThreads ONNX Runtime threads per batch, the worker included ({@code intra-op-threads=}).
 * @param ortSpinning    whether ONNX Runtime's intra-op threads spin between batches ({@code ort-spinning=}).
 * @param workerIdle     how idle workers wait for samples ({@code idle=auto|spin|park|yield|backoff|sleep}).
 * @param workerCpus     CPUs to pin workers to, round-robin, or empty ({@code pin=0-1}).
 * @param queueCapacity  samples the batcher queues at once, a power of two ({@code queue=}); a larger Offline
 *                       query is queued as workers make room.
 */
public record InferenceSettings(
    int maxBatchSize,
    long batchTimeoutUs,
    int workers,
    int intraOpThreads,
    boolean ortSpinning,
    CompletionWaitStrategy workerIdle,
    int[] workerCpus,
    int queueCapacity)
{
    /**
     * Offline default batch: the least CPU per sample of the embedded model on the 2-core machine, two
     * single-threaded workers, against 64 and 256 (README "Defaults"; the figures are in
     * benchmarks/README.md, "Measurements behind the code").
     */
    public static final int OFFLINE_BATCH_DEFAULT = 128;
    /**
     * Server default batch: as efficient as Offline's, so bursts drain at full throughput (the highest VALID target
     * in the sweep); the timeout keeps low-load latency near half a millisecond.
     */
    public static final int SERVER_BATCH_DEFAULT = 128;
    /** Server default timeout in microseconds. */
    public static final long SERVER_TIMEOUT_US_DEFAULT = 500;
    /** MultiStream default batch: one query (8 samples by default, up to 64) is one batch. */
    public static final int MULTI_STREAM_BATCH_DEFAULT = 64;
    /** Default worker count for Offline and Server. */
    public static final int WORKERS_DEFAULT = 2;
    /**
     * Default queue: 65,536 samples, a fraction of a second of the embedded model's work, so that the issue
     * thread of a large Offline query waits in the queue with coarse parks rather than for completions with fine
     * ones, and the queue takes under 2 MB.
     */
    public static final int QUEUE_CAPACITY_DEFAULT = 1 << 16;

    /**
     * Validates the settings.
     */
    public InferenceSettings
    {
        if (maxBatchSize <= 0)
        {
            throw new IllegalArgumentException("batch must be positive: " + maxBatchSize);
        }
        if (batchTimeoutUs < 0)
        {
            throw new IllegalArgumentException("timeout-us must not be negative: " + batchTimeoutUs);
        }
        if (workers <= 0)
        {
            throw new IllegalArgumentException("workers must be positive: " + workers);
        }
        if (intraOpThreads <= 0)
        {
            throw new IllegalArgumentException("intra-op-threads must be positive: " + intraOpThreads);
        }
        if (workerIdle == null)
        {
            throw new IllegalArgumentException("idle strategy is required");
        }
        if (queueCapacity < maxBatchSize || Integer.bitCount(queueCapacity) != 1)
        {
            throw new IllegalArgumentException("queue must be a power of two of at least the batch size "
                + maxBatchSize + ": " + queueCapacity);
        }
        workerCpus = workerCpus == null ? new int[0] : workerCpus.clone();
    }

    /**
     * The defaults, measured on the 2-core development machine with the embedded model (README "Defaults"):
     * Offline batches of 128 on 2 single-threaded workers; Server batches of up to 128 cut after 500 us;
     * SingleStream one sample at a time, cut at once, on one worker; MultiStream one query per batch. Idle workers
     * wait {@code AUTO}: they spin where each has a CPU of its own with one left over, else park.
     *
     * @param scenario the scenario.
     * @return its defaults.
     */
    public static InferenceSettings defaults(final TestScenario scenario)
    {
        return switch (scenario)
        {
            case OFFLINE -> new InferenceSettings(OFFLINE_BATCH_DEFAULT, 0, WORKERS_DEFAULT, 1, false,
                CompletionWaitStrategy.AUTO, new int[0], QUEUE_CAPACITY_DEFAULT);
            case SERVER -> new InferenceSettings(SERVER_BATCH_DEFAULT, SERVER_TIMEOUT_US_DEFAULT, WORKERS_DEFAULT, 1,
                false, CompletionWaitStrategy.AUTO, new int[0], QUEUE_CAPACITY_DEFAULT);
            case SINGLE_STREAM -> new InferenceSettings(1, 0, 1, 1, false, CompletionWaitStrategy.AUTO, new int[0],
                QUEUE_CAPACITY_DEFAULT);
            case MULTI_STREAM -> new InferenceSettings(MULTI_STREAM_BATCH_DEFAULT, 0, 1, 1, false,
                CompletionWaitStrategy.AUTO, new int[0], QUEUE_CAPACITY_DEFAULT);
        };
    }

    /**
     * @return the CPUs to pin workers to, copied.
     */
    @Override
    public int[] workerCpus()
    {
        return workerCpus.clone();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final InferenceSettings that && maxBatchSize == that.maxBatchSize
            && batchTimeoutUs == that.batchTimeoutUs && workers == that.workers
            && intraOpThreads == that.intraOpThreads && ortSpinning == that.ortSpinning
            && workerIdle == that.workerIdle && Arrays.equals(workerCpus, that.workerCpus)
            && queueCapacity == that.queueCapacity;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(maxBatchSize, batchTimeoutUs, workers, intraOpThreads, ortSpinning, workerIdle,
            queueCapacity) * 31 + Arrays.hashCode(workerCpus);
    }

    @Override
    public String toString()
    {
        return "InferenceSettings{" + describe() + "}";
    }

    /**
     * @param batch a new maximum batch size.
     * @return these settings with it.
     */
    public InferenceSettings withMaxBatchSize(final int batch)
    {
        return new InferenceSettings(batch, batchTimeoutUs, workers, intraOpThreads, ortSpinning, workerIdle,
            workerCpus, queueCapacity);
    }

    /**
     * @return the batcher's settings.
     */
    public BatcherSettings batcherSettings()
    {
        return new BatcherSettings(maxBatchSize, batchTimeoutUs, workers, queueCapacity, workerIdle, workerCpus);
    }

    /**
     * @return e.g. {@code batch 256, timeout 0 us, 2 workers x 1 intra-op thread, idle BACKOFF, unpinned}.
     */
    public String describe()
    {
        final StringBuilder pins = new StringBuilder();
        for (final int cpu : workerCpus)
        {
            pins.append(pins.isEmpty() ? "" : ",").append(cpu);
        }
        return "batch " + maxBatchSize + ", timeout " + batchTimeoutUs + " us, " + workers + " worker"
            + (workers == 1 ? "" : "s") + " x " + intraOpThreads + " intra-op thread" + (intraOpThreads == 1 ? "" : "s")
            + (ortSpinning ? " (spinning)" : "") + ", idle " + workerIdle
            + (workerCpus.length == 0 ? ", unpinned" : ", pinned to CPUs " + pins);
    }
}
