package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuLoadTest
{
    @Test
    void shouldCountEverythingButIdleAndIowaitAsBusy()
    {
        // user nice system idle iowait irq softirq steal guest guest_nice
        final long[] t = CpuLoad.parse("cpu  310735 0 12394 202880 361 0 476 2060 0 0");
        assertArrayEquals(new long[] {310735 + 12394 + 476 + 2060, 310735 + 12394 + 202880 + 361 + 476 + 2060}, t);
    }

    @Test
    void shouldComputeTheBusyFractionOfAnInterval()
    {
        assertEquals(0.25, CpuLoad.busyFraction(new long[] {100, 1000}, new long[] {150, 1200}));
        assertEquals(0, CpuLoad.busyFraction(new long[] {100, 1000}, new long[] {100, 1000}));
    }

    @Test
    void shouldRejectAPerCpuLine()
    {
        assertThrows(IllegalArgumentException.class, () -> CpuLoad.parse("cpu0 1 2 3 4 5"));
    }

    @Test
    void shouldMeasureThisMachine() throws InterruptedException
    {
        final double busy = CpuLoad.busyFraction(50);
        assertTrue(Double.isNaN(busy) || (busy >= 0 && busy <= 1), "busy " + busy);
    }
}
