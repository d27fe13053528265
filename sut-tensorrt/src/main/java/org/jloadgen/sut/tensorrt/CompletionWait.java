package org.jloadgen.sut.tensorrt;

import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.CompletionWaitStrategy;

/**
 * How a GPU's completion thread waits for batches to finish: polling the batches' last events with an idle
 * strategy between polls, or sleeping in {@code cudaEventSynchronize} on the oldest batch (blocking-sync events:
 * the thread uses no CPU while it waits, and wakes a few microseconds later than a spinning one would notice).
 */
public enum CompletionWait
{
    /** Poll without pause. */
    SPIN,
    /** Poll, yielding the CPU between polls. */
    YIELD,
    /** Poll, spinning then yielding then parking up to 100 us. */
    BACKOFF,
    /** Poll, sleeping 50 us between polls. */
    SLEEP,
    /** Block in {@code cudaEventSynchronize}. */
    BLOCK;

    /**
     * @return the idle strategy between polls ({@link #BLOCK} polls once more after each wait).
     */
    public IdleStrategy newIdleStrategy()
    {
        return switch (this)
        {
            case SPIN -> CompletionWaitStrategy.SPIN.newIdleStrategy();
            case YIELD -> CompletionWaitStrategy.YIELD.newIdleStrategy();
            case BACKOFF, BLOCK -> CompletionWaitStrategy.BACKOFF.newIdleStrategy();
            case SLEEP -> CompletionWaitStrategy.SLEEP.newIdleStrategy();
        };
    }
}
