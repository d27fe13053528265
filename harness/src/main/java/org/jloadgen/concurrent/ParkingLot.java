package org.jloadgen.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Left-hand padding: the parked count shares no cache line with what precedes it.
 */
abstract class ParkingLotLhsPadding
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/**
 * The count of parked threads, the one field every publish reads.
 */
abstract class ParkingLotCount extends ParkingLotLhsPadding
{
    volatile int parkedCount;
}

/**
 * Where consumer threads park while they wait for work a publisher makes available, and how the publisher wakes one
 * of them: only when one has parked. Waking a busy (spinning or working) consumer costs the publisher one volatile
 * read of {@link #parkedCount}; only a parked consumer costs an {@link LockSupport#unpark}.
 * <p>
 * The protocol is Dekker's, with sequentially consistent accesses on both sides, so a wake-up cannot be lost:
 * <pre>
 * consumer (slot i)                                   publisher
 *   lot.announce(i)      // slot store, count add       publish the work (volatile store or atomic add)
 *   if (work visible)    // a volatile read             lot.wakeOne()  // volatile read of the count, then
 *       lot.withdraw(i)                                 //   a CAS on a slot and unpark
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
public final class ParkingLot extends ParkingLotCount
{
    private static final VarHandle COUNT;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Thread[].class);
    /** Slot stride in array elements: a 128-byte gap between slots, so parking threads do not share a line. */
    private static final int STRIDE = 32;

    static
    {
        try
        {
            COUNT = MethodHandles.lookup().findVarHandle(ParkingLotCount.class, "parkedCount", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

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
        COUNT.getAndAdd(this, 1);
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
            COUNT.getAndAdd(this, -1);
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
        if ((int)COUNT.getVolatile(this) == 0)
        {
            return false;
        }
        return wakeOneSlowPath();
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
        return (int)COUNT.getVolatile(this);
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
        final int i = index(slot);
        final Thread parked = (Thread)SLOTS.getVolatile(slots, i);
        if (parked != null && SLOTS.compareAndSet(slots, i, parked, (Thread)null))
        {
            COUNT.getAndAdd(this, -1);
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
