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
    void shouldSleepLikeLoadGenWhenTheIssueThreadWouldShareTheSpareCpu()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration worker = budget.addSutThreads(1, "null-worker"))
        {
            final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(budget).hybridSpinNs(30_000)
                .parkSpinNs(20_000));
            assertEquals(ServerWaitStrategy.SLEEP, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            assertEquals("SLEEP (auto: 2 CPUs, 1 SUT thread, the issue thread would share the one CPU left for "
                + "everything else; sleeps to each query with a 1 ns timer slack, as LoadGen sleeps)",
                waits.serverReason());
            assertEquals("PARK (auto: 2 CPUs, 1 SUT thread, the issue thread would share the one CPU left for "
                + "everything else; spins 20 us, then parks until the completing thread wakes it)",
                waits.completionReason());
        }
        assertEquals(ServerWaitStrategy.SLEEP, IssueWaits.resolve(new EngineOptions().cpuBudget(new CpuBudget(1)))
            .server(), "1 CPU: nothing to spin on");
        final CpuBudget three = new CpuBudget(3);
        try (CpuBudget.Registration worker = three.addSutThreads(1, "null-worker"))
        {
            assertEquals(ServerWaitStrategy.SPIN, IssueWaits.resolve(new EngineOptions().cpuBudget(three)).server(),
                "3 CPUs: the worker, the spinning issue thread and one for everything else");
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
    void shouldKeepAnExplicitHybridWindow()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration worker = budget.addSutThreads(1, "null-worker"))
        {
            final IssueWaits explicit = IssueWaits.resolve(new EngineOptions().cpuBudget(budget)
                .serverWait(ServerWaitStrategy.HYBRID));
            assertEquals(ServerWaitStrategy.HYBRID, explicit.server());
            assertEquals(100_000, explicit.hybridMinNs(), "the default 100 us window");
            assertEquals(400_000, explicit.hybridMaxNs(), "widens to 4 times it");
            assertEquals("HYBRID (set explicitly; parks between queries, spins the last 100 us, widened up to 400 us "
                + "when wake-ups are late)", explicit.serverReason());
        }
    }
}
