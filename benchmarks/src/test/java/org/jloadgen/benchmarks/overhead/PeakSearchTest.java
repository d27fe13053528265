package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class PeakSearchTest
{
    private static PeakSearch.Result search(final PeakSearch search, final double limitQps, final List<Double> tried)
    {
        return search.run(qps ->
        {
            tried.add(qps);
            return new PeakSearch.Probe(qps, List.of(), qps <= limitQps);
        });
    }

    @Test
    void shouldDoubleThenBisectToTheResolution()
    {
        final List<Double> tried = new ArrayList<>();
        final PeakSearch.Result r = search(new PeakSearch(500_000, 10_000, 20e6, 0.05, 20), 2_300_000, tried);
        assertEquals(List.of(500e3, 1e6, 2e6, 4e6, 3e6, 2.5e6, 2.25e6, 2.375e6, 2.313e6), tried);
        assertEquals(2_250_000, r.peakQps());
        assertEquals(2_313_000, r.failQps());
        assertTrue(r.failQps() - r.peakQps() <= 0.05 * r.peakQps());
        assertEquals(2_250_000, r.peakProbe().targetQps());
    }

    @Test
    void shouldHalveWhileEvenTheStartFails()
    {
        final List<Double> tried = new ArrayList<>();
        final PeakSearch.Result r = search(new PeakSearch(500_000, 10_000, 20e6, 0.05, 20), 150_000, tried);
        assertEquals(List.of(500e3, 250e3, 125e3, 188e3, 157e3, 141e3, 149e3, 153e3), tried);
        assertEquals(149_000, r.peakQps());
    }

    @Test
    void shouldGiveUpAtTheMinimumWhenNothingPasses()
    {
        final PeakSearch.Result r = search(new PeakSearch(40_000, 10_000, 20e6, 0.05, 20), 1_000, new ArrayList<>());
        assertEquals(0, r.peakQps());
        assertEquals(10_000, r.failQps());
        assertNull(r.peakProbe());
    }

    @Test
    void shouldStopAtTheMaximumWhenEverythingPasses()
    {
        final List<Double> tried = new ArrayList<>();
        final PeakSearch.Result r = search(new PeakSearch(1e6, 10_000, 3e6, 0.05, 20), 1e12, tried);
        assertEquals(List.of(1e6, 2e6, 3e6), tried);
        assertEquals(3e6, r.peakQps());
        assertEquals(Double.POSITIVE_INFINITY, r.failQps());
    }

    @Test
    void shouldStopAfterTheProbeLimit()
    {
        final List<Double> tried = new ArrayList<>();
        search(new PeakSearch(500_000, 10_000, 20e6, 0.001, 4), 2_300_000, tried);
        assertEquals(4, tried.size());
    }

    @Test
    void shouldRejectInconsistentBounds()
    {
        assertThrows(IllegalArgumentException.class, () -> new PeakSearch(5_000, 10_000, 20e6, 0.05, 4));
        assertThrows(IllegalArgumentException.class, () -> new PeakSearch(5e6, 10_000, 1e6, 0.05, 4));
        assertThrows(IllegalArgumentException.class, () -> new PeakSearch(5e5, 10_000, 1e6, 0, 4));
        assertThrows(IllegalArgumentException.class, () -> new PeakSearch(5e5, 10_000, 1e6, 0.05, 0));
    }
}
