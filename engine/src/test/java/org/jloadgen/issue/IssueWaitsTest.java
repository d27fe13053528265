package org.jloadgen.issue;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IssueWaitsTest
{
    @Test
    void shouldSpinWhereACpuIsFreeForTheIssueThread()
    {
        final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(new CpuBudget(2)), 0);
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
                .parkSpinNs(20_000), 0);
            assertEquals(ServerWaitStrategy.SLEEP, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            assertEquals("SLEEP (auto: 2 CPUs, 1 SUT thread, the issue thread would share the one CPU left for "
                + "everything else; sleeps to each query with a 1 ns timer slack, as LoadGen sleeps)",
                waits.serverReason());
            assertEquals("PARK (auto: 2 CPUs, 1 SUT thread, the issue thread would share the one CPU left for "
                + "everything else; spins 20 us, then parks until the completing thread wakes it)",
                waits.completionReason());
        }
        assertEquals(ServerWaitStrategy.SLEEP, IssueWaits.resolve(new EngineOptions().cpuBudget(new CpuBudget(1)), 0)
            .server(), "1 CPU: nothing to spin on");
        final CpuBudget three = new CpuBudget(3);
        try (CpuBudget.Registration worker = three.addSutThreads(1, "null-worker"))
        {
            assertEquals(ServerWaitStrategy.SPIN, IssueWaits.resolve(new EngineOptions().cpuBudget(three), 0).server(),
                "3 CPUs: the worker, the spinning issue thread and one for everything else");
        }
    }

    @Test
    void shouldSleepLikeLoadGenWhenTheSutsThreadsNeedEveryCpu()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration workers = budget.addSutThreads(2, "cpu"))
        {
            final IssueWaits waits = IssueWaits.resolve(new EngineOptions().cpuBudget(budget), 0);
            assertEquals(ServerWaitStrategy.SLEEP, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            assertEquals("SLEEP (auto: 2 CPUs, 2 SUT threads, no CPU is left for the issue thread; sleeps to each "
                + "query with a 1 ns timer slack, as LoadGen sleeps)", waits.serverReason());
        }
        final CpuBudget four = new CpuBudget(4);
        try (CpuBudget.Registration workers = four.addSutThreads(2, "cpu"))
        {
            assertEquals(ServerWaitStrategy.SPIN, IssueWaits.resolve(new EngineOptions().cpuBudget(four), 0).server(),
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
                .serverWait(ServerWaitStrategy.SPIN).completionWait(CompletionWaitStrategy.SLEEP), 0);
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
                .serverWait(ServerWaitStrategy.HYBRID), 0);
            assertEquals(ServerWaitStrategy.HYBRID, explicit.server());
            assertEquals(100_000, explicit.hybridMinNs(), "the default 100 us window");
            assertEquals(400_000, explicit.hybridMaxNs(), "widens to 4 times it");
            assertEquals("HYBRID (set explicitly; parks between queries, spins the last 100 us, widened up to 400 us "
                + "when wake-ups are late)", explicit.serverReason());
        }
    }

    @Test
    void shouldSpinAQuarterOfTheGapOnTheSharedCpuWhereThatBeatsAWakeUp()
    {
        final CpuBudget budget = new CpuBudget(2);
        try (CpuBudget.Registration worker = budget.addSutThreads(1, "null-worker"))
        {
            final EngineOptions options = new EngineOptions().cpuBudget(budget);
            final IssueWaits at10k = IssueWaits.resolve(options, 10_000);
            assertEquals(ServerWaitStrategy.HYBRID, at10k.server());
            assertEquals(25_000, at10k.hybridMinNs(), "a quarter of the 100 us mean gap");
            assertEquals(25_000, at10k.hybridMaxNs(), "never widened past it");
            assertEquals(CompletionWaitStrategy.PARK, at10k.completion());
            assertEquals("HYBRID (auto: 2 CPUs, 1 SUT thread, the issue thread would share the one CPU left for "
                + "everything else; parks with a 1 ns timer slack until 25 us before each query and spins the rest: a "
                + "quarter of the 100 us mean gap at 10000 QPS, so it holds that CPU a quarter of the time at most)",
                at10k.serverReason());

            final IssueWaits at2k = IssueWaits.resolve(options, 2_000);
            assertEquals(100_000, at2k.hybridMinNs(), "a quarter of 500 us, capped at --hybrid-spin-ns");
            assertTrue(at2k.serverReason().contains("capped at --hybrid-spin-ns"), at2k.serverReason());

            final IssueWaits at12k = IssueWaits.resolve(options, 12_500);
            assertEquals(ServerWaitStrategy.HYBRID, at12k.server(), "20 us: the shortest window AUTO spins");
            assertEquals(IssueWaits.MIN_AUTO_WINDOW_NS, at12k.hybridMinNs());
            assertEquals(ServerWaitStrategy.SLEEP, IssueWaits.resolve(options, 25_000).server(), "10 us is too short");

            final IssueWaits at50k = IssueWaits.resolve(options, 50_000);
            assertEquals(ServerWaitStrategy.SLEEP, at50k.server());
            assertEquals("SLEEP (auto: 2 CPUs, 1 SUT thread, the issue thread would share the one CPU left for "
                + "everything else; a quarter of the 20 us mean gap at 50000 QPS is shorter than a wake-up (20 us); "
                + "sleeps to each query with a 1 ns timer slack, as LoadGen sleeps)", at50k.serverReason());
        }
        final CpuBudget full = new CpuBudget(2);
        try (CpuBudget.Registration workers = full.addSutThreads(2, "cpu"))
        {
            assertEquals(ServerWaitStrategy.SLEEP, IssueWaits.resolve(new EngineOptions().cpuBudget(full), 10_000)
                .server(), "no CPU left: the workers' CPUs are not spun on at any rate");
        }
    }
}
