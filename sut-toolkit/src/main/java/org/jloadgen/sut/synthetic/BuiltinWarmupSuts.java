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
        return NullWorkerSut.create(CompletionWaitStrategy.AUTO, privateBudget);
    }
}
