package org.jloadgen.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.jloadgen.concurrent.PaddedCounter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link PaddedCounter}: the counters that publish the engine's and the toolkit's plain writes (completion slots,
 * ring entries) and order the Dekker pairs of the parking lot.
 */
public final class PaddedCounterTests
{
    private PaddedCounterTests()
    {
    }

    /**
     * Message passing with {@code setRelease} and {@code getAcquire} (the batcher's consumer index): a reader that
     * sees the new count sees the plain write made before it.
     */
    @JCStressTest
    @Outcome(id = {"0, 0", "0, 42", "1, 42"}, expect = ACCEPTABLE, desc = "Not published yet, or published whole.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The count was seen before the write it publishes.")
    @State
    public static class ReleaseAcquirePublishes
    {
        private final PaddedCounter counter = new PaddedCounter();
        private int data;

        /**
         * Writes, then publishes.
         */
        @Actor
        public void writer()
        {
            data = 42;
            counter.setRelease(1);
        }

        /**
         * @param r r1: the count; r2: the data read after it.
         */
        @Actor
        public void reader(final II_Result r)
        {
            r.r1 = (int)counter.getAcquire();
            r.r2 = data;
        }
    }

    /**
     * Message passing with {@code addAndGet} (a completion count) and {@code getAcquire} (the issue thread's read).
     */
    @JCStressTest
    @Outcome(id = {"0, 0", "0, 42", "1, 42"}, expect = ACCEPTABLE, desc = "Not counted yet, or counted whole.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The count was seen before the write it publishes.")
    @State
    public static class AddAndGetPublishes
    {
        private final PaddedCounter counter = new PaddedCounter();
        private int data;

        /**
         * Writes, then counts.
         */
        @Actor
        public void writer()
        {
            data = 42;
            counter.addAndGet(1);
        }

        /**
         * @param r r1: the count; r2: the data read after it.
         */
        @Actor
        public void reader(final II_Result r)
        {
            r.r1 = (int)counter.getAcquire();
            r.r2 = data;
        }
    }

    /**
     * Store then load of the other counter with {@code setVolatile} and {@code getVolatile} (the batcher's producer
     * index against the fill waiter's wake index): at least one side sees the other's store.
     */
    @JCStressTest
    @Outcome(id = {"0, 1", "1, 0", "1, 1"}, expect = ACCEPTABLE, desc = "At least one side saw the other.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Both stores were reordered after the loads.")
    @State
    public static class VolatileStoreLoad
    {
        private final PaddedCounter x = new PaddedCounter();
        private final PaddedCounter y = new PaddedCounter();

        /**
         * @param r r1: y as seen after storing x.
         */
        @Actor
        public void first(final II_Result r)
        {
            x.setVolatile(1);
            r.r1 = (int)y.getVolatile();
        }

        /**
         * @param r r2: x as seen after storing y.
         */
        @Actor
        public void second(final II_Result r)
        {
            y.setVolatile(1);
            r.r2 = (int)x.getVolatile();
        }
    }
}
