package org.jloadgen.bindings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadSchedulingTest
{
    @Test
    void shouldSetTheTimerSlackOfTheCallingThreadOnly() throws Exception
    {
        final long before = ThreadScheduling.timerSlackNs();
        inFreshThread(() ->
        {
            assertTrue(ThreadScheduling.trySetTimerSlackNs(1_000));
            assertEquals(1_000, ThreadScheduling.timerSlackNs());
            assertTrue(ThreadScheduling.trySetTimerSlackNs(1));
            assertEquals(1, ThreadScheduling.timerSlackNs());
        });
        assertEquals(before, ThreadScheduling.timerSlackNs(), "other threads keep their slack");
        assertThrows(IllegalArgumentException.class, () -> ThreadScheduling.trySetTimerSlackNs(0));
    }

    @Test
    void shouldGiveTheCallingThreadTheIdlePolicy() throws Exception
    {
        assertEquals(ThreadScheduling.SCHED_OTHER, ThreadScheduling.policy());
        inFreshThread(() ->
        {
            assertTrue(ThreadScheduling.tryRunOnlyWhenIdle());
            assertEquals(ThreadScheduling.SCHED_IDLE, ThreadScheduling.policy());
            // The kernel's own view: field 41 of /proc/thread-self/stat is the policy.
            final String stat = Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.US_ASCII);
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            assertEquals(String.valueOf(ThreadScheduling.SCHED_IDLE), fields[41 - 3]);
        });
        assertEquals(ThreadScheduling.SCHED_OTHER, ThreadScheduling.policy(), "other threads keep their policy");
    }

    private static void inFreshThread(final FreshThread.ThrowingRunnable body) throws Exception
    {
        FreshThread.run("scheduling-test", body);
    }
}
