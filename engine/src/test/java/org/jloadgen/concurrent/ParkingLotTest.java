package org.jloadgen.concurrent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parking lot's hand-off under stress. A lost wake-up would leave a consumer parked until its bound, so the
 * consumers here park with a bound far longer than the test's time limit: one lost wake-up fails the test by
 * time-out, and each park that ran into its bound is counted and must not happen. The producer publishes in bursts
 * with random pauses, so that consumers are caught spinning, announcing, re-checking and parked.
 */
class ParkingLotTest
{
    private static final Duration LIMIT = Duration.ofSeconds(60);
    /** Far beyond the time limit: a consumer that sleeps this long was never woken. */
    private static final long NEVER_NS = Duration.ofMinutes(10).toNanos();

    @Test
    void shouldTakeTheRareOutcomesWithoutLeavingAPermitOnTheCallingThread()
    {
        ParkingLot.exerciseRareOutcomes(1_000);
        // A permit left behind would make this park return at once.
        final long startNs = System.nanoTime();
        LockSupport.parkNanos(50_000_000L);
        assertTrue(System.nanoTime() - startNs >= 40_000_000L, "the park returned at once: a permit was left");
    }

    @Test
    void shouldNeverLoseTheWakeUpOfTheOneConsumer()
    {
        handOff(1, 200_000);
    }

    @Test
    void shouldNeverLoseAWakeUpWithConsumersCompetingForTheWork()
    {
        handOff(3, 200_000);
    }

    /**
     * One producer publishes {@code items} items one at a time (volatile increment of the published count, then
     * {@link ParkingLot#wakeOne()}); each consumer claims items with a CAS and, finding none, parks through a
     * {@link ParkingIdleStrategy} with no spin window. Every item must be claimed exactly once and no park may run
     * into its bound.
     */
    private static void handOff(final int consumers, final long items)
    {
        final ParkingLot lot = new ParkingLot(consumers);
        final AtomicLong published = new AtomicLong();
        final AtomicLong claimed = new AtomicLong();
        final AtomicLongArray claimedBy = new AtomicLongArray(consumers);
        final AtomicLong timedOutParks = new AtomicLong();
        final AtomicLong wakeUps = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < consumers; c++)
        {
            final int slot = c;
            threads.add(Thread.ofPlatform().name("consumer-" + c).start(() ->
            {
                try
                {
                    final ParkingIdleStrategy idle = new ParkingIdleStrategy(lot, slot, 0, NEVER_NS,
                        () -> published.get() > claimed.get() || claimed.get() >= items);
                    while (true)
                    {
                        final long next = claimed.get();
                        if (next >= items)
                        {
                            return;
                        }
                        if (next < published.get())
                        {
                            if (claimed.compareAndSet(next, next + 1))
                            {
                                claimedBy.incrementAndGet(slot);
                                idle.reset();
                                if (next + 1 == items)
                                {
                                    // Consumers parked with nothing left to claim would never be woken otherwise.
                                    lot.wakeAll();
                                }
                            }
                            continue;
                        }
                        final long beforeNs = System.nanoTime();
                        idle.idle();
                        if (System.nanoTime() - beforeNs >= NEVER_NS)
                        {
                            timedOutParks.incrementAndGet();
                        }
                    }
                }
                catch (final Throwable t)
                {
                    failure.set(t);
                }
            }));
        }
        assertTimeoutPreemptively(LIMIT, () ->
        {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            while (published.get() < items)
            {
                final int burst = 1 + random.nextInt(8);
                for (int i = 0; i < burst && published.get() < items; i++)
                {
                    published.incrementAndGet();
                    if (lot.wakeOne())
                    {
                        wakeUps.incrementAndGet();
                    }
                }
                switch (random.nextInt(4))
                {
                    case 0 -> LockSupport.parkNanos(random.nextInt(20_000));
                    case 1 -> Thread.onSpinWait();
                    case 2 -> Thread.yield();
                    default ->
                    {
                        // Publish again at once.
                    }
                }
            }
            for (final Thread t : threads)
            {
                t.join();
            }
        }, "a consumer stayed parked: a wake-up was lost");
        assertNull(failure.get());
        assertEquals(0, timedOutParks.get());
        assertEquals(items, claimed.get());
        long sum = 0;
        for (int c = 0; c < consumers; c++)
        {
            sum += claimedBy.get(c);
        }
        assertEquals(items, sum, "every item claimed exactly once");
        assertEquals(0, lot.parkedCount(), "no consumer left announced");
        assertTrue(wakeUps.get() > items / 100, "the test must exercise parked consumers: " + wakeUps.get()
            + " wake-ups");
    }

    @Test
    void shouldReadOnlyTheCountWhileNobodyParked()
    {
        final ParkingLot lot = new ParkingLot(2);
        assertFalse(lot.wakeOne());
        assertEquals(0, lot.parkedCount());
    }

    @Test
    void shouldWakeAnAnnouncedConsumerOnceAndUncountIt() throws Exception
    {
        final ParkingLot lot = new ParkingLot(1);
        final Thread consumer = Thread.ofPlatform().start(() ->
        {
            lot.announce(0);
            lot.park(0, NEVER_NS);
        });
        assertTimeoutPreemptively(LIMIT, () ->
        {
            while (lot.parkedCount() == 0 || consumer.getState() != Thread.State.TIMED_WAITING)
            {
                Thread.onSpinWait();
            }
            assertTrue(lot.wakeOne());
            assertFalse(lot.wakeOne(), "the slot was taken by the first wake-up");
            consumer.join();
        });
        assertEquals(0, lot.parkedCount());
    }

    @Test
    void shouldKeepTheCountWhenAConsumerWithdraws()
    {
        final ParkingLot lot = new ParkingLot(1);
        lot.announce(0);
        assertEquals(1, lot.parkedCount());
        lot.withdraw(0);
        assertEquals(0, lot.parkedCount());
        lot.withdraw(0);
        assertEquals(0, lot.parkedCount(), "a second withdrawal changes nothing");
    }

    @Test
    void shouldRejectBadArguments()
    {
        assertThrows(IllegalArgumentException.class, () -> new ParkingLot(0));
        final ParkingLot lot = new ParkingLot(1);
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(lot, 1, 0, 1, () -> true));
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(lot, 0, -1, 1, () -> true));
        assertThrows(IllegalArgumentException.class, () -> new ParkingIdleStrategy(lot, 0, 0, 0, () -> true));
    }
}
