package org.jloadgen.sut;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseSink;

/**
 * The model-specific part of a batching SUT: runs one batch on a worker thread. Each worker gets its own
 * processor from {@link BatchingSut}'s factory, so per-worker state (buffers, sessions) needs no locks.
 */
public interface BatchProcessor extends AutoCloseable
{
    /**
     * Runs the batch and completes every sample of it, normally by filling {@code responses[0, batch.size())}
     * (entry {@code i}'s response id is already {@code batch.responseId(i)}) and calling
     * {@code sink.complete(responses, batch.size())} once. Token-streaming SUTs call {@code sink.firstToken}
     * first. Payload memory need only stay valid until the completion call returns. A processor that runs batches
     * asynchronously (a GPU pipeline) may instead hand the batch to a thread of its own that completes it later; it
     * must then copy the response ids, since {@code batch} and {@code responses} are reused for the next batch.
     *
     * @param batch     the samples.
     * @param responses this worker's reusable responses, ids prefilled.
     * @param sink      where to complete.
     * @throws Exception if inference fails; the SUT then stops and the run ends with the error.
     */
    void process(SampleBatch batch, QuerySampleResponses responses, ResponseSink sink) throws Exception;

    /**
     * Asked by the worker before it forms a batch: a processor with a bounded pipeline (free GPU streams) says no
     * while it is full, so the batch is formed only when it can start and takes every sample that arrived
     * meanwhile. Called on the worker thread; must not allocate.
     *
     * @return whether {@link #process} could start a batch now without waiting.
     */
    default boolean readyForBatch()
    {
        return true;
    }

    /**
     * Frees the processor's resources. Called once, on the thread that closes the SUT.
     */
    @Override
    default void close()
    {
    }
}
