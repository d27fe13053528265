package org.jloadgen.analysis.peak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import org.junit.jupiter.api.Test;

/**
 * The search on its own, against probes whose verdicts are a known function of the target: where it looks, when it
 * stops, what it reports.
 */
class PeakSearchTest
{
    private static ProbeRun run(final int number, final double qps, final int repeat, final ProbeRun.Verdict verdict)
    {
        return new ProbeRun(number, qps, repeat, Path.of("run-" + number), verdict, new ProbeRun.Seeds(1, 2, 3),
            new ProbeRun.Latencies(1_000, 2_000, 0.99, 2_000, 10_000), qps, 100, true, true, true, true, 0,
            verdict == ProbeRun.Verdict.VALID ? "" : "Reduce target QPS to improve latency.", 1);
    }

    /** Verdicts from a rule on (target, repeat); records every call. */
    private static final class Rule implements PeakSearch.Prober
    {
        final BiPredicate<Double, Integer> passes;
        final List<double[]> calls = new ArrayList<>();

        Rule(final BiPredicate<Double, Integer> passes)
        {
            this.passes = passes;
        }

        @Override
        public ProbeRun run(final int number, final double targetQps, final int repeat)
        {
            calls.add(new double[] {targetQps, repeat});
            return run(number, targetQps, repeat, passes.test(targetQps, repeat) ? ProbeRun.Verdict.VALID
                : ProbeRun.Verdict.INVALID);
        }

        private static ProbeRun run(final int n, final double q, final int r, final ProbeRun.Verdict v)
        {
            return PeakSearchTest.run(n, q, r, v);
        }
    }

    private static final PeakSearch.Listener QUIET = (run, runs) -> { };

    private static PeakSearch.Limits limits(final int repeats)
    {
        return new PeakSearch.Limits(1, Double.POSITIVE_INFINITY, 0.01, repeats, 2, 100);
    }

    @Test
    void shouldBracketUpThenBisectToTheResolution()
    {
        final Rule rule = new Rule((q, r) -> q <= 1234);
        final PeakSearch.Result result = new PeakSearch(limits(3)).run(100, rule, QUIET);
        assertEquals(PeakSearch.Status.FOUND, result.status());
        assertTrue(result.peakQps() <= 1234 && result.failQps() > 1234, result.toString());
        assertTrue(result.failQps() - result.peakQps() <= 0.01 * result.peakQps());
        // Bracketing: 100, 200, ..., 1600 once each (1600 fails), then bisection between 800 and 1600.
        assertEquals(100, rule.calls.get(0)[0]);
        assertEquals(1600, rule.calls.get(4)[0]);
        assertEquals(1200, rule.calls.get(5)[0]);
        // The peak passed every repeat; the failing target failed at its first run.
        final PeakSearch.Point peak = result.points().stream().filter(p -> p.targetQps() == result.peakQps())
            .findFirst().orElseThrow();
        assertEquals(3, peak.runs());
        assertEquals(3, peak.passes());
        final PeakSearch.Point fail = result.points().stream().filter(p -> p.targetQps() == result.failQps())
            .findFirst().orElseThrow();
        assertEquals(1, fail.runs());
        assertEquals(0, fail.passes());
        assertTrue(Double.isNaN(result.unconfirmedQps()));
    }

    @Test
    void shouldBracketDownFromAFailingStart()
    {
        final Rule rule = new Rule((q, r) -> q <= 300);
        final PeakSearch.Result result = new PeakSearch(limits(1)).run(10_000, rule, QUIET);
        assertEquals(PeakSearch.Status.FOUND, result.status());
        assertEquals(10_000, rule.calls.get(0)[0]);
        assertEquals(5_000, rule.calls.get(1)[0]);
        // Down to 156.25 (passes); the bisection starts between it and the last failure, 312.5.
        assertEquals(156.25, rule.calls.get(6)[0]);
        assertEquals(234.375, rule.calls.get(7)[0]);
        assertTrue(result.peakQps() <= 300 && result.failQps() > 300 && result.failQps() <= 1.01 * result.peakQps());
    }

    @Test
    void shouldRequireEveryRepeatNearTheBoundary()
    {
        // Between 1000 and 1100 a target passes its first run but fails its second: only targets up to 1000 pass
        // every repeat, and the pass rates say so.
        final Rule rule = new Rule((q, r) -> q <= 1000 || (q <= 1100 && r == 1));
        final PeakSearch.Result result = new PeakSearch(limits(3)).run(100, rule, QUIET);
        assertEquals(PeakSearch.Status.FOUND, result.status());
        assertTrue(result.peakQps() <= 1000 && result.failQps() > 1000, result.toString());
        assertTrue(result.points().stream().anyMatch(p -> p.runs() == 2 && p.passes() == 1),
            "a 1-of-2 target: " + result.points());
    }

