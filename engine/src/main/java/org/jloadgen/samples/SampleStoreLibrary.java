package org.jloadgen.samples;

import org.jloadgen.api.QuerySampleLibrary;

/**
 * A {@link QuerySampleLibrary} over a {@link SampleStore}: LoadGen's load and unload calls go straight to the
 * store, so a SUT reads sample {@code samples.loadedPosition(i)} of a query from
 * {@link SampleStore#address(int)} (or a MultiStream/Offline batch from one {@link SampleStore#range(int, int)}).
 */
public final class SampleStoreLibrary implements QuerySampleLibrary, AutoCloseable
{
    private final String name;
    private final SampleStore store;
    private final long performanceSampleCount;

    /**
     * @param name                   logged as {@code qsl_name}.
     * @param store                  the store; closed with this library.
     * @param performanceSampleCount how many samples fit in memory at once, in {@code [1, total]}.
     */
    public SampleStoreLibrary(final String name, final SampleStore store, final long performanceSampleCount)
    {
        final long total = store.source().sampleCount();
        if (performanceSampleCount < 1 || performanceSampleCount > total)
        {
            throw new IllegalArgumentException("performance sample count " + performanceSampleCount +
                " must be in [1, " + total + "] for " + store.source().description());
        }
        this.name = name;
        this.store = store;
        this.performanceSampleCount = performanceSampleCount;
    }

    /**
     * @return the store the samples are loaded into.
     */
    public SampleStore store()
    {
        return store;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public long totalSampleCount()
    {
        return store.source().sampleCount();
    }

    @Override
    public long performanceSampleCount()
    {
        return performanceSampleCount;
    }

    @Override
    public void loadSamplesToRam(final long[] indices)
    {
        store.load(indices);
    }

    @Override
    public void unloadSamplesFromRam(final long[] indices)
    {
        store.unload(indices);
    }

    /**
     * Closes the store and its source.
     */
    @Override
    public void close()
    {
        store.close();
    }
}
