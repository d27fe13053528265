package org.jloadgen.sut.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.LongStream;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.testing.RecordingSink;
import org.junit.jupiter.api.Test;

class NullSutTest
{
    private static QuerySamples range(final int size)
    {
        return new QuerySamples()
        {
            @Override
            public int size()
            {
                return size;
            }

            @Override
            public long responseId(final int i)
            {
                return i + 1;
            }

            @Override
            public long sampleIndex(final int i)
            {
                return i;
            }

            @Override
            public int loadedPosition(final int i)
            {
                return i;
            }
        };
    }

    private static List<Long> idsOneTo(final int n)
    {
        return LongStream.rangeClosed(1, n).boxed().toList();
    }

    @Test
    void shouldCompleteALargeQueryInWholeChunksAndARemainder()
    {
        final RecordingSink sink = new RecordingSink();
        new NullSut().issueQuery(range(2 * NullSut.CHUNK + 5), sink);
        assertEquals(List.of(NullSut.CHUNK, NullSut.CHUNK, 5), sink.batchSizes());
        assertEquals(idsOneTo(2 * NullSut.CHUNK + 5), sink.ids());
        assertFalse(sink.sawData());
    }

    @Test
    void shouldCompleteASingleSampleWithoutAResponseArray()
    {
        final RecordingSink sink = new RecordingSink();
        new NullSut().issueQuery(range(1), sink);
        assertEquals(1, sink.singles());
        assertTrue(sink.batchSizes().isEmpty());
        final RecordingSink eight = new RecordingSink();
        new NullSut().issueQuery(range(8), eight);
        assertEquals(List.of(8), eight.batchSizes());
        assertEquals(idsOneTo(8), eight.ids());
    }

    @Test
    void shouldKeepItsChunkSmallEnoughForTheFirstLevelCache()
    {
        // 32-byte entries: one chunk of responses must stay within a 32 KiB L1 data cache.
        assertTrue(NullSut.CHUNK * QuerySampleResponses.ENTRY_BYTES <= 32 * 1024);
    }
}
