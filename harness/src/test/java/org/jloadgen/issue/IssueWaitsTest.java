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
        assertEquals("SPIN (auto: 2 CPUs, 0 SUT threads, a CPU is free for a spinning issue thread after one for "
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
            assertEquals("HYBRID (auto: 2 CPUs, 1 SUT thread, no CPU is free for a spinning issue thread after one for "
                + "everything else; spin window 30 us, widened to twice the longest recent wake-up delay)",
                waits.serverReason());
            assertEquals("PARK (auto: 2 CPUs, 1 SUT thread, no CPU is free for a spinning issue thread after one for "
                + "everything else; spins 20 us, then parks until the completing thread wakes it)",
                waits.completionReason());
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
}
