package org.jloadgen.overhead;

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
}
