package org.jloadgen.testing;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * A deterministic clock for whole-engine tests: every reading moves time forward by a fixed tick (one
 * nanosecond by default, so spin-waits on a deadline end exactly at the deadline) and a scripted SUT moves it by its
 * service times. With an
 * inline SUT the whole run is single-threaded, so every latency, rate and percentile comes out the same on
 * every machine. It serves as the wall clock too, so both clocks keep the same pace.
 */
public final class ScriptedClock implements NanoClock, EpochNanoClock
{
    private final long tickNs;
    private long nowNs;

    /**
     * @param startNs the first reading.
     */
    public ScriptedClock(final long startNs)
    {
        this(startNs, 1);
    }

    /**
     * @param startNs the first reading.
     * @param tickNs  how far each reading moves time (larger ticks make long virtual runs cheap to simulate).
     */
    public ScriptedClock(final long startNs, final long tickNs)
    {
        this.nowNs = startNs;
        this.tickNs = tickNs;
    }

    @Override
    public long nanoTime()
    {
        final long now = nowNs;
        nowNs += tickNs;
        return now;
    }

    /**
     * @param ns how far to move time forward.
     */
    public void advance(final long ns)
    {
        nowNs += ns;
    }
}
