package org.jloadgen.api;

/**
 * The samples of one {@link SystemUnderTest#issueQuery} call: a reusable flyweight over the engine's trace,
 * valid only during the call (spec §1.1 {@code std::vector<QuerySample>}; loadgen/query_sample.h, QuerySample).
 * <p>
 * Each sample has an opaque non-zero response id to hand back on completion, its QSL index, and its position in
 * the loaded set (the order of the last {@link QuerySampleLibrary#loadSamplesToRam} call). Positions let a SUT
 * that keeps the loaded set contiguous in memory address a MultiStream or Offline query as one range.
 */
public interface QuerySamples
{
    /**
     * @return number of samples in this call.
     */
    int size();

    /**
     * @param i sample number in {@code [0, size())}.
     * @return the opaque response id to complete the sample with.
     */
    long responseId(int i);

    /**
     * @param i sample number in {@code [0, size())}.
     * @return the QSL index of the sample.
     */
    long sampleIndex(int i);

    /**
     * @param i sample number in {@code [0, size())}.
     * @return the sample's position in the loaded set.
     */
    int loadedPosition(int i);
}
