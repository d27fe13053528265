package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WarmupStopTest
{
    private static final long NS_PER_S = 1_000_000_000L;

    /** Feeds answers 100 at a time at the rate {@code perSecond.apply(done)}; returns the count the rule stops at. */
    private static long stopsAt(final WarmupStop stop, final java.util.function.LongToDoubleFunction perSecond)
    {
        long nowNs = 0;
        long done = 0;
        while (!stop.enough(done, nowNs))
        {
            done += 100;
            nowNs += (long)(100 * NS_PER_S / perSecond.applyAsDouble(done));
            if (done > 10 * WarmupStop.MAX_REQUESTS)
            {
                throw new AssertionError("never stopped");
            }
        }
        return done;
    }

    /** The round an answer falls in: 1 for the first 5,000, 2 for the next, ... */
    private static double round(final long done)
    {
        return Math.ceil(done / (double)WarmupStop.ROUND_REQUESTS);
    }

    @Test
    void shouldStopAtTheMinimumWhenTheRateIsFlatFromTheStart()
    {
        final WarmupStop stop = new WarmupStop(0);
        assertEquals(WarmupStop.MIN_REQUESTS, stopsAt(stop, done -> 10_000));
        assertTrue(stop.settled());
        assertEquals("answer rate settled at 10000/s (best round 10000/s, 12 rounds)", stop.describe());
    }

    @Test
    void shouldGoOnWhileTheRateRisesAndStopTwoFlatRoundsAfterItLevels()
    {
        // Nodes still compiling: each round 10% faster up to 90,000 answers, flat after.
        final WarmupStop stop = new WarmupStop(0);
        final long at = stopsAt(stop, done -> 5_000 * Math.pow(1.1, round(Math.min(done, 90_000))));
        assertEquals(90_000 + 2 * WarmupStop.ROUND_REQUESTS, at);
        assertTrue(stop.settled());
    }

    @Test
    void shouldNotCountASmallRiseAsRising()
    {
        // 3% a round is noise: the warm-up ends at the minimum.
        final WarmupStop stop = new WarmupStop(0);
        assertEquals(WarmupStop.MIN_REQUESTS, stopsAt(stop, done -> 5_000 * Math.pow(1.03, round(done))));
    }

    @Test
    void shouldEndAtTheMaximumWhileTheRateStillRises()
    {
        final WarmupStop stop = new WarmupStop(0);
        assertEquals(WarmupStop.MAX_REQUESTS, stopsAt(stop, done -> 1_000 * Math.pow(1.1, round(done))));
        assertFalse(stop.settled());
        assertTrue(stop.describe().startsWith("answer rate still rising, last round "), stop.describe());
    }

    @Test
    void shouldSaySoWhenNoRoundFinished()
    {
        final WarmupStop stop = new WarmupStop(0);
        assertFalse(stop.enough(4_999, NS_PER_S));
        assertEquals("no full round of 5000 answers", stop.describe());
    }
}
