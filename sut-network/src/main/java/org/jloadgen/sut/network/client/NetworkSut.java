package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SutLogNotes;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.TransportCpus;
import org.jloadgen.sut.network.WarmupSink;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;
import org.jloadgen.sut.network.kserve.proto.ServerMetadataRequest;

/**
 * The query dispatch library (QDL) of the MLPerf Network division over KServe v2 gRPC: a single SUT to the engine,
 * a fleet of inference servers behind it.
 * <p>
 * Each sample goes to one node in its own {@code ModelInfer} call (or, with {@code stream=true}, as one message
 * on the node's {@code ModelStreamInfer} stream), its tensor taken unchanged from the sample slab:
 * no batching, caching, padding or conversion in the client, as the rules ask. {@link #issueQuery} picks a node
 * with a free in-flight slot (least outstanding or round robin), starts the call and returns; when every slot of
 * every node is busy it waits for one. The answer completes the sample from gRPC's transport thread. {@link #name}
 * asks every node for its name over the network.
 * <p>
 * A node that refuses a call, answers with an error or an unreadable message, or leaves a call unanswered for
 * {@code timeout-ms}, fails the run: the engine gets {@link ResponseSink#fail} with the node's name and address,
 * what it answered and how many samples were lost on it, stops issuing, and ends the run INVALID.
 */
public final class NetworkSut implements SystemUnderTest, SutLogNotes, AutoCloseable
{
    /** Detail-log key of the warm-up's line. */
    public static final String WARMUP_KEY = "jloadgen_network_warmup";
    /** Calls in flight per node during the warm-up. */
    static final int WARMUP_IN_FLIGHT = 16;
    /** How long the warm-up waits for its last answers. */
    static final long WARMUP_DRAIN_MS = 10_000;

    /** Longest park of the issuing thread while every slot is in flight. */
    static final long WAIT_MAX_PARK_NS = 50_000;

    private final Node[] nodes;
    private final NetworkQsl qsl;
    private final NetworkSutOptions options;
    private final IdleStrategy waitIdle = new BackoffIdleStrategy(100, 20, 1_000, WAIT_MAX_PARK_NS);
    private final FleetMonitor monitor;
    private final TransportCpus transportCpus;
    private String warmup = "none (warmup-ms=0)";
    /** Issuing thread only. */
    private int nextNode;
    /** Samples issued after a failure and not sent. Issuing thread; read after the run. */
    private long notSent;

    /**
     * @param cluster the connected nodes; their channels are closed with this SUT.
     * @param qsl     the samples; closed with this SUT.
     * @param options the options.
     * @param output  the output read from answers, or {@code null} for the first.
     */
    NetworkSut(final Cluster cluster, final NetworkQsl qsl, final NetworkSutOptions options, final String output)
    {
        final List<Cluster.Member> members = cluster.members();
        this.nodes = new Node[members.size()];
        for (int i = 0; i < nodes.length; i++)
        {
            final Cluster.Member m = members.get(i);
            nodes[i] = new Node(m.endpoint(), m.serverName(), m.channels(), options.inFlight(), this, output,
                options.stream());
        }
        this.qsl = qsl;
        this.options = options;
        this.monitor = new FleetMonitor(List.of(nodes), options.requestTimeoutMs(), "jloadgen-network-watchdog",
            options.failurePolicy());
        this.transportCpus = registerTransport(members, options);
    }

    /**
     * Counts the gRPC/Netty event loops that carry the calls (Netty gives each connection one of its 2 x CPUs loop
     * threads) and a CPU for each node on this machine against the process's CPU budget.
     */
    private static TransportCpus registerTransport(final List<Cluster.Member> members,
        final NetworkSutOptions options)
    {
        final int loops = 2 * Runtime.getRuntime().availableProcessors();
        final int connections = members.size() * options.connections();
        return TransportCpus.register(CpuBudget.process(), Math.min(loops, connections), "KServe client: gRPC/Netty "
            + "event loops for " + connections + (connections == 1 ? " connection" : " connections"),
            members.stream().map(m -> "node " + m.describe()).toList(),
            members.stream().map(m -> TransportCpus.hostOf(m.endpoint())).toList());
    }

