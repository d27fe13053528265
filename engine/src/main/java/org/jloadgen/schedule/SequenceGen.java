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
    /** Outputs handed to a streamed trace's own copy of the generator, or skipped, discarded before the next draw. */
    private long skippedOutputs;

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
        skipHandedOut();
        return StdRandom.uniformReal01(accuracyLogRng);
    }

    /**
     * Skips the next {@code samples} accuracy-log values that nothing reads (a series that logs every sample): the
     * generator discards their outputs before its next draw, only if there is one.
     *
     * @param samples values skipped.
     */
    void skipAccuracyLogValues(final long samples)
    {
        skippedOutputs += 2 * samples;
    }

    /**
     * Hands the next {@code samples} accuracy-log values to a trace generated while its series runs: it gets a copy
     * of the generator in its current state, and this one skips those values (two outputs each: libstdc++'s
     * {@code generate_canonical<double, 53>} over a 32-bit engine) before its next draw, only if there is one.
     *
     * @param samples values handed out.
     * @return a generator that draws them.
     */
    Mt19937 handOutAccuracyLogValues(final long samples)
    {
        skipHandedOut();
        final Mt19937 copy = accuracyLogRng.copy();
        skippedOutputs = 2 * samples;
        return copy;
    }

    private void skipHandedOut()
    {
        if (skippedOutputs > 0)
        {
            accuracyLogRng.discard(skippedOutputs);
            skippedOutputs = 0;
        }
    }
}
