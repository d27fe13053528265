package org.jloadgen.bindings;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ProcessCpuTimeTest
{
    @Test
    void shouldCountTheCpuTimeOfEveryThreadToTheNanosecondExitedOnesToo() throws Exception
    {
        Assumptions.assumeTrue(NativeLibrary.isAvailable(), "no native library");
        final long beforeNs = ProcessCpuTime.nanosOrMinusOne();
        assertTrue(beforeNs > 0, "a running JVM has used CPU: " + beforeNs);
        // 30 ms of spinning on a thread that then exits: its time stays in the process's.
        final Thread spinner = new Thread(() -> spin(30));
        spinner.start();
        spinner.join();
        final long afterNs = ProcessCpuTime.nanosOrMinusOne();
        assertTrue(afterNs - beforeNs >= TimeUnit.MILLISECONDS.toNanos(25), (afterNs - beforeNs) + " ns");
        // Finer than the kernel's 10 ms ticks: readings a few microseconds of work apart differ, by less than a tick.
        long first = ProcessCpuTime.nanosOrMinusOne();
        long second = first;
        for (int i = 0; i < 1_000 && second == first; i++)
        {
            second = ProcessCpuTime.nanosOrMinusOne();
        }
        assertTrue(second > first && second - first < TimeUnit.MILLISECONDS.toNanos(10), (second - first) + " ns");
    }

    private static void spin(final long ms)
    {
        final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        long spins = 0;
        while (System.nanoTime() - endNs < 0)
        {
            spins++;
        }
        assertTrue(spins > 0);
    }
}
