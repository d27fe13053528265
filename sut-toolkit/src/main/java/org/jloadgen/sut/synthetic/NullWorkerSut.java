package org.jloadgen.sut.synthetic;

import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.sut.BatcherSettings;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutStatistics;

/**
 * {@code --sut null-worker}: the null SUT with one worker thread completing, for the overhead budget's
 * cross-thread figure. It is the SUT toolkit's {@link BatchingSut} (the issue thread queues each sample, the
 * worker takes batches of one and completes them at once, no service time and no data), so it measures the
 * hand-off every real threaded SUT pays. Option: {@code wait} (how the idle worker waits: {@code auto}, {@code spin},
 * {@code park}, {@code yield}, {@code backoff} or {@code sleep}; default {@code auto}: it spins where a CPU is free
 * for it, see {@link BatchingSut}).
 */
public final class NullWorkerSut
{
    /** The SUT's name for {@code --sut}. */
    public static final String NAME = "null-worker";
    /** Its {@code sut_name}. */
    public static final String SUT_NAME = "NullWorkerSUT";
    /** Queue capacity: far above what is outstanding when completion keeps up. */
    private static final int QUEUE_CAPACITY = 1 << 16;

    private NullWorkerSut()
    {
    }

    /**
     * @param idle how the idle worker waits.
     * @return a started SUT; close it to stop its worker.
     */
    public static BatchingSut create(final CompletionWaitStrategy idle)
    {
        return create(idle, CpuBudget.process());
    }

    /**
     * @param idle   how the idle worker waits.
     * @param budget the CPU budget its worker is registered with (the engine warm-up uses a private one, so that its
     *               worker does not change the test's choices).
     * @return a started SUT; close it to stop its worker.
     */
    public static BatchingSut create(final CompletionWaitStrategy idle, final CpuBudget budget)
    {
        return create(idle, budget, QUEUE_CAPACITY);
    }

    /**
     * @param idle          how the idle worker waits.
     * @param budget        the CPU budget its worker is registered with.
     * @param queueCapacity its batcher's ring, a power of two.
     * @return a started SUT; close it to stop its worker.
     */
    static BatchingSut create(final CompletionWaitStrategy idle, final CpuBudget budget, final int queueCapacity)
    {
        return new BatchingSut(SUT_NAME, new BatcherSettings(1, 0, 1, queueCapacity, idle, new int[0]),
            new SutStatistics(SUT_NAME, 1, List.of(SutStatistics.HANDOFF_STAGE)),
            worker -> (batch, responses, sink) -> sink.complete(responses, batch.size()), null, budget);
    }
}
