package org.jloadgen.schedule;

import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * LoadGen's {@code SequenceGen}: query and sample sequence ids that start at 0 for a whole test and continue
 * across series, and the accuracy-log generator that draws one value per generated sample. That generator is
 * never seeded in LoadGen, so it always starts from {@code std::mt19937}'s default seed 5489 [LG quirk].
 */
public final class SequenceGen
{
    private final Mt19937 accuracyLogRng = new Mt19937();
    private long nextQueryId;
    private long nextSampleId;

    /**
     * @return the id of the next generated query.
     */
    public long nextQueryId()
    {
        return nextQueryId;
    }

    /**
     * @return the id of the next generated sample.
     */
    public long nextSampleId()
    {
        return nextSampleId;
    }

    /**
     * Consumes ids for a generated series.
     *
     * @param queries number of queries generated.
     * @param samples number of samples generated.
     */
    void advance(final long queries, final long samples)
    {
        nextQueryId += queries;
        nextSampleId += samples;
    }

    /**
     * @return the next per-sample accuracy-log value in {@code [0, 1)}.
     */
    double nextAccuracyLogValue()
    {
        return StdRandom.uniformReal01(accuracyLogRng);
    }
}