    /**
     * Asks every node for its name (a network round trip each, as the Network division requires).
     *
     * @return {@code Network SUT (KServe v2 gRPC) model M on N nodes: name@host:port, ...}.
     */
    @Override
    public String name()
    {
        final StringBuilder b = new StringBuilder("JLoadGen Network SUT (KServe v2 gRPC) model ")
            .append(options.model()).append(" on ").append(nodes.length)
            .append(nodes.length == 1 ? " node: " : " nodes: ");
        for (int i = 0; i < nodes.length; i++)
        {
            final Node node = nodes[i];
            final String name;
            try
            {
                name = GRPCInferenceServiceGrpc.newBlockingStub(node.controlChannel())
                    .withDeadlineAfter(options.requestTimeoutMs(), TimeUnit.MILLISECONDS)
                    .serverMetadata(ServerMetadataRequest.getDefaultInstance()).getName();
            }
            catch (final StatusRuntimeException ex)
            {
                // The message alone reaches the console: no class name in it.
                final String message = node.describe() + " did not answer ServerMetadata: " + describe(ex.getStatus());
                throw new UncheckedIOException(message, new IOException(message, ex));
            }
            b.append(i == 0 ? "" : ", ").append(name).append('@').append(node.endpoint());
        }
        return b.toString();
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        monitor.sink(sink);
        final NetworkQsl library = qsl;
        final MemorySegment memory = library.memory();
        final int n = samples.size();
        for (int i = 0; i < n; i++)
        {
            final InferCall call = takeSlot();
            if (call == null)
            {
                // The run failed (the engine knows); the rest of this query is not sent.
                notSent += n - i;
                return;
            }
            final int position = samples.loadedPosition(i);
            call.start(samples.responseId(i), library.header(position), memory, library.offset(position),
                library.sampleBytes(position));
        }
    }

    private InferCall takeSlot()
    {
        final IdleStrategy idle = waitIdle;
        while (true)
        {
            if (monitor.failure() != null)
            {
                return null;
            }
            final InferCall call = options.balance() == NetworkSutOptions.Balance.ROUND_ROBIN
                ? nextRoundRobin() : leastOutstanding();
            if (call != null)
            {
                idle.reset();
                return call;
            }
            idle.idle();
        }
    }

    private InferCall nextRoundRobin()
    {
        final Node[] all = nodes;
        int at = nextNode;
        for (int k = 0; k < all.length; k++)
        {
            final Node node = all[at];
            at = at + 1 == all.length ? 0 : at + 1;
            final InferCall call = node.pool().take();
            if (call != null)
            {
                nextNode = at;
                return call;
            }
        }
        return null;
    }

    private InferCall leastOutstanding()
    {
        final Node[] all = nodes;
        // Ties go to the node after the last one picked, so equal nodes take turns.
        final int start = nextNode;
        Node best = null;
        int bestFree = 0;
        int bestAt = start;
        for (int k = 0, at = start; k < all.length; k++, at = at + 1 == all.length ? 0 : at + 1)
        {
            final int free = all[at].pool().freeSlots();
            if (free > bestFree)
            {
                best = all[at];
                bestFree = free;
                bestAt = at;
            }
        }
        if (best == null)
        {
            return null;
        }
        nextNode = bestAt + 1 == all.length ? 0 : bestAt + 1;
        return best.pool().take();
    }

