package org.jloadgen.sut.synthetic;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.WarmupSuts;
import org.jloadgen.concurrent.CpuBudget;

/**
 * The engine's warm-up SUTs from the toolkit: the inline {@link NullSut} and the one-worker {@link NullWorkerSut},
 * so that the warm-up compiles the bulk completion and the toolkit's hand-off before the clock starts.
 */
public final class BuiltinWarmupSuts implements WarmupSuts
{
    /**
     * The warm-up worker's ring: small, so that a warm-up round of 20,000 queries wraps it, and the producer's reload
     * of the consumer index (once per ring of samples) is compiled in. With the test's 64 Ki ring it was first taken
     * 1.3 s into a 50k-QPS run, a trap that sent the issue loop's hand-off back to the interpreter.
     */
    private static final int WORKER_QUEUE_CAPACITY = 4096;

    @Override
    public SystemUnderTest inlineSut()
    {
        return new NullSut();
    }

    @Override
    public int inlineChunk()
    {
        return NullSut.CHUNK;
    }

    @Override
    public SystemUnderTest workerSut(final CpuBudget privateBudget)
    {
        return NullWorkerSut.create(CompletionWaitStrategy.AUTO, privateBudget, WORKER_QUEUE_CAPACITY);
    }
}
