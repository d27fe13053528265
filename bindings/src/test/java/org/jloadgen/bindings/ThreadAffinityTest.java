package org.jloadgen.bindings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadAffinityTest
{
    @Test
    void shouldReadTheAffinityTheKernelReports() throws Exception
    {
        inFreshThread(() ->
        {
            final BitSet kernel = ThreadAffinity.parseCpuList(
                ProcSelf.statusField("/proc/thread-self/status", "Cpus_allowed_list"));
            assertEquals(kernel, ThreadAffinity.currentThreadCpus());
            assertTrue(kernel.get(ThreadAffinity.currentCpu().cpu()));
        });
    }

    @Test
    void shouldPinTheCallingThreadOnly() throws Exception
    {
        final BitSet before = ThreadAffinity.currentThreadCpus();
        inFreshThread(() ->
        {
            final BitSet allowed = ThreadAffinity.currentThreadCpus();
            final int cpu = allowed.previousSetBit(allowed.length());
            final BitSet one = new BitSet();
            one.set(cpu);

            ThreadAffinity.pinCurrentThread(one);

            assertEquals(one, ThreadAffinity.currentThreadCpus());
            assertEquals(String.valueOf(cpu), ProcSelf.statusField("/proc/thread-self/status", "Cpus_allowed_list"));
            Thread.yield();
            assertEquals(cpu, ThreadAffinity.currentCpu().cpu());
        });
        assertEquals(before, ThreadAffinity.currentThreadCpus(), "other threads keep their affinity");
    }

    @Test
    void shouldExplainOrWarnWhenNoCpuOfTheSetIsAllowed() throws Exception
    {
        inFreshThread(() ->
        {
            final BitSet before = ThreadAffinity.currentThreadCpus();
            final BitSet absent = new BitSet();
            absent.set(4095);

            final NativeException ex =
                assertThrows(NativeException.class, () -> ThreadAffinity.pinCurrentThread(absent));
            assertEquals("EINVAL", ex.errnoName());
            assertTrue(ex.getMessage().matches("cannot pin thread \\d+ \\(affinity-test\\) to CPUs 4095: " +
                "sched_setaffinity failed with EINVAL \\(Invalid argument\\); none of these CPUs is online and " +
                "allowed to this process \\(allowed now: .+\\)"), ex.getMessage());

            assertFalse(ThreadAffinity.tryPinCurrentThread(absent));
            assertEquals(before, ThreadAffinity.currentThreadCpus());
            assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.pinCurrentThread(new BitSet()));
        });
    }

    @Test
    void shouldGiveTheKernelThreadId() throws Exception
    {
        inFreshThread(() ->
        {
            final String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            assertEquals(Long.parseLong(link.substring(link.lastIndexOf('/') + 1)), ThreadAffinity.currentThreadId());
        });
    }

    @Test
    void shouldParseAndFormatCpuLists()
    {
        final BitSet cpus = ThreadAffinity.parseCpuList(" 0-3, 8,10-11 ");
        assertEquals("{0, 1, 2, 3, 8, 10, 11}", cpus.toString());
        assertEquals("0-3,8,10-11", ThreadAffinity.formatCpuList(cpus));
        assertEquals("5", ThreadAffinity.formatCpuList(ThreadAffinity.parseCpuList("5")));

        assertEquals("bad CPU range '3-1' in CPU list '3-1'",
            assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.parseCpuList("3-1")).getMessage());
        assertEquals("bad CPU number 'x' in CPU list '1,x'",
            assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.parseCpuList("1,x")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.parseCpuList("1,"));
        assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.parseCpuList(""));
    }

    private static void inFreshThread(final FreshThread.ThrowingRunnable body) throws Exception
    {
        FreshThread.run("affinity-test", body);
    }
}
