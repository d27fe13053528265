package org.jloadgen.sut;

import org.jloadgen.api.CompletionWaitStrategy;

/**
 * Settings of a {@link DynamicBatcher}: batches are cut at {@code maxBatchSize} samples or
 * {@code batchTimeoutUs} after the batch's first sample arrived, whichever comes first, or at once after
 * {@code flushQueries}. A timeout of 0 cuts whatever is queued without waiting.
 *
 * @param maxBatchSize   largest batch.
 * @param batchTimeoutUs longest wait for a batch to fill, in microseconds.
 * @param workers        number of worker threads.
 * @param queueCapacity  samples that can be queued at once (Offline queries larger than this wait for room).
 * @param workerIdle     how idle workers wait for samples ({@code AUTO}: see {@link BatchingSut}).
 * @param workerCpus     CPUs to pin workers to, round-robin, or empty for no pinning.
 */
public record BatcherSettings(
    int maxBatchSize,
    long batchTimeoutUs,
    int workers,
    int queueCapacity,
    CompletionWaitStrategy workerIdle,
    int[] workerCpus)
{
    /** Default queue capacity. */
    public static final int QUEUE_CAPACITY_DEFAULT = 1 << 20;

    /**
     * Validates the settings.
     */
    public BatcherSettings
    {
        if (maxBatchSize <= 0)
        {
            throw new IllegalArgumentException("max batch size must be positive: " + maxBatchSize);
        }
        if (batchTimeoutUs < 0)
        {
            throw new IllegalArgumentException("batch timeout must not be negative: " + batchTimeoutUs + " us");
        }
        if (workers <= 0)
        {
            throw new IllegalArgumentException("worker count must be positive: " + workers);
        }
        if (queueCapacity < maxBatchSize || Integer.bitCount(queueCapacity) != 1)
        {
            throw new IllegalArgumentException(
                "queue capacity must be a power of two >= the max batch size: " + queueCapacity);
        }
        workerCpus = workerCpus == null ? new int[0] : workerCpus.clone();
    }

    /**
     * @param maxBatchSize   largest batch.
     * @param batchTimeoutUs longest wait for a batch to fill.
     * @param workers        worker threads.
     * @return settings with the default queue, {@code AUTO} idling (see {@link BatchingSut}) and no pinning.
     */
    public static BatcherSettings of(final int maxBatchSize, final long batchTimeoutUs, final int workers)
    {
        return new BatcherSettings(maxBatchSize, batchTimeoutUs, workers, QUEUE_CAPACITY_DEFAULT,
            CompletionWaitStrategy.AUTO, new int[0]);
    }
}
