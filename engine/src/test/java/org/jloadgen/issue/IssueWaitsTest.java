package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IssueWaitsTest
{
    @Test
    void shouldSpinWhereACpuIsFreeForTheIssueThread()
    {
        final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(new CpuBudget(2)));
        assertEquals(ServerWaitStrategy.SPIN, waits.server());
        assertEquals(CompletionWaitStrategy.SPIN, waits.completion());
        assertEquals("SPIN (auto: 2 CPUs, 0 SUT threads, a CPU is free for a spinning issue thread and one for "
            + "everything else)", waits.serverReason());
    }

    @Test
    void shouldParkWhenTheSutsThreadsTakeTheSpareCpu()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration worker = budget.addSutThreads(1, "null-worker"))
        {
            final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(budget).hybridSpinNs(30_000)
                .parkSpinNs(20_000));
            assertEquals(ServerWaitStrategy.HYBRID, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            assertEquals("HYBRID (auto: 2 CPUs, 1 SUT thread, the issue thread shares the one CPU left for everything "
                + "else; parks between queries, spins the last 30 us, widened up to 120 us when wake-ups are late)",
                waits.serverReason());
            assertEquals("PARK (auto: 2 CPUs, 1 SUT thread, the issue thread shares the one CPU left for everything "
                + "else; spins 20 us, then parks until the completing thread wakes it)", waits.completionReason());
        }
    }

    @Test
    void shouldSleepLikeLoadGenWhenTheSutsThreadsNeedEveryCpu()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration workers = budget.addSutThreads(2, "cpu"))
        {
            final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(budget));
            assertEquals(ServerWaitStrategy.SLEEP, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            assertEquals("SLEEP (auto: 2 CPUs, 2 SUT threads, no CPU is left for the issue thread; sleeps to each "
                + "query with a 1 ns timer slack, as LoadGen sleeps)", waits.serverReason());
        }
        final CpuBudget four = new CpuBudget(4);
        try (CpuBudget.Registration workers = four.addSutThreads(2, "cpu"))
        {
            assertEquals(ServerWaitStrategy.SPIN, IssueWaits.resolve(new EngineOptions().cpuBudget(four)).server(),
                "4 CPUs: 2 workers, the spinning issue thread and one for everything else");
        }
    }

    @Test
    void shouldKeepExplicitSettings()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration workers = budget.addSutThreads(2, "cpu"))
        {
            final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(budget)
                .serverWait(ServerWaitStrategy.SPIN).completionWait(CompletionWaitStrategy.SLEEP));
            assertEquals(ServerWaitStrategy.SPIN, waits.server());
            assertEquals(CompletionWaitStrategy.SLEEP, waits.completion());
            assertEquals("SPIN (set explicitly)", waits.serverReason());
            assertEquals("SLEEP (set explicitly)", waits.completionReason());
        }
    }

    @Test
    void shouldSpinAtMostAQuarterOfTheGapBetweenQueriesWhenSharingACpu()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration worker = budget.addSutThreads(1, "null-worker"))
        {
            final IssueWaits tenK = IssueWaits.resolve(new EngineOptions().cpuBudget(budget), 10_000);
            assertEquals(ServerWaitStrategy.HYBRID, tenK.server());
            assertEquals(25_000, tenK.hybridMinNs(), "100 us between queries: 25 us");
            assertEquals(25_000, tenK.hybridMaxNs());
            assertEquals("HYBRID (auto: 2 CPUs, 1 SUT thread, the issue thread shares the one CPU left for everything "
                + "else; parks between queries, spins the last 25 us, widened up to 25 us when wake-ups are late "
                + "(at most a quarter of the 100 us between queries))", tenK.serverReason());
            final IssueWaits oneK = IssueWaits.resolve(new EngineOptions().cpuBudget(budget), 1_000);
            assertEquals(100_000, oneK.hybridMinNs(), "1 ms between queries: the configured 100 us");
            assertEquals(250_000, oneK.hybridMaxNs(), "widens to a quarter of 1 ms, not 400 us");
            final IssueWaits explicit = IssueWaits.resolve(new EngineOptions().cpuBudget(budget)
                .serverWait(ServerWaitStrategy.HYBRID), 10_000);
            assertEquals(100_000, explicit.hybridMinNs(), "an explicit HYBRID keeps its window");
            assertEquals(400_000, explicit.hybridMaxNs());
        }
    }
}
