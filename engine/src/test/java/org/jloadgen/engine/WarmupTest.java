package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestScenario;
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
        assertTrue(Warmup.run(scenario, new EngineOptions().latencyHistogram(true), 20) >= 1);
        assertTrue(Warmup.run(scenario, new EngineOptions().latencyHistogram(false), 20) >= 1);
    }

    @Test
    void shouldWarmTheParkingWaitsWithoutChangingTheTestsCpuBudget()
    {
        // Two CPUs and one SUT thread: the test's Server wait is SLEEP, so the warm-up issues its paced trace too.
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration sut = budget.addSutThreads(1, "the test's SUT"))
        {
            final EngineOptions options = new EngineOptions().cpuBudget(budget);
            assertEquals(ServerWaitStrategy.SLEEP, IssueWaits.resolve(options).server());
            assertTrue(Warmup.run(TestScenario.SERVER, options, 1_000) >= 2,
                "the paced trace runs from the second round");
            assertEquals(List.of("the test's SUT"), budget.sutThreadDescriptions(),
                "the warm-up's own worker is not counted against the test's CPUs");
        }
    }

    @Test
    void shouldDoNothingWithoutABudget()
    {
        assertEquals(0, Warmup.run(TestScenario.SERVER, new EngineOptions(), 0));
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
