package org.jloadgen.sut.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.TestScenario;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.testing.RecordingSink;
import org.junit.jupiter.api.Test;

class NullWorkerSutTest
{
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
        try (SutInstance instance = new BuiltinSutProviders.NullWorker().create(
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
            while (sink.ids().size() < 1000 && System.nanoTime() - deadlineNs < 0)
            {
                Thread.onSpinWait();
            }
        }
        assertEquals(LongStream.rangeClosed(1, 1000).boxed().toList(), sink.ids(), "each once, in issue order");
        assertTrue(sink.threads().stream().allMatch(t -> t.equals("NullWorkerSUT-worker-0")), sink.threads().get(0));
        assertEquals(List.of(1), sink.batchSizes().stream().distinct().toList(), "batches of one");
        assertFalse(sink.sawData());
    }

    @Test
    void shouldRejectUnknownOptionsAndWaits()
    {
        final BuiltinSutProviders.NullWorker provider = new BuiltinSutProviders.NullWorker();
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> provider.create(new SutContext(TestScenario.SERVER, Map.of("workers", "2"), 64, 64)));
        assertTrue(unknown.getMessage().contains("workers"), unknown.getMessage());
        final IllegalArgumentException wait = assertThrows(IllegalArgumentException.class,
            () -> provider.create(new SutContext(TestScenario.SERVER, Map.of("wait", "forever"), 64, 64)));
        assertEquals("wait must be auto, spin, park, yield, backoff or sleep, got 'forever' (--sut-opt)",
            wait.getMessage());
        provider.create(new SutContext(TestScenario.SERVER, Map.of("wait", " Spin "), 64, 64)).close();
    }
}
