package org.jloadgen.testing;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * A deterministic clock for whole-engine tests: every reading moves time forward by one nanosecond (so
 * spin-waits on a deadline end exactly at the deadline) and a scripted SUT moves it by its service times. With an
 * inline SUT the whole run is single-threaded, so every latency, rate and percentile comes out the same on
 * every machine. It serves as the wall clock too, so both clocks keep the same pace.
 */
public final class ScriptedClock implements NanoClock, EpochNanoClock
{
    private long nowNs;

    /**
     * @param startNs the first reading.
     */
    public ScriptedClock(final long startNs)
    {
        this.nowNs = startNs;
    }

    @Override
    public long nanoTime()
    {
        return nowNs++;
    }

    /**
     * @param ns how far to move time forward.
     */
    public void advance(final long ns)
    {
        nowNs += ns;
    }
}
