package org.jloadgen.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseSink;
import org.junit.jupiter.api.Test;

class ResponseSinkDefaultsTest
{
    @Test
    void shouldHandBatchFirstTokensToTheSingleFormAndIgnoreTheCallback()
    {
        final List<String> calls = new ArrayList<>();
        final ResponseSink sink = new ResponseSink()
        {
            @Override
            public void complete(final long responseId)
            {
                calls.add("one " + responseId);
            }

            @Override
            public void complete(final long responseId, final long dataAddress, final long dataBytes,
                final long tokenCount)
            {
                calls.add("native " + responseId);
            }

            @Override
            public void complete(final long responseId, final byte[] data, final int offset, final int length,
                final long tokenCount)
            {
                calls.add("heap " + responseId);
            }

            @Override
            public void complete(final QuerySampleResponses responses, final int count)
            {
                calls.add("batch " + count);
            }

            @Override
            public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
            {
                calls.add("first " + responseId + " " + dataBytes);
            }

            @Override
            public void fail(final Throwable cause)
            {
                calls.add("fail");
            }
        };
        final QuerySampleResponses responses = new QuerySampleResponses(4);
        responses.set(0, 7L, 0L, 3L, 0L);
        responses.set(1, 9L, 0L, 5L, 0L);
        responses.set(2, 11L);

        sink.firstToken(responses, 2);
        sink.complete(responses, 3, (r, i) -> calls.add("callback " + i));

        assertEquals(List.of("first 7 3", "first 9 5", "batch 3"), calls);
    }

    @Test
    void shouldIgnoreFirstTokensByDefault()
    {
        final QuerySampleResponses responses = new QuerySampleResponses(1);
        responses.set(0, 1L);
        final ResponseSink sink = new CompleteOnly();
        sink.firstToken(1L, 0L, 0L);
        sink.firstToken(responses, 1);
        assertEquals(0, ((CompleteOnly)sink).calls);
    }

    @Test
    void shouldLeaveNoDefaultInTheEnginesSinkBecauseEachCallTakesOneTimestamp()
    {
        for (final Method method : ResponseSink.class.getMethods())
        {
            assertDoesNotThrow(
                () -> EngineResponseSink.class.getDeclaredMethod(method.getName(), method.getParameterTypes()),
                "EngineResponseSink inherits " + method);
        }
    }

    /** Counts completions; first tokens and callbacks come from the defaults. */
    private static final class CompleteOnly implements ResponseSink
    {
        private int calls;

        @Override
        public void complete(final long responseId)
        {
            calls++;
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes,
            final long tokenCount)
        {
            calls++;
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            calls++;
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            calls++;
        }

        @Override
        public void fail(final Throwable cause)
        {
            calls++;
        }
    }
}
