package org.jloadgen.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.TestScenario;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.junit.jupiter.api.Test;

class NullWorkerSutProviderTest
{
    /** Records which thread completed which id. */
    private static final class RecordingSink implements ResponseSink
    {
        final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> threads = new ConcurrentLinkedQueue<>();

        @Override
        public void complete(final long responseId)
        {
            ids.add(responseId);
            threads.add(Thread.currentThread().getName());
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes, final long tokens)
        {
            complete(responseId);
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            complete(responseId);
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            for (int i = 0; i < count; i++)
            {
                assertEquals(0, responses.dataBytes(i));
                complete(responses.responseId(i));
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
            throw new AssertionError(cause);
        }
    }

    private static QuerySamples one(final long responseId)
    {
        return new QuerySamples()
        {
            @Override
            public int size()
            {
                return 1;
            }

            @Override
            public long responseId(final int i)
            {
                return responseId;
            }

            @Override
            public long sampleIndex(final int i)
            {
                return 7;
            }

            @Override
            public int loadedPosition(final int i)
            {
                return 3;
            }
        };
    }

    @Test
    void shouldCompleteEverySampleOnItsWorkerThread() throws Exception
    {
        final RecordingSink sink = new RecordingSink();
        try (SutInstance instance = new NullWorkerSutProvider().create(
            new SutContext(TestScenario.SERVER, Map.of("wait", "backoff"), 64, 64)))
        {
            assertEquals("NullWorkerSUT", instance.sut().name());
            assertEquals(64, instance.qsl().totalSampleCount());
            for (long id = 1; id <= 1000; id++)
            {
                instance.sut().issueQuery(one(id), sink);
            }
            instance.sut().flushQueries();
            final long deadlineNs = System.nanoTime() + 10_000_000_000L;
            while (sink.ids.size() < 1000 && System.nanoTime() - deadlineNs < 0)
            {
                Thread.onSpinWait();
            }
        }
        assertEquals(1000, sink.ids.size());
        final AtomicLong expected = new AtomicLong(1);
        sink.ids.forEach(id -> assertEquals(expected.getAndIncrement(), id, "in issue order"));
        assertTrue(sink.threads.stream().allMatch(t -> t.equals("NullWorkerSUT-worker-0")), sink.threads.peek());
    }

    @Test
    void shouldRejectUnknownOptionsAndWaits()
    {
        final NullWorkerSutProvider provider = new NullWorkerSutProvider();
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> provider.create(new SutContext(TestScenario.SERVER, Map.of("workers", "2"), 64, 64)));
        assertTrue(unknown.getMessage().contains("workers"), unknown.getMessage());
        final IllegalArgumentException wait = assertThrows(IllegalArgumentException.class,
            () -> NullWorkerSutProvider.parseWait("forever"));
        assertTrue(wait.getMessage().contains("'forever'"), wait.getMessage());
        assertEquals(CompletionWaitStrategy.SPIN, NullWorkerSutProvider.parseWait(" Spin "));
    }
}