    @Test
    void shouldDropABracketingTargetThatFailsItsRepeats()
    {
        // 800 passes once while bracketing (the start at 100 doubles to 800, 1600 fails), then every bisection target
        // above it fails; 800 itself fails its second run, so the search goes on below it.
        final Rule rule = new Rule((q, r) -> q < 800 ? q <= 790 : q == 800 && r == 1);
        final PeakSearch.Result result = new PeakSearch(limits(2)).run(100, rule, QUIET);
        assertEquals(PeakSearch.Status.FOUND, result.status());
        assertTrue(result.peakQps() <= 790, result.toString());
        assertTrue(result.failQps() <= 800 * 1.0001, result.toString());
        assertTrue(result.failQps() - result.peakQps() <= 0.01 * result.peakQps(), result.toString());
    }

    @Test
    void shouldSayWhenEveryTargetUpToTheMaximumPasses()
    {
        final Rule rule = new Rule((q, r) -> true);
        final PeakSearch.Result result = new PeakSearch(new PeakSearch.Limits(1, 5_000, 0.01, 2, 2, 100))
            .run(1_000, rule, QUIET);
        assertEquals(PeakSearch.Status.ABOVE_MAX, result.status());
        assertEquals(5_000, result.peakQps());
        assertTrue(Double.isNaN(result.failQps()));
        assertEquals(List.of(1_000.0, 2_000.0, 4_000.0, 5_000.0, 5_000.0),
            rule.calls.stream().map(c -> c[0]).toList());
    }

    @Test
    void shouldGiveUpAtTheMinimumWhenNothingPasses()
    {
        final Rule rule = new Rule((q, r) -> false);
        final PeakSearch.Result result = new PeakSearch(new PeakSearch.Limits(100, 1e9, 0.01, 3, 2, 100))
            .run(1_000, rule, QUIET);
        assertEquals(PeakSearch.Status.NONE_PASSED, result.status());
        assertTrue(Double.isNaN(result.peakQps()));
        assertEquals(100, result.failQps());
        assertEquals(List.of(1_000.0, 500.0, 250.0, 125.0, 100.0), rule.calls.stream().map(c -> c[0]).toList());
    }

    @Test
    void shouldStopAtTheRunLimitAndKeepWhatItFound()
    {
        final Rule rule = new Rule((q, r) -> q <= 777);
        final PeakSearch.Result result = new PeakSearch(new PeakSearch.Limits(1, 1e9, 0.001, 2, 2, 9))
            .run(100, rule, QUIET);
        assertEquals(PeakSearch.Status.RUN_LIMIT, result.status());
        assertEquals(9, result.runs().size());
        assertTrue(result.message().contains("9 runs"), result.message());
    }

    @Test
    void shouldStopWhenAskedAndKeepEveryFinishedRun()
    {
        final Rule rule = new Rule((q, r) -> q <= 1234);
        final PeakSearch search = new PeakSearch(limits(3));
        final PeakSearch.Result result = search.run(100, rule, (run, runs) ->
        {
            if (runs.size() == 6)
            {
                search.stop("interrupted by a test");
            }
        });
        assertEquals(PeakSearch.Status.STOPPED, result.status());
        assertEquals("interrupted by a test", result.message());
        assertEquals(6, result.runs().size());
        assertEquals(1600, result.failQps());
        // 800 passed once (bracketing), 1200 once (its first of 3 repeats): neither is confirmed.
        assertTrue(Double.isNaN(result.peakQps()), result.toString());
        assertEquals(1200, result.unconfirmedQps());
    }

    @Test
    void shouldNotCountAnAbortedRun()
    {
        final PeakSearch search = new PeakSearch(limits(1));
        final PeakSearch.Result result = search.run(100, (n, q, r) -> run(n, q, r,
            n == 3 ? ProbeRun.Verdict.ABORTED : ProbeRun.Verdict.VALID), QUIET);
        assertEquals(PeakSearch.Status.STOPPED, result.status());
        assertEquals(3, result.runs().size());
        assertEquals(200, result.peakQps());
        final PeakSearch.Point aborted = result.points().get(2);
        assertEquals(400, aborted.targetQps());
        assertEquals(0, aborted.runs());
    }

    @Test
    void shouldEndWithTheMessageOfATargetThatCannotBeJudged()
    {
        final PeakSearch.Result result = new PeakSearch(limits(1)).run(100, (n, q, r) ->
        {
            if (q > 500)
            {
                throw new IllegalArgumentException("the trace is too short at " + q);
            }
            return run(n, q, r, ProbeRun.Verdict.VALID);
        }, QUIET);
        assertEquals(PeakSearch.Status.UNJUDGEABLE, result.status());
        assertEquals("the trace is too short at 800.0", result.message());
        assertEquals(3, result.runs().size());
        assertEquals(400, result.peakQps());
    }

