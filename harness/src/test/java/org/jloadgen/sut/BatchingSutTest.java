package org.jloadgen.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.junit.jupiter.api.Test;

class BatchingSutTest
{
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private static QuerySamples query(final long firstId, final int count)
    {
        return new QuerySamples()
        {
            @Override
            public int size()
            {
                return count;
            }

            @Override
            public long responseId(final int i)
            {
                return firstId + i;
            }

            @Override
            public long sampleIndex(final int i)
            {
                return firstId + i;
            }

            @Override
            public int loadedPosition(final int i)
            {
                return (int)(firstId + i);
            }
        };
    }

    @Test
    void shouldCompleteEverySampleExactlyOnceWithOneCallPerBatch()
    {
        final RecordingSink sink = new RecordingSink();
        final AtomicLong batches = new AtomicLong();
        final int total = 50_000;
        try (BatchingSut sut = new BatchingSut("test", new BatcherSettings(16, 20, 3, 1 << 12,
            CompletionWaitStrategy.YIELD, new int[0]), worker -> (batch, responses, s) ->
            {
                batches.incrementAndGet();
                for (int i = 0; i < batch.size(); i++)
                {
                    if (responses.responseId(i) != batch.responseId(i))
                    {
                        throw new IllegalStateException("response " + i + " not prefilled");
                    }
                }
                s.complete(responses, batch.size());
            }, null))
        {
            assertTimeoutPreemptively(LIMIT, () ->
            {
                long id = 1;
                while (id <= total)
                {
                    final int n = (int)Math.min(1 + id % 40, total - id + 1);
                    sut.issueQuery(query(id, n), sink);
                    id += n;
                }
                sut.flushQueries();
                while (sink.completed.get() < total)
                {
                    Thread.yield();
                }
            });
        }
        assertEquals(total, sink.completed.get());
        assertEquals(total, sink.ids.size());
        assertEquals(0, sink.duplicates.get());
        assertEquals(batches.get(), sink.calls.get(), "one completion call per batch");
        assertTrue(sink.maxBatch.get() <= 16);
    }

    @Test
    void shouldReportAProcessorFailureAndRefuseFurtherQueries()
    {
        final RecordingSink sink = new RecordingSink();
        try (BatchingSut sut = new BatchingSut("failing", BatcherSettings.of(4, 0, 2), worker -> (batch, responses,
            s) ->
        {
            throw new IllegalArgumentException("inference broke");
        }, null))
        {
            sut.issueQuery(query(1, 3), sink);
            assertTimeoutPreemptively(LIMIT, () ->
            {
                while (sink.failure.get() == null)
                {
                    Thread.yield();
                }
            });
            final Throwable failure = sink.failure.get();
            assertTrue(failure.getMessage().contains("SUT failing worker"), failure.getMessage());
            assertTrue(failure.getMessage().contains("inference broke"), failure.getMessage());
            assertTrue(failure.getCause() instanceof IllegalArgumentException);
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> sut.issueQuery(query(10, 1), sink));
            assertTrue(refused.getMessage().contains("stopped after a failure"), refused.getMessage());
        }
        assertEquals(0, sink.completed.get());
    }

    @Test
    void shouldPinEachWorkerRoundRobinAndCloseEveryProcessor()
    {
        final List<Integer> pinned = new CopyOnWriteArrayList<>();
        final AtomicInteger closed = new AtomicInteger();
        final BatchingSut sut = new BatchingSut("pinned", new BatcherSettings(1, 0, 3, 16,
            CompletionWaitStrategy.SLEEP, new int[] {5, 7}), worker -> new BatchProcessor()
            {
                @Override
                public void process(final SampleBatch batch, final QuerySampleResponses responses,
                    final ResponseSink sink)
                {
                    sink.complete(responses, batch.size());
                }

                @Override
                public void close()
                {
                    closed.incrementAndGet();
                }
            }, pinned::add);
        assertTimeoutPreemptively(LIMIT, () ->
        {
            while (pinned.size() < 3)
            {
                Thread.yield();
            }
        });
        sut.close();
        assertEquals(List.of(5, 5, 7), pinned.stream().sorted().toList());
        assertEquals(3, closed.get());
    }

    /** Counts completions per id and completion calls. */
    private static final class RecordingSink implements ResponseSink
    {
        private final ConcurrentHashMap<Long, Boolean> ids = new ConcurrentHashMap<>();
        private final AtomicLong completed = new AtomicLong();
        private final AtomicLong duplicates = new AtomicLong();
        private final AtomicLong calls = new AtomicLong();
        private final AtomicInteger maxBatch = new AtomicInteger();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private void one(final long id)
        {
            if (ids.putIfAbsent(id, Boolean.TRUE) != null)
            {
                duplicates.incrementAndGet();
            }
            completed.incrementAndGet();
        }

        @Override
        public void complete(final long responseId)
        {
            calls.incrementAndGet();
            one(responseId);
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes,
            final long tokenCount)
        {
            calls.incrementAndGet();
            one(responseId);
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            calls.incrementAndGet();
            one(responseId);
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            calls.incrementAndGet();
            maxBatch.accumulateAndGet(count, Math::max);
            for (int i = 0; i < count; i++)
            {
                one(responses.responseId(i));
            }
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
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
            assertNotNull(cause);
            failure.compareAndSet(null, cause);
        }
    }
}
