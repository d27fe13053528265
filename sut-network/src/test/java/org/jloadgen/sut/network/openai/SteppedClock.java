package org.jloadgen.sut.network.openai;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * A clock that stands still until a test moves it: every reading between two steps is the same, so a timestamp
 * says exactly which step it was taken after.
 */
final class SteppedClock implements NanoClock, EpochNanoClock
{
    private volatile long nowNs;

    /**
     * @param startNs the first reading.
     */
    SteppedClock(final long startNs)
    {
        this.nowNs = startNs;
    }

    @Override
    public long nanoTime()
    {
        return nowNs;
    }

    /**
     * @param ns how far to move. One thread moves the clock.
     */
    void advance(final long ns)
    {
        nowNs = nowNs + ns;
    }
}