    @Test
    void shouldRefuseBadLimits()
    {
        assertMessage(() -> new PeakSearch.Limits(0, 10, 0.01, 1, 2, 1), "need 0 < --min-qps <= --max-qps");
        assertMessage(() -> new PeakSearch.Limits(20, 10, 0.01, 1, 2, 1), "need 0 < --min-qps <= --max-qps");
        assertMessage(() -> new PeakSearch.Limits(1, 10, 0, 1, 2, 1), "--resolution must be between 0 and 1");
        assertMessage(() -> new PeakSearch.Limits(1, 10, 1.5, 1, 2, 1), "--resolution must be between 0 and 1");
        assertMessage(() -> new PeakSearch.Limits(1, 10, 0.01, 0, 2, 1), "--repeats must be at least 1");
        assertMessage(() -> new PeakSearch.Limits(1, 10, 0.01, 1, 1, 1), "--step must be a number above 1");
        assertMessage(() -> new PeakSearch.Limits(1, 10, 0.01, 1, 2, 0), "--max-runs must be at least 1");
        assertMessage(() -> new PeakSearch(limits(1)).run(0, (n, q, r) -> null, QUIET),
            "the start QPS must be a positive number");
    }

    // The overhead runner's Server peak (benchmarks, ServerPeak) runs this search with step 2; these cases come from
    // the search it had of its own, with one run per target.

    private static List<Double> tried(final Rule rule)
    {
        return rule.calls.stream().map(c -> c[0]).toList();
    }

    private static PeakSearch.Result doubling(final double startQps, final double minQps, final double maxQps,
        final double resolution, final int maxRuns, final Rule rule)
    {
        return new PeakSearch(new PeakSearch.Limits(minQps, maxQps, resolution, 1, 2, maxRuns)).run(startQps, rule,
            QUIET);
    }

    @Test
    void shouldDoubleThenBisectToTheResolution()
    {
        final Rule rule = new Rule((q, r) -> q <= 2_300_000);
        final PeakSearch.Result result = doubling(500_000, 10_000, 20e6, 0.05, 20, rule);
        assertEquals(List.of(500e3, 1e6, 2e6, 4e6, 3e6, 2.5e6, 2.25e6, 2.375e6, 2.3125e6), tried(rule));
        assertEquals(PeakSearch.Status.FOUND, result.status());
        assertEquals(2_250_000, result.peakQps());
        assertEquals(2_312_500, result.failQps());
        assertTrue(result.failQps() - result.peakQps() <= 0.05 * result.peakQps());
    }

    @Test
    void shouldHalveWhileEvenTheStartFails()
    {
        final Rule rule = new Rule((q, r) -> q <= 150_000);
        final PeakSearch.Result result = doubling(500_000, 10_000, 20e6, 0.05, 20, rule);
        assertEquals(List.of(500e3, 250e3, 125e3, 187.5e3, 156.25e3, 140.625e3, 148.4375e3, 152.34375e3),
            tried(rule));
        assertEquals(148_437.5, result.peakQps());
        assertEquals(152_343.75, result.failQps());
    }

    @Test
    void shouldGiveUpAtTheMinimumWhenEvenItFails()
    {
        final Rule rule = new Rule((q, r) -> q <= 1_000);
        final PeakSearch.Result result = doubling(40_000, 10_000, 20e6, 0.05, 20, rule);
        assertEquals(List.of(40e3, 20e3, 10e3), tried(rule));
        assertEquals(PeakSearch.Status.NONE_PASSED, result.status());
        assertTrue(Double.isNaN(result.peakQps()));
        assertEquals(10_000, result.failQps());
    }

    @Test
    void shouldStopAtTheMaximumWhenEverythingPasses()
    {
        final Rule rule = new Rule((q, r) -> true);
        final PeakSearch.Result result = doubling(1e6, 10_000, 3e6, 0.05, 20, rule);
        assertEquals(List.of(1e6, 2e6, 3e6), tried(rule));
        assertEquals(PeakSearch.Status.ABOVE_MAX, result.status());
        assertEquals(3e6, result.peakQps());
        assertTrue(Double.isNaN(result.failQps()));
    }

    @Test
    void shouldStopAfterTheRunLimit()
    {
        final Rule rule = new Rule((q, r) -> q <= 2_300_000);
        final PeakSearch.Result result = doubling(500_000, 10_000, 20e6, 0.001, 4, rule);
        assertEquals(4, rule.calls.size());
        assertEquals(PeakSearch.Status.RUN_LIMIT, result.status());
    }

    @Test
    void shouldStartAtTheBoundNearestAStartOutsideTheLimits()
    {
        final Rule below = new Rule((q, r) -> q <= 50_000);
        doubling(5_000, 10_000, 20e6, 0.05, 1, below);
        assertEquals(List.of(10e3), tried(below));
        final Rule above = new Rule((q, r) -> true);
        doubling(5e6, 10_000, 1e6, 0.05, 1, above);
        assertEquals(List.of(1e6), tried(above));
    }

    private static void assertMessage(final org.junit.jupiter.api.function.Executable call, final String start)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, call);
        assertTrue(ex.getMessage().startsWith(start), ex.getMessage());
    }
}
