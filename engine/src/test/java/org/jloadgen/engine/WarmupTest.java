package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertTrue(Warmup.run(test(scenario), new EngineOptions().latencyHistogram(true), 20) >= 1);
        assertTrue(Warmup.run(test(scenario), new EngineOptions().latencyHistogram(false), 20) >= 1);
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
            assertTrue(Warmup.run(test(TestScenario.SERVER), options, 1_000) >= 2,
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
        assertEquals(0, Warmup.run(test(TestScenario.SERVER), new EngineOptions(), 0));
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
        while (clock.another())
        {
            rounds++;
        }
        final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000L;
        assertTrue(rounds >= 1 && elapsedMs >= 20, rounds + " rounds, " + elapsedMs + " ms");
        // The cap is 4 budgets (80 ms); the slack is for a busy machine between two calls.
        assertTrue(elapsedMs < 80 + 2_000, elapsedMs + " ms");
    }
}
