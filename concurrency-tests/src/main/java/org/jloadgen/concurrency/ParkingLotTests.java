package org.jloadgen.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.jloadgen.concurrent.PaddedCounter;
import org.jloadgen.concurrent.ParkingLot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link ParkingLot}: a waiter announces itself, re-checks its condition, then parks; a completer changes the
 * condition, then wakes one parked thread. The two sides are a Dekker pair (store, then load of the other side's
 * store), so both stores must be volatile (sequentially consistent): with a release store in either, the waiter can
 * miss the completion while the completer misses the waiter, and the waiter parks until its timeout.
 */
public final class ParkingLotTests
{
    private ParkingLotTests()
    {
    }

    /**
     * The engine's completion wait: the issue thread announces itself in the recorder's lot and re-checks the
     * completion counter; the completing thread counts, then wakes the lot.
     */
    @JCStressTest
    @Outcome(id = {"1, 0", "1, 1"}, expect = ACCEPTABLE, desc = "The waiter saw the completion and does not park.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The completer found the waiter announced and woke it.")
    @Outcome(id = "0, 0", expect = FORBIDDEN,
        desc = "Lost wake-up: the waiter saw no completion and parks, and the completer saw nobody to wake.")
    @State
    public static class NoLostWakeUp
    {
        private final ParkingLot lot = new ParkingLot(1);
        private final PaddedCounter completed = new PaddedCounter();

        /**
         * @param r r1: the completions the waiter's re-check saw.
         */
        @Actor
        public void waiter(final II_Result r)
        {
            lot.announce(0);
            r.r1 = (int)completed.getVolatile();
        }

        /**
         * @param r r2: whether the completer woke a parked thread.
         */
        @Actor
        public void completer(final II_Result r)
        {
            completed.addAndGet(1);
            r.r2 = lot.wakeOne() ? 1 : 0;
        }
    }

    /**
     * A waiter whose re-check succeeded withdraws while a completer wakes it: the slot is cleared by exactly one of
     * them (a compare-and-set each), so the parked count ends at zero, whoever wins.
     */
    @JCStressTest
    @Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "The wake or the withdrawal cleared the slot, once.")
    @Outcome(expect = FORBIDDEN, desc = "The parked count was decremented twice or not at all.")
    @State
    public static class WithdrawRacesWake
    {
        private final ParkingLot lot = new ParkingLot(1);

        /**
         * The waiter announced itself before the race.
         */
        public WithdrawRacesWake()
        {
            lot.announce(0);
        }

        /**
         * The waiter's re-check succeeded: it leaves without parking.
         */
        @Actor
        public void withdraw()
        {
            lot.withdraw(0);
        }

        /**
         * @param r r1: whether the completer took the waiter off the lot.
         */
        @Actor
        public void wake(final II_Result r)
        {
            r.r1 = lot.wakeOne() ? 1 : 0;
        }

        /**
         * @param r r2: the parked count after both.
         */
        @Arbiter
        public void parked(final II_Result r)
        {
            r.r2 = lot.parkedCount();
        }
    }
}
