package org.jloadgen.concurrent;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuBudgetTest
{
    @Test
    void shouldLeaveOneCpuForEverythingElse()
    {
        final CpuBudget two = new CpuBudget(2);
        assertTrue(two.canSpin(1), "the inline null SUT's issue thread spins on a 2-CPU machine");
        assertFalse(two.canSpin(2), "two spinning threads would fill both CPUs");
        assertFalse(new CpuBudget(1).canSpin(1), "nothing spins on one CPU");
        assertTrue(new CpuBudget(16).canSpin(15));
        assertFalse(new CpuBudget(16).canSpin(16));
    }

    @Test
    void shouldCountRegisteredSutThreadsUntilTheyClose()
    {
        final CpuBudget budget = new CpuBudget(4);
        final CpuBudget.Registration workers = budget.addSutThreads(2, "sut: 2 workers");
        assertEquals(2, budget.sutThreads());
        assertTrue(budget.canSpin(1), "4 CPUs: 2 workers, the issue thread and one left over");
        final CpuBudget.Registration more = budget.addSutThreads(1, "other: 1 worker");
        assertFalse(budget.canSpin(1));
        assertEquals(List.of("sut: 2 workers", "other: 1 worker"), budget.sutThreadDescriptions());
        assertEquals("4 CPUs, 3 SUT threads", budget.describe());
        more.close();
        more.close();
        assertEquals(2, budget.sutThreads(), "closing twice removes once");
        workers.close();
        assertEquals(0, budget.sutThreads());
        assertEquals("4 CPUs, 0 SUT threads", budget.describe());
    }

    @Test
    void shouldTakeTheProcessCpusOnce()
    {
        assertEquals(Runtime.getRuntime().availableProcessors(), CpuBudget.process().cpus());
        assertThrows(IllegalArgumentException.class, () -> new CpuBudget(0));
        assertThrows(IllegalArgumentException.class, () -> new CpuBudget(2).addSutThreads(0, "none"));
    }

    @Test
    void shouldLeaveACpuForAReservedThreadSoThatASpinningWorkerParksInstead()
    {
        final CpuBudget two = new CpuBudget(2);
        assertTrue(two.canSpin(1), "2 CPUs: one worker may spin");
        try (CpuBudget.Registration loadGen = two.reserve(1, "LoadGen's issue thread"))
        {
            assertFalse(two.canSpin(1), "the reserved thread needs the CPU the worker would spin on");
            assertEquals(0, two.sutThreads());
            assertEquals(1, two.reservedThreads());
            assertEquals(1, two.freeCpus());
            assertEquals("2 CPUs, 0 SUT threads, 1 reserved", two.describe());
            assertEquals(List.of("LoadGen's issue thread"), two.sutThreadDescriptions());
        }
        assertTrue(two.canSpin(1), "released");
        assertEquals("2 CPUs, 0 SUT threads", two.describe());
        final CpuBudget four = new CpuBudget(4);
        try (CpuBudget.Registration loadGen = four.reserve(1, "LoadGen's issue thread"))
        {
            assertTrue(four.canSpin(2), "4 CPUs: one for everything else, one reserved, two spinning workers");
            assertFalse(four.canSpin(3));
        }
    }
}
