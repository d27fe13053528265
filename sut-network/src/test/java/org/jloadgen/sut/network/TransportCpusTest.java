package org.jloadgen.sut.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.concurrent.OtherProcesses;
import org.jloadgen.issue.IssueWaits;
import org.junit.jupiter.api.Test;

/**
 * What a network SUT counts against the CPU budget, and the waits the co-located cluster gets from it: two local
 * nodes and two event loops on 2 CPUs leave nothing to spin on, so the issue thread sleeps and parks.
 */
class TransportCpusTest
{
    @Test
    void shouldTellLocalHostsFromRemoteOnes()
    {
        assertTrue(TransportCpus.isLocal("127.0.0.1"));
        assertTrue(TransportCpus.isLocal("localhost"));
        assertTrue(TransportCpus.isLocal("[::1]"));
        assertTrue(TransportCpus.isLocal("0.0.0.0"));
        assertFalse(TransportCpus.isLocal("192.0.2.1"), "TEST-NET-1 is never this machine's");
        assertFalse(TransportCpus.isLocal("no-such-host.invalid"));
        assertEquals("127.0.0.1", TransportCpus.hostOf("127.0.0.1:8001"));
        assertEquals("[::1]", TransportCpus.hostOf("[::1]:8001"));
    }

    @Test
    void shouldLeaveNoCpuToSpinOnForTheCoLocatedCluster()
    {
        final CpuBudget budget = new CpuBudget(2, new OtherProcesses(0.1, 250, 2, true));
        final EngineOptions options = new EngineOptions().cpuBudget(budget);
        assertEquals(ServerWaitStrategy.SPIN, IssueWaits.resolve(options, 0).server(), "alone, it spins");
        try (TransportCpus cpus = TransportCpus.register(budget, 2, "KServe client: gRPC/Netty event loops for 2 "
            + "connections", List.of("node 'node-a' (127.0.0.1:8001)", "node 'node-b' (192.0.2.1:8001)"),
            List.of("127.0.0.1", "192.0.2.1")))
        {
            assertEquals(2, budget.sutThreads());
            assertEquals(1, budget.reservedThreads(), "only the local node reserves a CPU");
            assertEquals(List.of("KServe client: gRPC/Netty event loops for 2 connections: 2 threads, PARK (they wait "
                + "in epoll for the network)", "co-located server node 'node-a' (127.0.0.1:8001): 1 CPU reserved (a "
                + "loopback or local address: it answers on this machine's CPUs)"), budget.sutThreadDescriptions());
            final IssueWaits waits = IssueWaits.resolve(options, 0);
            assertEquals(ServerWaitStrategy.SLEEP, waits.server());
            assertEquals(CompletionWaitStrategy.PARK, waits.completion());
            assertTrue(waits.serverReason().startsWith("SLEEP (auto: 2 CPUs, 2 SUT threads, 1 reserved, 0 busy in "
                + "other processes (0.10 CPUs over 250 ms, /proc/stat), no CPU is left"), waits.serverReason());
        }
        assertEquals(0, budget.sutThreads() + budget.reservedThreads(), "closed with the SUT");
    }
}
