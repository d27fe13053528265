package org.jloadgen.schedule;

import org.jloadgen.memory.GrowableOffHeapArray;

/**
 * The accuracy-log selection of an up-front generated trace, one bit per sample in generation order: LoadGen draws one
 * accuracy-log value per generated sample ({@link SequenceGen#nextAccuracyLogValue()}) and logs the sample when the
 * value, shifted by the series' offset, is at most the probability (spec §9.2).
 * <p>
 * A method of its own with one short loop per query, not a loop inside {@code QueryGenerator.generate}: an Offline
 * query's millions of draws are then compiled (on-stack replacement of this small loop) within its first hundred
 * thousand samples, where the whole of {@code generate} arrived from C2 only after the trace was done. An Offline
 * 3.3M-sample trace spent 54 ms of its 110 ms in these draws, run cold (benchmarks/README.md, issue 20, session 9).
 */
final class AccuracyLogBits
{
    private final GrowableOffHeapArray bits;
    private final double offset;
    private final double probability;
    private long word;
    private int count;
    private boolean any;

    /**
     * @param bits        where the bits go, 64 to a long; {@code null} for a series that logs every sample
     *                    (accuracy mode), whose values are skipped, not drawn.
     * @param offset      the series' accuracy-log offset.
     * @param probability the series' accuracy-log probability.
     */
    AccuracyLogBits(final GrowableOffHeapArray bits, final double offset, final double probability)
    {
        this.bits = bits;
        this.offset = offset;
        this.probability = probability;
    }

    /**
     * Draws the values of one query's samples, in order.
     *
     * @param sequence the test's sequence, whose generator draws them.
     * @param samples  the query's samples.
     */
    void append(final SequenceGen sequence, final long samples)
    {
        if (bits == null)
        {
            // Nothing reads them: the generator skips them before its next draw, if there is one.
            sequence.skipAccuracyLogValues(samples);
            return;
        }
        for (long i = 0; i < samples; i++)
        {
            final double value = sequence.nextAccuracyLogValue();
            final double shifted = value + offset < 1.0 ? value + offset : value + offset - 1.0;
            if (shifted <= probability)
            {
                word |= 1L << count;
                any = true;
            }
            if (++count == 64)
            {
                bits.addLong(word);
                word = 0;
                count = 0;
            }
        }
    }

    /**
     * Writes the last, partly filled, word.
     *
     * @return whether any sample is selected.
     */
    boolean finish()
    {
        if (bits != null && count > 0)
        {
            bits.addLong(word);
            word = 0;
            count = 0;
        }
        return any;
    }
}
