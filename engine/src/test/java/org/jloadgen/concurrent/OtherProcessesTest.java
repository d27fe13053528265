package org.jloadgen.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class OtherProcessesTest
{
    @Test
    void shouldSeeABusyNeighbourAndNotCountItsOwnTime() throws Exception
    {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat: not Linux");
        // Our own spinning is this process's time, which is never counted as another process's.
        final long ownBefore = OtherProcesses.ownTicks();
        final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        long spins = 0;
        while (System.nanoTime() - endNs < 0)
        {
            spins++;
        }
        assertTrue(spins > 0);
        assertTrue(OtherProcesses.ownTicks() - ownBefore >= 5, "300 ms of spinning is at least 5 ticks of CPU");

        // A neighbour that spins for the whole window keeps at least half a CPU busy on any machine: all of one
        // on a quiet one, and on a crowded one the other processes fill the rest.
        final Process neighbour = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try
        {
            Thread.sleep(100);
            final OtherProcesses busy = OtherProcesses.measure(500);
            assertTrue(busy.measured());
            assertTrue(busy.busyCpus() >= 0.5, busy.describe());
            assertTrue(busy.wholeCpus() >= 1, busy.describe());
            assertTrue(busy.describe().matches("\\d+ busy in other processes \\(\\d+\\.\\d\\d CPUs over 5\\d\\d ms, "
                + "/proc/stat\\)"), busy.describe());
        }
        finally
        {
            neighbour.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldMeasureFromWhenTheWindowWasOpenedAndWaitOnlyForWhatIsLeftOfItsMinimum() throws Exception
    {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat: not Linux");
        // Opened while the process starts: a neighbour busy since then is seen, over the whole span.
        final Process neighbour = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        try
        {
            final OtherProcesses.Window window = OtherProcesses.Window.open();
            Thread.sleep(600);
            final OtherProcesses busy = window.close(OtherProcesses.WINDOW_MS);
            assertTrue(busy.measured());
            assertTrue(busy.windowMs() >= 600, busy.describe());
            assertTrue(busy.busyCpus() >= 0.5, busy.describe());
        }
        finally
        {
            neighbour.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        // Closed at once, a window still lasts its minimum: /proc counts in 10 ms ticks.
        final OtherProcesses quick = OtherProcesses.Window.open().close(200);
        assertTrue(quick.measured());
        assertTrue(quick.windowMs() >= 200, quick.describe());
    }

    @Test
    void shouldNeedAShorterWindowWhereItsOwnCpuTimeIsExact() throws Exception
    {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat: not Linux");
        final OtherProcesses.Window window = OtherProcesses.Window.open();
        final boolean exact = org.jloadgen.bindings.NativeLibrary.isAvailable();
        assertEquals(exact ? OtherProcesses.PRECISE_WINDOW_MS : OtherProcesses.WINDOW_MS, window.minimumMs());
        final OtherProcesses figure = window.close(window.minimumMs());
        assertTrue(figure.measured());
        assertTrue(figure.windowMs() >= window.minimumMs(), figure.describe());
        assertEquals(Runtime.getRuntime().availableProcessors(), figure.cpusSeen(), figure.describe());
        // Its own time, to the ns, grows by what this thread spins (the fallback counts 10 ms ticks).
        final long beforeNs = OtherProcesses.ownCpuNs();
        final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30);
        while (System.nanoTime() - endNs < 0)
        {
            Thread.onSpinWait();
        }
        assertTrue(OtherProcesses.ownCpuNs() - beforeNs >= TimeUnit.MILLISECONDS.toNanos(exact ? 25 : 10));
    }

    @Test
    void shouldReadTheTicksOfTheCpusItMayRunOn() throws Exception
    {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat: not Linux");
        final BitSet first = new BitSet();
        first.set(0);
        final OtherProcesses.Idle one = OtherProcesses.idleTicks(first);
        final OtherProcesses.Idle all = OtherProcesses.idleTicks(new BitSet());
        assertEquals(1, one.cpus());
        assertTrue(all.cpus() >= Runtime.getRuntime().availableProcessors(), all + " for all CPUs");
        assertTrue(one.ticks() > 0 && all.ticks() >= one.ticks(), one + " of " + all);
    }

    @Test
    void shouldTakeAFixedFigureFromTheSystemProperty()
    {
        final String old = System.getProperty(OtherProcesses.BUSY_CPUS_PROP_NAME);
        try
        {
            System.setProperty(OtherProcesses.BUSY_CPUS_PROP_NAME, "1.4");
            final OtherProcesses fixed = OtherProcesses.configuredOr(OtherProcesses.Window.open());
            assertFalse(fixed.measured());
            assertEquals(1, fixed.wholeCpus());
            assertEquals("1 busy in other processes (1.40 CPUs, -Djloadgen.otherBusyCpus)", fixed.describe());
            System.setProperty(OtherProcesses.BUSY_CPUS_PROP_NAME, "lots");
            final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> OtherProcesses.configuredOr(OtherProcesses.Window.open()));
            assertEquals("-Djloadgen.otherBusyCpus must be a number of CPUs, got 'lots'", bad.getMessage());
        }
        finally
        {
            if (old == null)
            {
                System.clearProperty(OtherProcesses.BUSY_CPUS_PROP_NAME);
            }
            else
            {
                System.setProperty(OtherProcesses.BUSY_CPUS_PROP_NAME, old);
            }
        }
    }

    @Test
    void shouldKeepTheIssueThreadOffTheCpusANeighbourKeepsBusy()
    {
        final CpuBudget quiet = new CpuBudget(4, new OtherProcesses(0.2, 250, 4, true));
        assertTrue(quiet.canSpin(2), "0.2 of a CPU is not counted: 4 CPUs, 2 spinning, 1 for everything else");
        final CpuBudget shared = new CpuBudget(4, new OtherProcesses(1.6, 250, 4, true));
        assertEquals(2, shared.otherBusyCpus());
        assertFalse(shared.canSpin(2));
        assertTrue(shared.canSpin(1));
        assertEquals(2, shared.freeCpus());
        assertEquals("4 CPUs, 0 SUT threads, 2 busy in other processes (1.60 CPUs over 250 ms, /proc/stat)",
            shared.describe());
        assertEquals("4 CPUs, 0 SUT threads", new CpuBudget(4).describe(), "a plain budget counts no neighbours");
    }
}
