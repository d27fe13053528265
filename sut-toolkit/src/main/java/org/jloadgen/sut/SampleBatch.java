package org.jloadgen.sut;

/**
 * A batch of samples cut by the {@link DynamicBatcher}, owned by one worker and reused for every batch it
 * runs. Entry {@code i} has the response id to complete, the QSL index and the position in the loaded set.
 */
public final class SampleBatch
{
    private final long[] responseIds;
    private final long[] sampleIndices;
    private final int[] positions;
    private final long[] arrivalNs;
    private int size;
    private long takenNs;

    /**
     * @param capacity maximum batch size.
     */
    public SampleBatch(final int capacity)
    {
        responseIds = new long[capacity];
        sampleIndices = new long[capacity];
        positions = new int[capacity];
        arrivalNs = new long[capacity];
    }

    void clear()
    {
        size = 0;
    }

    void taken(final long nowNs)
    {
        takenNs = nowNs;
    }

    /**
     * @return when a worker took up the batch's first sample ({@code System.nanoTime()}), before it waited for the
     *         batch to fill: that sample's hand-off ended then.
     */
    public long takenNs()
    {
        return takenNs;
    }

    void add(final long responseId, final long sampleIndex, final int position, final long arrivedNs)
    {
        responseIds[size] = responseId;
        sampleIndices[size] = sampleIndex;
        positions[size] = position;
        arrivalNs[size] = arrivedNs;
        size++;
    }

    /**
     * @return number of samples in the batch.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return maximum batch size.
     */
    public int capacity()
    {
        return responseIds.length;
    }

    /**
     * @param i entry.
     * @return the response id to complete.
     */
    public long responseId(final int i)
    {
        return responseIds[i];
    }

    /**
     * @param i entry.
     * @return the QSL index.
     */
    public long sampleIndex(final int i)
    {
        return sampleIndices[i];
    }

    /**
     * @param i entry.
     * @return the position in the loaded set.
     */
    public int position(final int i)
    {
        return positions[i];
    }

    /**
     * @param i entry.
     * @return {@code System.nanoTime()} when the sample reached the batcher.
     */
    public long arrivalNs(final int i)
    {
        return arrivalNs[i];
    }

    /**
     * @return whether the batch's loaded-set positions are consecutive, so its data is one range of a
     *         contiguous sample slab starting at {@code position(0)}.
     */
    public boolean contiguous()
    {
        for (int i = 1; i < size; i++)
        {
            if (positions[i] != positions[0] + i)
            {
                return false;
            }
        }
        return true;
    }
}
