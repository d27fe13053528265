package org.jloadgen.sut;

import org.jloadgen.api.QuerySamples;

/**
 * A query of {@code count} samples with response ids {@code firstId..}, position = id and QSL index = id times a
 * factor, set before each call with {@link #of}, so that a test issuing many queries allocates nothing for them.
 */
final class ReusableQuery implements QuerySamples
{
    private final long sampleIndexFactor;
    private long firstId;
    private int count;

    /**
     * @param sampleIndexFactor a sample's QSL index is its id times this.
     */
    ReusableQuery(final long sampleIndexFactor)
    {
        this.sampleIndexFactor = sampleIndexFactor;
    }

    /**
     * @param first the first sample's response id.
     * @param n     samples.
     * @return this, now that query.
     */
    ReusableQuery of(final long first, final int n)
    {
        this.firstId = first;
        this.count = n;
        return this;
    }

    @Override
    public int size()
    {
        return count;
    }

    @Override
    public long responseId(final int i)
    {
        return firstId + i;
    }

    @Override
    public long sampleIndex(final int i)
    {
        return (firstId + i) * sampleIndexFactor;
    }

    @Override
    public int loadedPosition(final int i)
    {
        return (int)(firstId + i);
    }
}
