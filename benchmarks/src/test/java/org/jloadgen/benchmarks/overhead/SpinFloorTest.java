package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpinFloorTest
{
    @Test
    void shouldWaitForEveryDeadlineOfTheSchedule()
    {
        // 200 ms at 10k/s: about 2000 deadlines; lateness is never negative and the percentiles are ordered.
        final SpinFloor.Result r = SpinFloor.measure(10_000, 200, 7);
        assertTrue(r.deadlines() > 1_000 && r.deadlines() < 4_000, "deadlines " + r.deadlines());
        assertTrue(r.p50Ns() >= 0 && r.p50Ns() <= r.p99Ns() && r.p99Ns() <= r.p999Ns() && r.p999Ns() <= r.maxNs(),
            r.toString());
        assertTrue(r.stalledFraction() >= 0 && r.stalledFraction() <= 1, r.toString());
    }
}
