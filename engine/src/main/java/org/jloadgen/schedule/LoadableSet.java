package org.jloadgen.schedule;

/**
 * One loadable set (spec §5; loadgen/loadgen.cc, GenerateLoadableSets): the QSL indices loaded together, in load order,
 * and how many of them are real samples ({@code sampleDistributionEnd}); a MultiStream set is followed by padding that
 * repeats its own first {@code samples_per_query - 1} entries.
 *
 * @param indices               QSL indices in load order, padding included.
 * @param sampleDistributionEnd number of entries before the padding.
 */
public record LoadableSet(long[] indices, int sampleDistributionEnd)
{
    /**
     * @return number of entries, padding included.
     */
    public int size()
    {
        return indices.length;
    }
}
