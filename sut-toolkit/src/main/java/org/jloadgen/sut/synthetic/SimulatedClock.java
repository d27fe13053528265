package org.jloadgen.sut.synthetic;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * Simulated time for a whole test: a clock that only moves when it is read. Each reading returns the current
 * time and then moves it forward by a fixed tick, so the engine's spin-waits on a deadline end at the deadline
 * (within a tick); before a reading returns, every event of the simulation that is due by then runs, at its own
 * time: readings made while an event runs (the engine's completion timestamp) return the event's time exactly.
 * A run on this clock is single-threaded (the simulated SUT completes inside clock readings on the thread that
 * reads) and so, for the same seeds, identical on every machine, and a minute of load takes a fraction of that.
 * <p>
 * Readings start at the real epoch time when the clock is made, so the clock also serves as the test's wall clock
 * ({@code power_begin} shows a real date) and the two never drift apart. One thread drives it: the first that reads
 * it. A reading from any other thread (a status display, say) returns the driving thread's last reading and moves
 * nothing, so an onlooker can neither race the simulation nor change its course.
 */
public final class SimulatedClock implements NanoClock, EpochNanoClock
{
    /** Default tick: readings 1 us apart. */
    public static final long TICK_NS_DEFAULT = 1_000;

    /**
     * What the clock drives: a simulation with timed events.
     */
    public interface Events
    {
        /**
         * @return the time of the earliest pending event, or {@link Long#MAX_VALUE} when none is pending.
         */
        long nextEventNs();

        /**
         * Runs the earliest pending event; the clock reads its time meanwhile.
         */
        void runNextEvent();
    }

    private final long tickNs;
    private volatile Thread driver;
    private volatile long lastReadingNs;
    private long nowNs;
    private Events events;
    private boolean inEvent;
    private long eventNs;

    /**
     * @param tickNs how far each reading moves time (positive); smaller is more exact and slower to simulate.
     */
    public SimulatedClock(final long tickNs)
    {
        if (tickNs <= 0)
        {
            throw new IllegalArgumentException("the simulated clock's tick must be positive, got " + tickNs + " ns");
        }
        this.tickNs = tickNs;
        this.nowNs = System.currentTimeMillis() * 1_000_000L;
        this.lastReadingNs = nowNs;
    }

    /**
     * @param simulation the events the clock runs as time passes (one simulation per clock).
     */
    public void drive(final Events simulation)
    {
        if (events != null && events != simulation)
        {
            throw new IllegalStateException("a simulated clock drives one simulation");
        }
        this.events = simulation;
    }

    /**
     * @return the tick.
     */
    public long tickNs()
    {
        return tickNs;
    }

    @Override
    public long nanoTime()
    {
        final Thread current = Thread.currentThread();
        if (current != driver && !claim(current))
        {
            return lastReadingNs;
        }
        if (inEvent)
        {
            return eventNs;
        }
        final long now = nowNs;
        runEventsUntil(now);
        nowNs = now + tickNs;
        lastReadingNs = now;
        return now;
    }

    /**
     * @return whether the thread drives the clock (the first to ask does).
     */
    private synchronized boolean claim(final Thread thread)
    {
        if (driver == null)
        {
            driver = thread;
        }
        return driver == thread;
    }

    /**
     * Lets time run until no event is pending (the simulated SUT's flush: everything it holds completes at its
     * own time); later readings continue after the last event.
     */
    public void runAllEvents()
    {
        if (inEvent)
        {
            throw new IllegalStateException("runAllEvents() from inside an event");
        }
        runEventsUntil(Long.MAX_VALUE - 1);
    }

    private void runEventsUntil(final long limitNs)
    {
        final Events simulation = events;
        if (simulation == null)
        {
            return;
        }
        long at;
        while ((at = simulation.nextEventNs()) <= limitNs)
        {
            // Time never runs backwards: an event due before the last reading runs at that reading's time.
            eventNs = Math.max(at, nowNs - tickNs);
            inEvent = true;
            try
            {
                simulation.runNextEvent();
            }
            finally
            {
                inEvent = false;
            }
            if (eventNs >= nowNs)
            {
                nowNs = eventNs + tickNs;
            }
        }
    }
}
