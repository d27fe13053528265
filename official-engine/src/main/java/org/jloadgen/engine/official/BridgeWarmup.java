package org.jloadgen.engine.official;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.WarmupSuts;
import org.jloadgen.engine.WarmupClock;

/**
 * Runs the bridge's own Java path before LoadGen starts, as JLoadGen's engine warms up its own code
 * ({@code engine.Warmup}): an internal null SUT is handed LoadGen-shaped queries (one sample, and more samples than
 * one of its completion chunks) through the sample view and completes them through the sink's downcalls, so class
 * loading, downcall linking and JIT compilation happen before LoadGen's clock starts: a cold completion loop in
 * interpreted and C1 code is several times slower than once C2 has compiled it, and in the Offline 3.3M-sample run
 * the difference is a large share of the whole figure (benchmarks/README.md, "Measurements behind the code").
 * The user's SUT is not called, and nothing reaches LoadGen: with no
 * test running the bridge drops every completion (its counters restart with the test). As the engine's warm-up, it
 * goes on while the JIT is still finishing compilations ({@link WarmupClock}); its rounds are reported without a
 * time, so the JIT's quiet or the cap ends it as before issue 20's session 9: an official run lasts 600 s, and with
 * the rounds' settling the worker case's p99 read 0.86 of a C++ SUT's in one set against 0.99 before (one set each,
 * inside the 0.79-1.19 spread of unchanged code), a risk not worth the second it saves.
 */
final class BridgeWarmup
{
    private static final int SINGLES_PER_ROUND = 256;
    private static final long RECORD_BYTES = 16;

    private BridgeWarmup()
    {
    }

    /**
     * @param client   the client whose sample view and sink to run.
     * @param warmupMs for how long at least (0 = not at all).
     * @return rounds run.
     */
    static int run(final BridgeClient client, final long warmupMs)
    {
        final WarmupSuts provided = WarmupSuts.installed();
        if (warmupMs <= 0 || provided == null)
        {
            return 0;
        }
        // More samples than two of the null SUT's completion chunks, so its chunk loop is profiled as it runs.
        final int largeQuery = 2 * provided.inlineChunk() + 1;
        final SystemUnderTest sut = provided.inlineSut();
        final BridgeSamples samples = new BridgeSamples(new LoadedSet(), false);
        final BridgeResponseSink sink = client.sink();
        int rounds = 0;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment records = arena.allocate(RECORD_BYTES * largeQuery, 8);
            for (int i = 0; i < largeQuery; i++)
            {
                // Ids of the shape LoadGen's have (aligned addresses), never handed out by a test.
                records.set(ValueLayout.JAVA_LONG, RECORD_BYTES * i, records.address() + RECORD_BYTES * i);
                records.set(ValueLayout.JAVA_LONG, RECORD_BYTES * i + 8, i);
            }
            final QuerySampleResponses responses = new QuerySampleResponses(1, arena);
            final WarmupClock clock = new WarmupClock(warmupMs);
            do
            {
                sut.issueQuery(samples.wrap(records.address(), largeQuery), sink);
                for (int i = 0; i < SINGLES_PER_ROUND; i++)
                {
                    sut.issueQuery(samples.wrap(records.address() + RECORD_BYTES * i, 1), sink);
                }
                responses.set(0, samples.responseId(0), 0L, 0L, samples.sampleIndex(0));
                sink.firstToken(responses, 1);
                sink.firstToken(samples.responseId(0), 0L, 0L);
                sink.complete(samples.responseId(0), 0L, 0L, 0L);
                rounds++;
            }
            while (clock.another());
        }
        return rounds;
    }
}
