package org.jloadgen.spi;

import org.jloadgen.api.QuerySampleLibrary;

/**
 * A sample library with no data, for the null and synthetic SUTs: {@code --qsl-total} samples of which
 * {@code --qsl-performance} fit in memory. Loading and unloading only check the indices.
 */
public final class SyntheticQsl implements QuerySampleLibrary
{
    private final long total;
    private final long performance;
    private long loads;

    /**
     * @param total       total sample count.
     * @param performance performance sample count.
     */
    public SyntheticQsl(final long total, final long performance)
    {
        if (total <= 0 || performance <= 0)
        {
            throw new IllegalArgumentException("QSL counts must be positive: total " + total + ", performance "
                + performance);
        }
        this.total = total;
        this.performance = performance;
    }

    @Override
    public String name()
    {
        return "SyntheticQSL";
    }

    @Override
    public long totalSampleCount()
    {
        return total;
    }

    @Override
    public long performanceSampleCount()
    {
        return performance;
    }

    @Override
    public void loadSamplesToRam(final long[] indices)
    {
        for (final long i : indices)
        {
            if (i < 0 || i >= total)
            {
                throw new IllegalArgumentException("QSL index " + i + " outside [0, " + total + ")");
            }
        }
        loads++;
    }

    @Override
    public void unloadSamplesFromRam(final long[] indices)
    {
        loads--;
    }

    /**
     * @return loads minus unloads so far (0 after a complete test).
     */
    public long outstandingLoads()
    {
        return loads;
    }
}
