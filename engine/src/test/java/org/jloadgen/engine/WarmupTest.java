package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.issue.IssueWaits;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class WarmupTest
{
    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldIssueTheSameTraceRoundAfterRoundInEveryScenario(final TestScenario scenario)
    {
        // A completion of a reused trace that was not reset would be a duplicate and stall the round on the
        // completion timeout; each scenario runs rounds with and without the latency histogram.
        // And with issue times kept per query (a Chrome trace), which a SingleStream recorder keeps latencies without.
        for (final boolean keepsIssueTimes : new boolean[] {false, true})
        {
            assertTrue(Warmup.run(test(scenario), new EngineOptions().latencyHistogram(true), 20, null,
                keepsIssueTimes).rounds() >= 1);
            assertTrue(Warmup.run(test(scenario), new EngineOptions().latencyHistogram(false), 20, null,
                keepsIssueTimes).rounds() >= 1);
        }
    }

    @Test
    void shouldWarmTheParkingWaitsWithoutChangingTheTestsCpuBudget()
    {
        // Two CPUs and one SUT thread: the test's Server wait is SLEEP, so the warm-up issues its paced trace too.
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration sut = budget.addSutThreads(1, "the test's SUT"))
        {
            final EngineOptions options = new EngineOptions().cpuBudget(budget);
            assertEquals(ServerWaitStrategy.SLEEP, IssueWaits.resolve(options, 0).server());
            assertTrue(Warmup.run(test(TestScenario.SERVER), options, 1_000, null, false).rounds() >= 2,
                "the paced trace runs from the second round");
            assertEquals(List.of("the test's SUT"), budget.sutThreadDescriptions(),
                "the warm-up's own worker is not counted against the test's CPUs");
        }
    }

    @Test
    void shouldGiveTheWarmupTheTestsEndConditionsAtLimitsNoRoundReaches()
    {
        // Each end condition is a branch of the issue loop's end check: the warm-up takes the test's shape of it, so
        // that C2 does not compile a trap the test's first query springs, without ever ending a round on it.
        final EffectiveSettings limited = new EffectiveSettings(new TestSettings().scenario(TestScenario.SERVER)
            .maxDurationMs(10_000).maxQueryCount(5).serverMaxAsyncQueries(3), 1024, 1024);
        final TestSettings mirrored = Warmup.endConditionsOf(limited, new TestSettings()
            .scenario(TestScenario.SERVER));
        assertEquals(Long.MAX_VALUE / 1_000_000L, mirrored.maxDurationMs());
        assertTrue(mirrored.maxDurationMs() * 1_000_000L > 0, "its nanoseconds fit a long");
        assertEquals(Long.MAX_VALUE, mirrored.maxQueryCount());
        assertEquals(Long.MAX_VALUE, mirrored.serverMaxAsyncQueries());

        final TestSettings open = Warmup.endConditionsOf(test(TestScenario.SERVER), new TestSettings()
            .scenario(TestScenario.SERVER));
        assertEquals(0, open.maxDurationMs());
        assertEquals(0, open.maxQueryCount());
        assertEquals(0, open.serverMaxAsyncQueries());
    }

    @Test
    void shouldDoNothingWithoutABudget()
    {
        final Warmup.Warmed none = Warmup.run(test(TestScenario.SERVER), new EngineOptions(), 0, null, false);
        assertEquals(0, none.rounds());
        assertEquals(null, none.ending(), "no ending, so no jloadgen_warmup record");
    }

    private static EffectiveSettings test(final TestScenario scenario)
    {
        return new EffectiveSettings(new TestSettings().scenario(scenario), 1024, 1024);
    }

    @Test
    void shouldStopAfterTheBudgetAndNotLaterThanTheCap()
    {
        final long startNs = System.nanoTime();
        final WarmupClock clock = new WarmupClock(20);
        int rounds = 0;
        while (clock.another(0, 1_000))
        {
            rounds++;
        }
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000L;
        assertTrue(rounds >= 1 && elapsedMs >= 20, rounds + " rounds, " + elapsedMs + " ms");
        // The cap is 4 budgets (80 ms); the slack is for a busy machine between two calls.
        assertTrue(elapsedMs < 80 + 2_000, elapsedMs + " ms");
        assertTrue(clock.ending() != null);
    }

    @Test
    void shouldCountWorkBeforeTheRoundsTowardsTheBudgetDownToHalfOfIt()
    {
        // A quiet JIT and rounds of one time: the warm-up ends once its budget has passed.
        final WarmupClock shortened = WarmupClock.afterPreparation(400, 100_000_000L, () -> 3);
        assertTrue(end(shortened) != WarmupClock.Ending.CAP, shortened.ending().toString());
        assertTrue(shortened.elapsedNs() >= 300_000_000L, shortened.elapsedNs() + " ns: 400 ms less the 100 prepared");
        // However long the preparation, half the budget is left to the rounds.
        final WarmupClock halved = WarmupClock.afterPreparation(400, 10_000_000_000L, () -> 3);
        end(halved);
        assertTrue(halved.elapsedNs() >= 200_000_000L, halved.elapsedNs() + " ns: at least half the budget");
    }

    @Test
    void shouldKeepTheWholeCapForTheRoundsAfterWorkBeforeThem()
    {
        // Rounds that keep getting faster while the JIT keeps compiling run to the cap: 4 budgets from the rounds'
        // start (160 ms), not 4 of the budget that the preparation shortened (80 ms).
        final long[] compiledMs = {0};
        final WarmupClock clock = WarmupClock.afterPreparation(40, 1_000_000_000L, () -> ++compiledMs[0]);
        final long[] roundNs = {Long.MAX_VALUE / 2};
        runRounds(clock, i -> roundNs[0] = roundNs[0] / 100 * 85);
        assertEquals(WarmupClock.Ending.CAP, clock.ending());
        assertTrue(clock.elapsedNs() >= 160_000_000L, clock.elapsedNs() + " ns");
    }

    private static WarmupClock.Ending end(final WarmupClock clock)
    {
        runRounds(clock, i -> 1_000_000L);
        return clock.ending();
    }

    @Test
    void shouldEndOnceTheRoundsSettleWhileTheJitStillCompiles()
    {
        // The JIT finishes a compilation before every round, as at start-up: rounds of one unchanging time end the
        // warm-up once the budget has passed and no round was a tenth faster for SETTLED_NS, before the cap.
        final long[] compiledMs = {0};
        final WarmupClock clock = new WarmupClock(50, () -> ++compiledMs[0]);
        final int[] rounds = {0};
        final long ms = runRounds(clock, i ->
        {
            rounds[0]++;
            return 1_000_000L;
        });
        assertEquals(WarmupClock.Ending.SETTLED, clock.ending());
        assertTrue(ms >= WarmupClock.SETTLED_NS / 1_000_000L, ms + " ms");
        assertTrue(rounds[0] > WarmupClock.SETTLED_ROUNDS, rounds[0] + " rounds");
    }

    @Test
    void shouldNotSettleOnFewerRoundsThanItTakesToTellAGain()
    {
        // Rounds of 40 ms each (a Server worker round on a slow machine): 100 ms without a gain is under 3 rounds, so
        // the warm-up waits for SETTLED_ROUNDS of them (360 ms, before the cap of 800 ms).
        final long[] compiledMs = {0};
        final WarmupClock clock = new WarmupClock(200, () -> ++compiledMs[0]);
        int round = 0;
        do
        {
            sleepMs(40);
            round++;
        }
        while (clock.another(0, 40_000_000L));
        assertEquals(WarmupClock.Ending.SETTLED, clock.ending());
        assertEquals(WarmupClock.SETTLED_ROUNDS + 1, round, "the first round and SETTLED_ROUNDS without a gain");
    }

    @Test
    void shouldNotCountRoundsTimedByTheScheduleTowardsSettling()
    {
        // Only rounds without a time (a paced Server trace): nothing to settle, so the JIT or the cap decides.
        final long[] compiledMs = {0};
        final WarmupClock compiling = new WarmupClock(20, () -> ++compiledMs[0]);
        do
        {
            sleepMs(1);
        }
        while (compiling.another());
        assertEquals(WarmupClock.Ending.CAP, compiling.ending());
        final WarmupClock quiet = new WarmupClock(50, () -> 3);
        do
        {
            sleepMs(1);
        }
        while (quiet.another());
        assertEquals(WarmupClock.Ending.JIT_QUIET, quiet.ending());
    }

    @Test
    void shouldGoOnToTheCapWhileRoundsGetFasterAndTheJitCompiles()
    {
        // Every round 15% faster than the one before (a gain each time, as C1 and then C2 code arrive): the cap ends
        // it, however long each call takes.
        final long[] compiledMs = {0};
        final WarmupClock clock = new WarmupClock(20, () -> ++compiledMs[0]);
        final long ms = runRounds(clock, i -> (long)(1e15 * Math.pow(0.85, i)));
        assertEquals(WarmupClock.Ending.CAP, clock.ending());
        assertTrue(ms >= 4 * 20, ms + " ms");
    }

    @Test
    void shouldEndOnceTheJitIsQuietWhileRoundsStillGetFaster()
    {
        final WarmupClock clock = new WarmupClock(50, () -> 7);
        final long ms = runRounds(clock, i -> (long)(1e15 * Math.pow(0.85, i)));
        assertEquals(WarmupClock.Ending.JIT_QUIET, clock.ending());
        assertTrue(ms >= WarmupClock.JIT_QUIET_NS / 1_000_000L, ms + " ms");
    }

    @Test
    void shouldEndAfterTheBudgetWhereTheJvmDoesNotTimeItsCompilations()
    {
        final WarmupClock clock = new WarmupClock(30, null);
        final long ms = runRounds(clock, i -> (long)(1e15 * Math.pow(0.85, i)));
        assertEquals(WarmupClock.Ending.BUDGET, clock.ending());
        assertTrue(ms >= 30, ms + " ms");
    }

    @Test
    void shouldCountAGainOnlyForARoundATenthFasterThanItsKindsLastGain()
    {
        // Noise of 5% either way around a steady time is no gain: the warm-up settles.
        final long[] compiledMs = {0};
        final WarmupClock noisy = new WarmupClock(50, () -> ++compiledMs[0]);
        runRounds(noisy, i -> i % 2 == 0 ? 1_050_000L : 950_000L);
        assertEquals(WarmupClock.Ending.SETTLED, noisy.ending());
        // A slow drift is: 4% faster a round is a tenth faster than the last gain every third round, so it goes on.
        final WarmupClock drifting = new WarmupClock(20, () -> ++compiledMs[0]);
        runRounds(drifting, i -> (long)(1e15 * Math.pow(0.96, i)));
        assertEquals(WarmupClock.Ending.CAP, drifting.ending());
        assertThrows(IllegalArgumentException.class, () -> drifting.another(WarmupClock.MAX_KINDS, 1));
        assertThrows(IllegalArgumentException.class, () -> drifting.another(-1, 1));
    }

    @Test
    void shouldSettleOnlyOnceEveryKindOfRoundHasSettled()
    {
        // Kind 0 steady from the start, kind 1 15% faster every 20 ms until 200 ms: the warm-up goes on past the
        // budget while kind 1 gains, and settles SETTLED_NS after kind 1's last gain, before the cap (400 ms).
        final long[] compiledMs = {0};
        final WarmupClock clock = new WarmupClock(100, () -> ++compiledMs[0]);
        final long startNs = System.nanoTime();
        int round = 0;
        boolean another;
        do
        {
            sleepMs(1);
            final long ms = (System.nanoTime() - startNs) / 1_000_000L;
            another = round % 2 == 0 ? clock.another(0, 1_000_000L)
                : clock.another(1, (long)(1e12 * Math.pow(0.85, Math.min(ms, 200) / 20)));
            round++;
        }
        while (another);
        final long ms = (System.nanoTime() - startNs) / 1_000_000L;
        assertEquals(WarmupClock.Ending.SETTLED, clock.ending(), ms + " ms");
        assertTrue(ms >= 200 + WarmupClock.SETTLED_NS / 1_000_000L - 20, ms + " ms");
    }

    /**
     * @return the warm-up's length in ms, by its own clock.
     */
    private static long runRounds(final WarmupClock clock, final java.util.function.IntToLongFunction roundNs)
    {
        int round = 0;
        do
        {
            sleepMs(1);
        }
        while (clock.another(0, roundNs.applyAsLong(round++)));
        return clock.elapsedNs() / 1_000_000L;
    }

    private static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
