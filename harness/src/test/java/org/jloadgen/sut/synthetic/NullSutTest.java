package org.jloadgen.sut.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.junit.jupiter.api.Test;

class NullSutTest
{
    /** Counts calls and checks that ids arrive in order, each once. */
    private static final class OrderedSink implements ResponseSink
    {
        final List<Integer> batchSizes = new ArrayList<>();
        long nextId = 1;
        int singles;

        @Override
        public void complete(final long responseId)
        {
            assertEquals(nextId++, responseId);
            singles++;
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes, final long t)
        {
            throw new AssertionError("the null SUT sends no data");
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            throw new AssertionError("the null SUT sends no data");
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            for (int i = 0; i < count; i++)
            {
                assertEquals(nextId++, responses.responseId(i));
                assertEquals(0, responses.dataBytes(i));
            }
            batchSizes.add(count);
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback cb)
        {
            complete(responses, count);
        }

        @Override
        public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
        {
        }

        @Override
        public void firstToken(final QuerySampleResponses responses, final int count)
        {
        }

        @Override
        public void fail(final Throwable cause)
        {
            throw new AssertionError(cause);
        }
    }

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

    @Test
    void shouldCompleteALargeQueryInWholeChunksAndARemainder()
    {
        final OrderedSink sink = new OrderedSink();
        new NullSut().issueQuery(range(2 * NullSut.CHUNK + 5), sink);
        assertEquals(List.of(NullSut.CHUNK, NullSut.CHUNK, 5), sink.batchSizes);
        assertEquals(2 * NullSut.CHUNK + 6, sink.nextId);
    }

    @Test
    void shouldCompleteASingleSampleWithoutAResponseArray()
    {
        final OrderedSink sink = new OrderedSink();
        new NullSut().issueQuery(range(1), sink);
        assertEquals(1, sink.singles);
        assertTrue(sink.batchSizes.isEmpty());
        final OrderedSink eight = new OrderedSink();
        new NullSut().issueQuery(range(8), eight);
        assertEquals(List.of(8), eight.batchSizes);
    }

    @Test
    void shouldKeepItsChunkSmallEnoughForTheFirstLevelCache()
    {
        // 32-byte entries: one chunk of responses must stay within a 32 KiB L1 data cache.
        assertTrue(NullSut.CHUNK * QuerySampleResponses.ENTRY_BYTES <= 32 * 1024);
    }
}
