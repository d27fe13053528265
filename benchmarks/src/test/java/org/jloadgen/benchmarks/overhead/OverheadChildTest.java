package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class OverheadChildTest
{
    @Test
    void shouldReadVmHwmFromAProcStatusFile()
    {
        final List<String> status = List.of("Name:\tjava", "VmPeak:\t 8000000 kB", "VmHWM:\t  306092 kB",
            "VmRSS:\t  300000 kB");
        assertEquals(306092, OverheadChild.parseStatusKib(status, "VmHWM"));
        assertEquals(300000, OverheadChild.parseStatusKib(status, "VmRSS"));
        assertEquals(-1, OverheadChild.parseStatusKib(status, "VmSwap"));
    }

    @Test
    void shouldReadThisProcessPeak()
    {
        // Linux only (the budget machine); elsewhere the figure is reported as unknown.
        final long kib = OverheadChild.peakRssKib();
        assertTrue(kib == -1 || kib > 1024, "peak RSS " + kib + " KiB");
    }

    @Test
    void shouldReadUserAndSystemTicksFromAProcStatLine()
    {
        // Field 2 may contain spaces and parentheses; utime and stime are fields 14 and 15.
        final String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 567 0 0 20 0 30 0 100 "
            + "9000000 25000 18446744073709551615";
        assertEquals(1234 + 567, OverheadChild.parseStatTicks(stat));
        assertTrue(OverheadChild.cpuTicks() >= 0);
    }
}
