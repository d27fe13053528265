package org.jloadgen.api;

/**
 * The query sample library, as LoadGen's {@code mlperf::QuerySampleLibrary} (spec §1.3;
 * loadgen/query_sample_library.h).
 * <p>
 * The engine calls {@link #loadSamplesToRam} with a whole loadable set before a series is issued and
 * {@link #unloadSamplesFromRam} with the same indices after it completes; neither call is timed. In MultiStream
 * the set is padded with its own first {@code samples_per_query - 1} entries, so an index can repeat.
 */
public interface QuerySampleLibrary
{
    /**
     * @return a name; logged as {@code qsl_name}.
     */
    String name();

    /**
     * @return the number of samples in the library; caps every loadable set.
     */
    long totalSampleCount();

    /**
     * @return how many samples fit in memory at once; the size of the performance set unless overridden.
     */
    long performanceSampleCount();

    /**
     * @param indices QSL indices in load order; issued samples refer to positions in this array.
     */
    void loadSamplesToRam(long[] indices);

    /**
     * @param indices the same indices as the matching {@link #loadSamplesToRam} call.
     */
    void unloadSamplesFromRam(long[] indices);
}
