package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The overhead runner's use of {@code jloadgen peak}'s search: every child run kept under its target, a child that
 * wrote no detail log counted as INVALID, the report's conventions for "none", and the overhead options named in
 * errors. The search itself is tested in {@code analysis} ({@code PeakSearchTest}).
 */
class ServerPeakTest
{
    /** A child that wrote no detail log: INVALID to the search. */
    private static RunResult noLog(final double qps, final int repeat)
    {
        return new RunResult(BudgetTable.serverAt(qps), repeat, List.of("java"), Path.of("/tmp/peak"), 1,
            1_000_000_000L, -1, null, Double.NaN, Double.NaN);
    }

    @Test
    void shouldKeepEveryRunUnderItsTargetAndReportNoPeakAsZero()
    {
        final List<String> calls = new ArrayList<>();
        final ServerPeak peak = ServerPeak.find(ServerPeak.limits(10_000, 20e6, 0.05, 3, 12), 40_000, (qps, r) ->
        {
            calls.add((long)qps + "#" + r);
            return noLog(qps, r);
        });
        assertEquals(List.of("40000#1", "20000#1", "10000#1"), calls);
        assertEquals(0, peak.peakQps());
        assertEquals(10_000, peak.failQps());
        assertNull(peak.peakTarget());
        assertEquals(3, peak.targets().size());
        assertFalse(peak.targets().get(0).passed());
        assertEquals(1, peak.targets().get(2).runs().size());
    }

    @Test
    void shouldCountMaxProbesAsRepeatsRunsEach()
    {
        assertEquals(36, ServerPeak.limits(10_000, 20e6, 0.05, 3, 12).maxRuns());
        assertEquals(ServerPeak.STEP, ServerPeak.limits(10_000, 20e6, 0.05, 3, 12).step());
    }

    @Test
    void shouldNameTheOverheadOptionsInErrors()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerPeak.limits(10_000, 20e6, 0, 3, 12))
            .getMessage().contains("--peak-resolution"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerPeak.limits(10_000, 5_000, 0.05, 3, 12))
            .getMessage().contains("--peak-max-qps"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerPeak.limits(10_000, 20e6, 0.05, 3, 0))
            .getMessage().contains("--peak-max-probes"));
    }
}
