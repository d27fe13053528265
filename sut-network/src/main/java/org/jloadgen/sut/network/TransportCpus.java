package org.jloadgen.sut.network;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.concurrent.CpuBudget;

/**
 * What a network SUT counts against the process's {@link CpuBudget}, so that the engine's issue thread (and any
 * toolkit worker) spins only on a CPU the transport does not need: the transport's own threads (gRPC/Netty event
 * loops, the HTTP client's selector and callback threads: they read and write every request and complete its
 * sample), and one CPU for each server it loads that runs on this machine (a loopback or local address: its event
 * loop and SUT answer on the same CPUs). Each line goes to the detail log as {@code jloadgen_sut_threads}.
 */
public final class TransportCpus implements AutoCloseable
{
    private final List<CpuBudget.Registration> registrations = new ArrayList<>();

    private TransportCpus()
    {
    }

    /**
     * @param budget      the process's budget.
     * @param threads     transport threads busy with this SUT's requests.
     * @param description who they are, e.g. {@code KServe client: gRPC/Netty event loops, one per connection}.
     * @param servers     every server as {@code name (host:port)} or a URL, with its host.
     * @param hosts       the servers' hosts, in the same order.
     * @return the registrations, closed with the SUT.
     */
    public static TransportCpus register(final CpuBudget budget, final int threads, final String description,
        final List<String> servers, final List<String> hosts)
    {
        final TransportCpus cpus = new TransportCpus();
        cpus.registrations.add(budget.addSutThreads(Math.max(1, threads), description + ": " + Math.max(1, threads)
            + (threads == 1 ? " thread" : " threads") + ", PARK (they wait in epoll for the network)"));
        for (int i = 0; i < servers.size(); i++)
        {
            if (isLocal(hosts.get(i)))
            {
                cpus.registrations.add(budget.reserve(1, "co-located server " + servers.get(i) + ": 1 CPU reserved "
                    + "(a loopback or local address: it answers on this machine's CPUs)"));
            }
        }
        return cpus;
    }

    /**
     * @param host a host name or address.
     * @return whether it is this machine (loopback, the wildcard address, or an address of one of its interfaces).
     */
    public static boolean isLocal(final String host)
    {
        try
        {
            final String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
                : host;
            for (final InetAddress address : InetAddress.getAllByName(bare))
            {
                if (address.isLoopbackAddress() || address.isAnyLocalAddress()
                    || NetworkInterface.getByInetAddress(address) != null)
                {
                    return true;
                }
            }
            return false;
        }
        catch (final UnknownHostException | SocketException ex)
        {
            return false;
        }
    }

    /**
     * @param endpoint {@code host:port} or {@code [v6]:port}.
     * @return the host.
     */
    public static String hostOf(final String endpoint)
    {
        final int colon = endpoint.lastIndexOf(':');
        return colon < 0 ? endpoint : endpoint.substring(0, colon);
    }

    /**
     * Stops counting (idempotent).
     */
    @Override
    public void close()
    {
        registrations.forEach(CpuBudget.Registration::close);
    }
}
