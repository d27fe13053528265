package org.jloadgen.api;

/**
 * An optional JLoadGen extension of a {@link SystemUnderTest} (LoadGen has no counterpart): the engine calls
 * {@link #dropQueuedSamples()} when it gives up on a test before its end (an interrupt or {@code abortTest}, a SUT
 * failure, the completion timeout), so the SUT stops spending time on samples whose results no longer count and the
 * run ends within a second or two instead of after the whole queue. Both engines call it: JLoadGen's own and the
 * official LoadGen through the bridge. A SUT that does not implement it is waited for a bounded time and then left
 * with its queue. The SUT toolkit's {@code BatchingSut} implements it, so every SUT built on the toolkit does.
 */
public interface AbortableSut extends SystemUnderTest
{
    /**
     * Drops the samples the SUT has queued and not yet started, and makes an {@link #issueQuery} that waits for
     * room in the queue return promptly, dropping the rest of its query. Samples already being processed may still
     * complete; dropped samples are never completed. Queries issued after this call returns are served as usual.
     * <p>
     * Called from any thread (a signal handler's, the issue thread, a SUT worker that failed), possibly while the
     * issue thread is inside {@link #issueQuery}; it must return promptly and must not throw.
     */
    void dropQueuedSamples();
}
