package org.jloadgen.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.sut.BatcherSettings;
import org.jloadgen.sut.DynamicBatcher;
import org.jloadgen.sut.SampleBatch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * {@link DynamicBatcher}: the issue thread offers samples into the ring (plain writes of the entry, then a volatile
 * producer index), a worker takes a batch (acquire of the index, then the entries), and an abort drops what is
 * queued. A sample is taken once, left queued, or dropped: never lost, never taken twice, never read half-written.
 */
public final class DynamicBatcherTests
{
    private static final long RESPONSE_ID = 42;
    private static final long SAMPLE_INDEX = 7;

    private DynamicBatcherTests()
    {
    }

    private static DynamicBatcher batcher()
    {
        // No batch timeout: a worker takes what is there at once, so every outcome shows up in one call.
        return new DynamicBatcher(new BatcherSettings(4, 0, 1, 16, CompletionWaitStrategy.SPIN, null));
    }

    /**
     * One sample offered while a worker takes a batch.
     */
    @JCStressTest
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "Not published yet: still queued after the race.")
    @Outcome(id = "1, 42, 0", expect = ACCEPTABLE, desc = "Taken whole.")
    @Outcome(expect = FORBIDDEN, desc = "Taken half-written, lost, or both taken and queued.")
    @State
    public static class OfferRacesNextBatch
    {
        private final DynamicBatcher batcher = batcher();
        private final SampleBatch batch = new SampleBatch(4);

        /**
         * The issue thread offers one sample.
         */
        @Actor
        public void issueThread()
        {
            batcher.offer(OneSample.INSTANCE, new BusySpinIdleStrategy());
        }

        /**
         * @param r r1: samples taken; r2: the response id taken (0: none).
         */
        @Actor
        public void worker(final JJJ_Result r)
        {
            final int n = batcher.nextBatch(batch, null);
            r.r1 = n;
            r.r2 = n > 0 ? batch.responseId(0) : 0;
        }

        /**
         * @param r r3: samples still queued.
         */
        @Arbiter
        public void queued(final JJJ_Result r)
        {
            r.r3 = batcher.queued();
        }
    }

    /**
     * One sample offered while an abort drops the queue; a worker takes a batch afterwards.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The drop came first: the sample was offered after it.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The drop covered the sample.")
    @Outcome(expect = FORBIDDEN, desc = "The sample was lost, or taken and counted as dropped.")
    @State
    public static class OfferRacesDrop
    {
        private final DynamicBatcher batcher = batcher();
        private final SampleBatch batch = new SampleBatch(4);

        /**
         * The issue thread offers one sample.
         */
        @Actor
        public void issueThread()
        {
            batcher.offer(OneSample.INSTANCE, new BusySpinIdleStrategy());
        }

        /**
         * The engine aborts.
         */
        @Actor
        public void abort()
        {
            batcher.dropQueued();
        }

        /**
         * @param r r1: samples a worker takes afterwards; r2: samples dropped; r3: the two added up.
         */
        @Arbiter
        public void afterwards(final JJJ_Result r)
        {
            r.r1 = batcher.nextBatch(batch, null);
            r.r2 = batcher.droppedSamples();
            r.r3 = r.r1 + r.r2;
        }
    }

    /** A query of one sample. */
    private static final class OneSample implements QuerySamples
    {
        static final OneSample INSTANCE = new OneSample();

        @Override
        public int size()
        {
            return 1;
        }

        @Override
        public long responseId(final int i)
        {
            return RESPONSE_ID;
        }

        @Override
        public long sampleIndex(final int i)
        {
            return SAMPLE_INDEX;
        }

        @Override
        public int loadedPosition(final int i)
        {
            return 0;
        }
    }
}
