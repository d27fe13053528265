package org.jloadgen.analysis.peak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The latency-vs-QPS chart for every shape a search can end in.
 */
class PeakChartTest
{
    @TempDir
    Path dir;

    private static ProbeRun run(final int n, final double qps, final long p50Ns, final long p99Ns,
        final ProbeRun.Verdict verdict)
    {
        return new ProbeRun(n, qps, 1, Path.of("run-" + n), verdict, new ProbeRun.Seeds(1, 2, 3),
            new ProbeRun.Latencies(p50Ns, p99Ns, 0.99, p99Ns, 10_000_000), qps, 1_000, true, true, true, true, 0, "",
            10);
    }

    private static PeakSearch.Result result(final PeakSearch.Status status, final ProbeRun... runs)
    {
        return PeakSearch.Result.of(status, "", 1, List.of(runs));
    }

    @Test
    void shouldDrawASearchWithItsKnee() throws IOException
    {
        final String png = PeakChart.write(dir, result(PeakSearch.Status.FOUND,
            run(1, 4_000, 30_000_000, 90_000_000, ProbeRun.Verdict.INVALID),
            run(2, 2_000, 800_000, 4_000_000, ProbeRun.Verdict.VALID),
            run(3, 3_000, 1_200_000, 6_000_000, ProbeRun.Verdict.VALID),
            run(4, 3_500, 2_000_000, 12_000_000, ProbeRun.Verdict.INVALID),
            run(5, 3_250, 1_500_000, 8_000_000, ProbeRun.Verdict.VALID)));
        assertEquals("latency-vs-qps.png", png);
        assertTrue(Files.size(dir.resolve(png)) > 10_000);
        final String svg = Files.readString(dir.resolve("latency-vs-qps.svg"));
        assertTrue(svg.contains("p99, VALID run") && svg.contains("p99, INVALID run") && svg.contains("p50"), svg);
    }

    @Test
    void shouldDrawASingleRun() throws IOException
    {
        // One point, one latency: JFreeChart's own minimum range would leave the log axis empty.
        assertEquals("latency-vs-qps.png", PeakChart.write(dir, result(PeakSearch.Status.STOPPED,
            run(1, 200, 98_592_130, 98_592_130, ProbeRun.Verdict.INVALID))));
        assertTrue(Files.size(dir.resolve("latency-vs-qps.png")) > 5_000);
    }

    @Test
    void shouldDrawNothingWhenNoRunMeasuredALatency()
    {
        assertNull(PeakChart.write(dir, result(PeakSearch.Status.NONE_PASSED,
            run(1, 400, 0, 0, ProbeRun.Verdict.INVALID), run(2, 200, 0, 0, ProbeRun.Verdict.INVALID))));
        assertNull(PeakChart.write(dir, result(PeakSearch.Status.STOPPED,
            run(1, 400, 5, 5, ProbeRun.Verdict.ABORTED))));
        assertFalse(Files.exists(dir.resolve("latency-vs-qps.png")));
    }
}
