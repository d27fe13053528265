package org.jloadgen.api;

import java.util.ServiceLoader;

import org.jloadgen.concurrent.CpuBudget;

/**
 * The null SUTs the warm-up drives so that the completion paths real SUTs take (a bulk completion on the issuing
 * thread, a worker thread's hand-off) are compiled before the clock starts. A module above the engine contributes
 * them through {@link ServiceLoader} (the SUT toolkit's built-in null and null-worker SUTs), so the engine does not
 * depend on the toolkit; without one, the warm-up drives only its own sample-by-sample SUT.
 */
public interface WarmupSuts
{
    /**
     * @return a SUT that completes every query on the issuing thread, in chunks of {@link #inlineChunk()}.
     */
    SystemUnderTest inlineSut();

    /**
     * @return the number of samples the inline SUT completes per call: an Offline warm-up round issues two chunks
     *         and one sample more, so that every branch of its completion loop runs.
     */
    int inlineChunk();

    /**
     * @param privateBudget a CPU budget of the warm-up's own, so that the warm-up never takes a CPU from the test.
     * @return a SUT that completes from a worker thread; the warm-up closes it afterwards when it is
     *         {@link AutoCloseable}.
     */
    SystemUnderTest workerSut(CpuBudget privateBudget);

    /**
     * @return the installed provider, or {@code null} when no module on the class path contributes one.
     */
    static WarmupSuts installed()
    {
        return ServiceLoader.load(WarmupSuts.class, WarmupSuts.class.getClassLoader()).findFirst().orElse(null);
    }
}
