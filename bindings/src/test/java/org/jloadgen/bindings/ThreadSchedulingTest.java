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

    @Test
    void shouldSetThePolicyOfAnotherThreadByItsId() throws Exception
    {
        final java.util.concurrent.CompletableFuture<Long> tid = new java.util.concurrent.CompletableFuture<>();
        final java.util.concurrent.CountDownLatch checked = new java.util.concurrent.CountDownLatch(1);
        final Thread other = new Thread(() ->
        {
            tid.complete(ThreadAffinity.currentThreadId());
            try
            {
                checked.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "scheduling-target");
        other.start();
        try
        {
            final long id = tid.get();
            assertEquals(ThreadScheduling.SCHED_OTHER, ThreadScheduling.policyOf(id));
            assertTrue(ThreadScheduling.trySetPolicy(id, ThreadScheduling.SCHED_IDLE));
            assertEquals(ThreadScheduling.SCHED_IDLE, ThreadScheduling.policyOf(id));
            assertEquals(ThreadScheduling.SCHED_OTHER, ThreadScheduling.policy(), "the caller keeps its policy");
        }
        finally
        {
            checked.countDown();
            other.join();
        }
        assertThrows(IllegalArgumentException.class, () -> ThreadScheduling.trySetPolicy(0, 1), "SCHED_FIFO");
        // A thread id that is not (or no longer) a thread: refused, not thrown.
        assertEquals(false, ThreadScheduling.trySetPolicy(Integer.MAX_VALUE, ThreadScheduling.SCHED_IDLE));
        assertThrows(NativeException.class, () -> ThreadScheduling.policyOf(Integer.MAX_VALUE));
    }

    private static void inFreshThread(final FreshThread.ThrowingRunnable body) throws Exception
    {
        FreshThread.run("scheduling-test", body);
    }
}
