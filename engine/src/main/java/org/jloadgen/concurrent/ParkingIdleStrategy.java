package org.jloadgen.concurrent;

import java.util.function.BooleanSupplier;

import org.agrona.concurrent.IdleStrategy;

/**
 * An idle strategy that spins for a window after the last work, then parks in a {@link ParkingLot} until the thread
 * that hands the work wakes it (it calls {@link ParkingLot#wakeOne()} after publishing). Spinning first keeps a
 * steady stream of work at spin latency; parking afterwards gives the CPU back, so a consumer that waits long costs
 * nothing and its hand-off costs the kernel's wake-up time.
 * <p>
 * The work check must read with volatile semantics (see {@link ParkingLot}): it is what the consumer re-checks
 * between announcing itself and parking. One instance per consumer thread; nothing here allocates.
 */
public final class ParkingIdleStrategy implements IdleStrategy
{
    private final ParkingLot lot;
    private final int slot;
    private final long spinNs;
    private final long maxParkNs;
    private final BooleanSupplier workAvailable;
    private long spinStartNs;
    private boolean spinning;

    /**
     * @param lot           where to park; the handing thread wakes it.
     * @param slot          the consumer's slot in the lot.
     * @param spinNs        how long to spin after the last work before parking (0: park at once).
     * @param maxParkNs     longest single park (a bound on how late a stop or timeout is noticed).
     * @param workAvailable whether work is there, read with volatile semantics.
     */
    public ParkingIdleStrategy(final ParkingLot lot, final int slot, final long spinNs, final long maxParkNs,
        final BooleanSupplier workAvailable)
    {
        if (slot < 0 || slot >= lot.slotCount())
        {
            throw new IllegalArgumentException("slot " + slot + " outside the lot's " + lot.slotCount() + " slots");
        }
        if (spinNs < 0 || maxParkNs <= 0)
        {
            throw new IllegalArgumentException("spin window must not be negative and park bound positive: " + spinNs
                + " ns, " + maxParkNs + " ns");
        }
        this.lot = lot;
        this.slot = slot;
        this.spinNs = spinNs;
        this.maxParkNs = maxParkNs;
        this.workAvailable = workAvailable;
    }

    /**
     * @return the spin window before parking.
     */
    public long spinNs()
    {
        return spinNs;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (!spinning)
        {
            spinning = true;
            spinStartNs = System.nanoTime();
        }
        if (System.nanoTime() - spinStartNs < spinNs)
        {
            Thread.onSpinWait();
            return;
        }
        lot.announce(slot);
        if (workAvailable.getAsBoolean())
        {
            lot.withdraw(slot);
            return;
        }
        lot.park(slot, maxParkNs);
    }

    /**
     * Starts a new spin window: the next idle period spins before it parks.
     */
    @Override
    public void reset()
    {
        spinning = false;
    }

    @Override
    public String alias()
    {
        return "park";
    }
}