    /**
     * Warms the network path up before the clock starts, as the engine warms its own: requests with the first loaded
     * sample go to every node over every connection (up to {@value #WARMUP_IN_FLIGHT} in flight per node) until
     * their answer rate stops rising after {@value WarmupStop#MIN_REQUESTS} requests ({@link WarmupStop}: the JIT's
     * optimising compiler on both sides has done its work) or for {@code warmup-ms}, whichever ends first (a cold,
     * busy machine gets through fewer), through the same slots,
     * marshaller and scanner as the run's, so that the connections are open (TLS handshakes done) and the client's
     * and the nodes' code paths are compiled when the first measured query goes out. Their answers go to a
     * {@link WarmupSink}, never to the engine, and the nodes' counters start from zero afterwards. A node that fails
     * here stops the SUT before the run (the provider says which).
     *
     * @param budgetMs how long to send.
     * @return what was warmed, for the detail log and the console.
     */
    String warmUp(final long budgetMs)
    {
        if (budgetMs <= 0)
        {
            return warmup;
        }
        final WarmupSink sink = new WarmupSink();
        monitor.sink(sink);
        final long startNs = System.nanoTime();
        final long endNs = startNs + TimeUnit.MILLISECONDS.toNanos(budgetMs);
        final long maxInFlight = (long) Math.min(options.inFlight(), WARMUP_IN_FLIGHT) * nodes.length;
        final NetworkQsl library = qsl;
        library.loadSamplesToRam(new long[] {0});
        final long sampleBytes = library.sampleBytes(0);
        final WarmupStop stop = new WarmupStop(startNs);
        long sent = 0;
        try
        {
            long nowNs;
            while ((nowNs = System.nanoTime()) - endNs < 0 && !stop.enough(sink.done(), nowNs)
                && monitor.failure() == null)
            {
                if (sent - sink.done() >= maxInFlight)
                {
                    waitIdle.idle();
                    continue;
                }
                final InferCall call = takeSlot();
                if (call == null)
                {
                    break;
                }
                call.start(sent, library.header(0), library.memory(), library.offset(0), library.sampleBytes(0));
                sent++;
            }
            final long drainNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WARMUP_DRAIN_MS);
            while (sink.done() < sent && monitor.failure() == null && System.nanoTime() - drainNs < 0)
            {
                waitIdle.idle();
            }
        }
        finally
        {
            library.unloadSamplesFromRam(new long[] {0});
        }
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        // Every warm-up request done (answered, or failed under on-error=count): the run's counts start from zero.
        if (monitor.failure() == null && sink.done() == sent)
        {
            for (final Node node : nodes)
            {
                node.pool().resetCounts();
            }
            monitor.resetCauses();
        }
        final int connections = nodes.length * options.connections();
        warmup = sent + " requests (" + sampleBytes + " B sample) to " + nodes.length
            + (nodes.length == 1 ? " node" : " nodes") + " over " + connections
            + (connections == 1 ? " connection" : " connections") + (options.tls() ? " (TLS)" : "") + " in "
            + tookMs + " ms, " + sink.completed() + " answered" + (sink.failed() > 0 ? ", " + sink.failed() + " failed"
            : "") + ", " + stop.describe() + ": connections open" + (options.tls()
            ? ", TLS handshakes done" : "") + ", client and node code paths compiled before the clock (warmup-ms="
            + budgetMs + ")" + (monitor.failure() != null ? "; a node failed: " + monitor.failure() : "");
        return warmup;
    }

    @Override
    public List<Note> notesBeforeRun()
    {
        return List.of(new Note(WARMUP_KEY, warmup));
    }

    /**
     * @return the failure policy, the failed requests by cause and the retries, as JLoadGen's records.
     */
    @Override
    public List<Note> notesAfterRun()
    {
        return List.of(new Note(org.jloadgen.sut.network.FailurePolicy.POLICY_KEY,
            options.failurePolicy().describe()), new Note(org.jloadgen.sut.network.FailurePolicy.CAUSES_KEY,
            monitor.causesValue()), new Note(org.jloadgen.sut.network.FailurePolicy.RETRIES_KEY,
            monitor.retries()));
    }

    /**
     * @return under {@code on-error=count}, JLoadGen's summary lines: the client's counts and one line per failure
     *         cause; nothing under LoadGen's policy.
     */
    @Override
    public List<String> summaryAfterRun()
    {
        if (!options.failurePolicy().count())
        {
            return List.of();
        }
        final List<String> lines = new java.util.ArrayList<>();
        lines.add("network SUT (" + options.failurePolicy().describe() + "): " + describeTotals());
        for (final String cause : monitor.describeCauses())
        {
            lines.add("  " + cause);
        }
        return lines;
    }

    /**
     * @return one line per failure cause with its counts (each after a newline, indented), or nothing.
     */
    public String describeFailures()
    {
        final StringBuilder b = new StringBuilder();
        for (final String line : monitor.describeCauses())
        {
            b.append("\n  ").append(line);
        }
        return b.toString();
    }

    @Override
    public void flushQueries()
    {
        // Nothing is held back: every sample went out when it was issued.
    }

    /**
     * @return what watches the nodes and fails the run.
     */
    FleetMonitor monitor()
    {
        return monitor;
    }

    /**
     * @return the first failure's message, or {@code null}.
     */
    public String failure()
    {
        return monitor.failure();
    }

    /**
     * @return one line per node: sent, answered, failed.
     */
    public String describeNodes()
    {
        return monitor.describeMembers();
    }

    /**
     * @return the totals over every node, with the samples not sent after a failure.
     */
    public String describeTotals()
    {
        return monitor.describeTotals(notSent);
    }

    /**
     * @param status a call's status.
     * @return e.g. {@code UNAVAILABLE: io exception (Connection refused: /127.0.0.1:8001)}.
     */
    static String describe(final Status status)
    {
        final StringBuilder b = new StringBuilder(status.getCode().name());
        if (status.getDescription() != null)
        {
            b.append(": ").append(status.getDescription());
        }
        Throwable cause = status.getCause();
        while (cause != null && cause.getCause() != null && cause.getCause() != cause)
        {
            cause = cause.getCause();
        }
        if (cause != null && cause.getMessage() != null)
        {
            b.append(" (").append(cause.getMessage()).append(')');
        }
        return b.toString();
    }

    /**
     * Stops the watchdog, cancels what is in flight and closes the connections and the samples.
     */
    @Override
    public void close()
    {
        monitor.close();
        transportCpus.close();
        try
        {
            for (final Node node : nodes)
            {
                node.shutdown();
            }
        }
        finally
        {
            qsl.close();
        }
    }
}
