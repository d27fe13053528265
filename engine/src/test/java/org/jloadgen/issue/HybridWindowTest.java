package org.jloadgen.issue;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HybridWindowTest
{
    @Test
    void shouldKeepTheConfiguredWindowWhileWakeUpsAreOnTime()
    {
        final HybridWindow window = new HybridWindow();
        window.reset(50_000, HybridWindow.maxWindowNs(50_000));
        for (int i = 0; i < 1_000; i++)
        {
            window.woke(20_000);
            window.decay();
        }
        assertEquals(50_000, window.windowNs(), "twice 20 us is below the configured 50 us");
        window.woke(-5_000);
        assertEquals(50_000, window.windowNs(), "an early wake-up changes nothing");
    }

    @Test
    void shouldWidenToTwiceALateWakeUpAndShrinkBackSlowly()
    {
        final HybridWindow window = new HybridWindow();
        window.reset(50_000, HybridWindow.maxWindowNs(50_000));
        window.woke(80_000);
        assertEquals(160_000, window.windowNs());
        window.woke(10_000);
        assertEquals(160_000, window.windowNs(), "a shorter overshoot does not shrink the window");
        for (int i = 0; i < 700; i++)
        {
            window.decay();
        }
        assertTrue(window.windowNs() > 75_000 && window.windowNs() < 85_000, "half-life ~700 queries: "
            + window.windowNs());
        for (int i = 0; i < 10_000; i++)
        {
            window.decay();
        }
        assertEquals(50_000, window.windowNs(), "back to the configured window");
    }

    @Test
    void shouldWidenToAtMostFourTimesTheConfiguredWindowAndStartAfreshEachSeries()
    {
        final HybridWindow window = new HybridWindow();
        window.reset(50_000, HybridWindow.maxWindowNs(50_000));
        window.woke(5_000_000);
        assertEquals(200_000, window.windowNs(), "a stall of a busy CPU is not cured by spinning for it");
        window.reset(30_000, HybridWindow.maxWindowNs(30_000));
        assertEquals(30_000, window.windowNs());
        assertEquals(400_000, HybridWindow.maxWindowNs(100_000));
    }

    @Test
    void shouldNeverWidenPastItsCap()
    {
        final HybridWindow window = new HybridWindow();
        window.reset(25_000, 25_000);
        window.woke(1_000_000);
        assertEquals(25_000, window.windowNs(), "capped: the issue thread's share of a CPU");
        window.reset(40_000, 10_000);
        assertEquals(40_000, window.windowNs(), "a cap below the start is the start");
    }
}
