package org.jloadgen.engine.official;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The sample view reads LoadGen's {@code QuerySample} array in place and finds each sample's position in the loaded
 * set from its QSL index (MultiStream: from the first sample's, as its samples are adjacent, padding included).
 */
class BridgeSamplesTest
{
    @Test
    void shouldReadIdsAndIndicesInPlaceAndFindPositions()
    {
        final LoadedSet loaded = new LoadedSet();
        loaded.load(new long[] {40, 10, 30, 20});
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment records = records(arena, new long[] {0x1000, 30, 0x1020, 40, 0x1040, 30});
            final BridgeSamples samples = new BridgeSamples(loaded, false).wrap(records.address(), 3);

            assertEquals(3, samples.size());
            assertEquals(0x1020L, samples.responseId(1));
            assertEquals(40L, samples.sampleIndex(1));
            assertEquals(2, samples.loadedPosition(0));
            assertEquals(0, samples.loadedPosition(1));
            assertEquals(2, samples.loadedPosition(2));
            assertThrows(IndexOutOfBoundsException.class, () -> samples.responseId(3));
            assertThrows(IndexOutOfBoundsException.class, () -> samples.sampleIndex(-1));
        }
    }

    @Test
    void shouldNumberAMultiStreamQueryFromItsFirstSampleThroughThePadding()
    {
        // A MultiStream loaded set of 4 padded with its first 2 (samples_per_query 3): 7, 8, 9, 6, 7, 8.
        final LoadedSet loaded = new LoadedSet();
        loaded.load(new long[] {7, 8, 9, 6, 7, 8});
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment records = records(arena, new long[] {0x2000, 6, 0x2020, 7, 0x2040, 8});
            final BridgeSamples samples = new BridgeSamples(loaded, true).wrap(records.address(), 3);

            assertEquals(3, samples.loadedPosition(0));
            assertEquals(4, samples.loadedPosition(1), "the padding's 7, not the first 7");
            assertEquals(5, samples.loadedPosition(2));
        }
    }

    @Test
    void shouldSayWhenAnIndexIsNotLoaded()
    {
        final LoadedSet loaded = new LoadedSet();
        loaded.load(new long[] {1, 2});
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment records = records(arena, new long[] {0x3000, 5});
            final BridgeSamples samples = new BridgeSamples(loaded, false).wrap(records.address(), 1);
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> samples.loadedPosition(0));
            assertEquals("QSL index 5 is not in the loaded set (2 samples)", ex.getMessage());
        }
    }

    private static MemorySegment records(final Arena arena, final long[] idsAndIndices)
    {
        final MemorySegment records = arena.allocate(8L * idsAndIndices.length, 8);
        MemorySegment.copy(idsAndIndices, 0, records, ValueLayout.JAVA_LONG, 0, idsAndIndices.length);
        return records;
    }
}
