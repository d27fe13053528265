package org.jloadgen.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Where consumer threads park while they wait for work a publisher makes available, and how the publisher wakes one
 * of them: only when one has parked. Waking a busy (spinning or working) consumer costs the publisher one volatile
 * read of the parked count; only a parked consumer costs an {@link LockSupport#unpark}.
 * <p>
 * The protocol is Dekker's, with sequentially consistent accesses on both sides, so a wake-up cannot be lost:
 * <pre>
 * consumer (slot i)                                   publisher
 *   lot.announce(i)      // slot store, count add       publish the work (volatile store or atomic add)
 *   if (work visible)    // a volatile read             lot.wakeOne()  // volatile read of the count, then
 *       lot.withdraw(i)                                 //   a swap on a slot and unpark
 *   else
 *       lot.park(i, maxNs)
 * </pre>
 * Either the consumer's re-check sees the work, or the publisher's read of the count (which follows its publish in
 * the synchronization order) sees the consumer announced, and then it finds the slot (stored before the count was
 * raised) and unparks the thread. {@link LockSupport#unpark} before {@code park} makes {@code park} return at once,
 * so an unpark that races with the consumer's own withdrawal leaves at most one early return, which the consumer's
 * loop absorbs. {@link #park} is bounded ({@code maxNs}), so even a missed wake-up could only delay, never hang.
 * <p>
 * Each slot belongs to one consumer thread. Nothing here allocates.
 */
public final class ParkingLot
{
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Thread[].class);
    /** Slot stride in array elements: a 128-byte gap between slots, so parking threads do not share a line. */
    private static final int STRIDE = 32;

    /** Consumers parked or about to park: the one field every publish reads, alone on its cache lines. */
    private final PaddedCounter parkedCount = new PaddedCounter();
    private final Thread[] slots;
    private final int slotCount;

    /**
     * @param slotCount number of consumer threads that may park here, one slot each.
     */
    public ParkingLot(final int slotCount)
    {
        if (slotCount < 1)
        {
            throw new IllegalArgumentException("a parking lot needs at least one slot: " + slotCount);
        }
        this.slotCount = slotCount;
        this.slots = new Thread[(slotCount + 1) * STRIDE];
    }

    /**
     * @return the number of slots.
     */
    public int slotCount()
    {
        return slotCount;
    }

    /**
     * Consumer: announces that the calling thread is about to park in its slot. It must then re-check for work with
     * a volatile read and either {@link #withdraw} (work found) or {@link #park}.
     *
     * @param slot the calling thread's slot.
     */
    public void announce(final int slot)
    {
        SLOTS.setVolatile(slots, index(slot), Thread.currentThread());
        parkedCount.addAndGet(1);
    }

    /**
     * Consumer: takes back an announcement (work was found on the re-check). A publisher that already took the slot
     * has also uncounted it and unparked the thread; its permit makes one later park return at once.
     *
     * @param slot the calling thread's slot.
     */
    public void withdraw(final int slot)
    {
        if (SLOTS.compareAndSet(slots, index(slot), Thread.currentThread(), (Thread)null))
        {
            parkedCount.addAndGet(-1);
        }
    }

    /**
     * Consumer: parks until a publisher wakes the slot, {@code maxNs} pass, or a spurious wake-up, then withdraws.
     *
     * @param slot  the calling thread's slot, announced.
     * @param maxNs longest park.
     */
    public void park(final int slot, final long maxNs)
    {
        LockSupport.parkNanos(this, maxNs);
        withdraw(slot);
    }

    /**
     * Publisher, after publishing work with a volatile store or an atomic update: wakes one parked consumer, if any.
     *
     * @return whether a consumer was woken.
     */
    public boolean wakeOne()
    {
        if (parkedCount.getVolatile() == 0)
        {
            return false;
        }
        return wakeOneSlowPath();
    }

    /**
     * Takes the rare outcomes of the protocol {@code rounds} times on the calling thread, on a lot of its own: a
     * publisher that finds the count raised but no slot to take (a consumer between its withdrawal and its uncount),
     * and a consumer whose withdrawal finds its slot already taken by a publisher. Runs meet them only in races, so
     * C2 compiled them as traps, and the first such race in a measured run deoptimised the issue path
     * ({@code -Xlog:deoptimization}: {@code wakeOneSlowPath unstable_if}). Branch profiles belong to the code, not
     * to a lot, so every lot's compiled code then has both outcomes. For the engine's warm-up, before the clock.
     *
     * @param rounds how many times.
     */
    public static void exerciseRareOutcomes(final int rounds)
    {
        final ParkingLot lot = new ParkingLot(2);
        for (int r = 0; r < rounds; r++)
        {
            lot.parkedCount.addAndGet(1);
            lot.wakeOne();
            lot.parkedCount.addAndGet(-1);
            lot.announce(1);
            lot.wakeOne();
            lot.withdraw(1);
        }
        // The wake-ups above unparked this thread: take the permit they left, so that its next park waits.
        LockSupport.parkNanos(1L);
    }

    /**
     * Wakes every parked consumer (stop, abort).
     */
    public void wakeAll()
    {
        for (int s = 0; s < slotCount; s++)
        {
            wake(s);
        }
    }

    /**
     * @return the number of consumers parked or about to park.
     */
    public int parkedCount()
    {
        return (int)parkedCount.getVolatile();
    }

    private boolean wakeOneSlowPath()
    {
        for (int s = 0; s < slotCount; s++)
        {
            if (wake(s))
            {
                return true;
            }
        }
        return false;
    }

    private boolean wake(final int slot)
    {
        // One swap, not a read and a compare-and-set: its only outcomes (a thread, or none) are both taken by
        // exerciseRareOutcomes, while a CAS that fails only in a race would stay a trap in the compiled code.
        final Thread parked = (Thread)SLOTS.getAndSet(slots, index(slot), (Thread)null);
        if (parked != null)
        {
            parkedCount.addAndGet(-1);
            LockSupport.unpark(parked);
            return true;
        }
        return false;
    }

    private static int index(final int slot)
    {
        return (slot + 1) * STRIDE;
    }
}
