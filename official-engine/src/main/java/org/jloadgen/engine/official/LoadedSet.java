package org.jloadgen.engine.official;

import org.agrona.collections.Long2LongHashMap;

/**
 * The loaded set LoadGen last handed to the QSL, so an issued sample's position in it ({@code loadedPosition}) can be
 * found from its QSL index: LoadGen hands the SUT indices only. Each index maps to its first position, which is
 * the position of every sample outside MultiStream's padding (the set holds each index once apart from it).
 * Written by the test thread between series, read by issue threads during one.
 */
final class LoadedSet
{
    private static final long MISSING = -1;

    private final Long2LongHashMap positions = new Long2LongHashMap(MISSING);
    private volatile long[] indices = new long[0];

    /**
     * @param loaded the QSL indices in load order.
     */
    void load(final long[] loaded)
    {
        positions.clear();
        for (int i = 0; i < loaded.length; i++)
        {
            positions.putIfAbsent(loaded[i], i);
        }
        indices = loaded;
    }

    /**
     * @param index a QSL index of the loaded set.
     * @return its first position in the loaded set.
     * @throws IllegalStateException when the index is not loaded.
     */
    int position(final long index)
    {
        final long position = positions.get(index);
        if (position == MISSING)
        {
            throw new IllegalStateException("QSL index " + index + " is not in the loaded set (" + indices.length
                + " samples)");
        }
        return (int)position;
    }

    /**
     * @return the indices of the loaded set.
     */
    long[] indices()
    {
        return indices;
    }
}
