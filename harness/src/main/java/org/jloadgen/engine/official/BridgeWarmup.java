package org.jloadgen.engine.official;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.QuerySampleResponses;

/**
 * Runs the bridge's own Java path (the sample view over a LoadGen-shaped array, the sink's completion methods and
 * their downcalls) before LoadGen starts, so class loading, downcall linking and JIT compilation happen before its
 * clock does, as JLoadGen's engine warms up its own code. The SUT is not called, and nothing reaches LoadGen: with no
 * test running the bridge drops every completion (its counters restart with the test).
 */
final class BridgeWarmup
{
    private static final int BATCH = 256;
    private static final long RECORD_BYTES = 16;

    private BridgeWarmup()
    {
    }

    /**
     * @param client   the client whose view and sink to run.
     * @param warmupMs for how long (0 = not at all).
     */
    static void run(final BridgeClient client, final long warmupMs)
    {
        if (warmupMs <= 0)
        {
            return;
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment records = arena.allocate(RECORD_BYTES * BATCH, 8);
            for (int i = 0; i < BATCH; i++)
            {
                // Ids of the shape LoadGen's have (aligned addresses), never handed out by a test.
                records.set(ValueLayout.JAVA_LONG, RECORD_BYTES * i, records.address() + RECORD_BYTES * i);
                records.set(ValueLayout.JAVA_LONG, RECORD_BYTES * i + 8, i);
            }
            final QuerySampleResponses responses = new QuerySampleResponses(BATCH, arena);
            final BridgeSamples samples = new BridgeSamples(new LoadedSet(), false);
            final BridgeResponseSink sink = client.sink();
            final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(warmupMs);
            while (System.nanoTime() - endNs < 0)
            {
                samples.wrap(records.address(), BATCH);
                for (int i = 0; i < BATCH; i++)
                {
                    responses.set(i, samples.responseId(i), 0L, 0L, samples.sampleIndex(i));
                }
                sink.complete(responses, BATCH);
                sink.complete(samples.responseId(0));
                sink.complete(samples.responseId(1), 0L, 0L, 0L);
                sink.firstToken(samples.responseId(2), 0L, 0L);
                sink.firstToken(responses, 1);
            }
        }
    }
}
