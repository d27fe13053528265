package org.jloadgen.sut.network.serve;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.jloadgen.api.TestScenario;
import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.cli.api.SutCommandOptions;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.AtomicFiles;
import org.jloadgen.sut.network.kserve.Datatypes;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jloadgen serve}: exposes any installed SUT as a KServe v2 gRPC inference server, so that a
 * {@code --sut network} client (on another machine, or a Triton client) loads it over the network. Runs until
 * SIGTERM or Ctrl-C, then stops taking requests, lets those in flight finish (10 s at most) and closes the SUT.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
        "Serve an installed SUT over KServe v2 gRPC (health, metadata, ModelInfer), e.g. as one node of a cluster "
            + "that `jloadgen run --sut network` loads.",
        "Received tensors are written into the SUT's own sample slab and issued to it; its answers go back as the "
            + "output tensor. Stops cleanly on SIGTERM."})
public final class ServeCommand implements Callable<Integer>
{
    /** How long a graceful stop waits for requests in flight. */
    static final long DRAIN_MS = 10_000;

    @Option(names = "--sut", paramLabel = "NAME", required = true,
        description = "The SUT to serve (cpu, synthetic, null...; `jloadgen run --list-suts` lists them).")
    String sutName;

    @Mixin
    SutCommandOptions sutOptions;

    @Option(names = "--scenario", paramLabel = "SCENARIO", defaultValue = "Server",
        description = "Scenario whose batching defaults the SUT takes (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
        description = "Address to listen on (default: ${DEFAULT-VALUE}, every interface).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "8001",
        description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}, Triton's gRPC port).")
    int port;

    @Option(names = "--port-file", paramLabel = "FILE",
        description = "Write the port listened on to this file once the server is up (with --port 0).")
    Path portFile;

    @Option(names = "--name", paramLabel = "NODE",
        description = "This node's name in ServerMetadata; must differ between the nodes of a cluster "
            + "(default: jloadgen@HOSTNAME:PORT).")
    String nodeName;

    @Option(names = "--model", paramLabel = "NAME",
        description = "The model name clients ask for (default: the SUT's name, e.g. cpu).")
    String modelName;

    @Option(names = "--slots", paramLabel = "N",
        description = "Receive slots: samples in the SUT at once (default: 1024, at most 256 MiB of samples).")
    Integer slots;

    @Option(names = "--input-datatype", paramLabel = "TYPE", defaultValue = "UINT8",
        description = "For a SUT that reads no data (null, synthetic): the input datatype to advertise and accept "
            + "(default: ${DEFAULT-VALUE}).")
    String inputDatatype;

    @Option(names = "--input-shape", paramLabel = "DIMS", defaultValue = "-1",
        description = "For a SUT that reads no data: one sample's shape to advertise and accept, -1 for any size "
            + "(default: ${DEFAULT-VALUE}).")
    String inputShape;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "PEM certificate chain: serve over TLS.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM (PKCS#8) private key of --tls-cert.")
    Path tlsKey;

    @Option(names = "--max-message-mb", paramLabel = "MIB", defaultValue = "256",
        description = "Largest request accepted (default: ${DEFAULT-VALUE}).")
    int maxMessageMb;

    /** Default receive slots. */
    static final int SLOTS_DEFAULT = 1024;
    /** Budget of the receive slots when their count is not given. */
    static final long SLOTS_BYTES_DEFAULT = 256L << 20;

    @Override
    public Integer call() throws Exception
    {
        final PrintStream out = System.out;
        final SutProvider provider = provider(sutName);
        if (Datatypes.elementBytes(inputDatatype) < 0)
        {
            throw new IllegalArgumentException("--input-datatype " + inputDatatype + " is not a KServe v2 datatype "
                + "(FP32, UINT8, INT64...)");
        }
        if ((tlsCert == null) != (tlsKey == null))
        {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        if (port < 0 || port > 65_535)
        {
            // Checked before the SUT starts; the JDK's own message ("port out of range:99999") names no option.
            throw new IllegalArgumentException("--port " + port + " is not a TCP port (0 to 65535; 0 picks a free "
                + "one)");
        }
        final long[] sampleShape = parseShape(inputShape);
        // The server's event loop reads, checks and issues every request and writes every answer: counted before the
        // SUT is made, so that its workers spin only where a CPU is left over (the toolkit's AUTO worker wait).
        final CpuBudget.Registration eventLoop = CpuBudget.process().addSutThreads(1, "jloadgen serve: gRPC/Netty "
            + "server event loop (one per client connection; 1 counted), PARK (it waits in epoll for the network)");
        final SutInstance instance;
        try
        {
            instance = provider.create(sutOptions.context(TestScenario.fromLogName(scenario), 0));
        }
        catch (final IllegalArgumentException ex)
        {
            eventLoop.close();
            throw new IllegalArgumentException("SUT '" + sutName + "' could not be started: " + ex.getMessage(), ex);
        }
        try (eventLoop; instance)
        {
            final ServedModel model = ServedModel.of(modelName != null ? modelName : sutName, sutName, instance,
                inputDatatype, sampleShape);
            final int slotCount = slots != null ? slots : defaultSlots(model);
            if (slotCount < 1)
            {
                throw new IllegalArgumentException("--slots must be at least 1, got " + slotCount);
            }
            try (SutBridge bridge = new SutBridge(instance, model, slotCount))
            {
                return serve(instance, model, bridge, out);
            }
        }
    }

    private int serve(final SutInstance instance, final ServedModel model, final SutBridge bridge,
        final PrintStream out) throws IOException, InterruptedException
    {
        final ServerCredentials credentials = tlsCert == null ? InsecureServerCredentials.create()
            : TlsServerCredentials.create(tlsCert.toFile(), tlsKey.toFile());
        final InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException("--host " + host + " cannot be resolved");
        }
        final InferenceService service = new InferenceService(model, bridge);
        if (nodeName != null || port != 0)
        {
            service.nodeName(nodeName != null ? nodeName : "jloadgen@" + hostName() + ":" + port);
        }
        TransportLog.install(out, maxMessageMb);
        final Server server;
        try
        {
            server = NettyServerBuilder.forAddress(address, credentials)
                // Handlers run on the transport's event loop: the tensor is checked, copied and issued there.
                .directExecutor()
                .maxInboundMessageSize(maxMessageMb << 20)
                .addService(service)
                .build()
                .start();
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot listen on " + host + ":" + port + ": " + ex.getMessage(), ex);
        }
        final int boundPort = server.getPort();
        // With --port 0 the default name needs the port: set before the port is printed or written.
        final String name = nodeName != null ? nodeName : "jloadgen@" + hostName() + ":" + boundPort;
        service.nodeName(name);
        final CountDownLatch stopped = new CountDownLatch(1);
        final Thread hook = new Thread(() -> stop(service, server, stopped), "jloadgen-serve-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        // Wrapped to 80 columns, continuation lines under the values (ConsoleText).
        final String under = "         ";
        out.println(ConsoleText.wrap("jloadgen serve: node '" + name + "' listening on " + host + ":" + boundPort
            + (tlsCert == null ? " (plaintext; --tls-cert and --tls-key serve TLS)" : " (TLS)"), "  "));
        out.println(ConsoleText.wrap("  bind   " + describeBind(host), under));
        out.println(ConsoleText.wrap("  SUT    " + instance.sut().name() + " (" + sutName + ")", under));
        out.println(ConsoleText.wrap("  " + model.describe(), under));
        out.println(ConsoleText.wrap("  slots  " + bridge.slotCount() + " receive slots, requests up to "
            + maxMessageMb + " MiB", under));
        out.println(ConsoleText.wrap("  cpus   " + CpuBudget.process().describe(), under));
        for (final String threads : CpuBudget.process().sutThreadDescriptions())
        {
            out.println(ConsoleText.wrap(under + threads, under + "  "));
        }
        out.flush();
        if (portFile != null)
        {
            // Whole or not at all: a script waiting for the file never reads half a port.
            AtomicFiles.write(portFile, (boundPort + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        server.awaitTermination();
        stopped.await(DRAIN_MS + 5_000, TimeUnit.MILLISECONDS);
        return ExitCodes.VALID;
    }

    /**
     * @param host the address listened on.
     * @return who can reach it, and how to restrict it.
     */
    static String describeBind(final String host)
    {
        final InetSocketAddress address = new InetSocketAddress(host, 0);
        if (address.getAddress() != null && address.getAddress().isAnyLocalAddress())
        {
            return "every interface (" + host + "): any host that reaches this machine can call it; --host 127.0.0.1 "
                + "keeps it to this machine, --host ADDRESS to one network";
        }
        if (address.getAddress() != null && address.getAddress().isLoopbackAddress())
        {
            return "loopback only (" + host + "): only this machine can call it";
        }
        return "one interface (" + host + "): hosts that reach that address can call it";
    }

    private static void stop(final InferenceService service, final Server server, final CountDownLatch stopped)
    {
        try
        {
            service.stop();
            server.shutdown();
            if (!server.awaitTermination(DRAIN_MS, TimeUnit.MILLISECONDS))
            {
                server.shutdownNow();
                server.awaitTermination(1, TimeUnit.SECONDS);
            }
            System.out.println("jloadgen serve: stopped");
            System.out.flush();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            stopped.countDown();
        }
    }

    private static int defaultSlots(final ServedModel model)
    {
        if (!model.readsData() || model.sampleBytes() == 0)
        {
            return SLOTS_DEFAULT;
        }
        return (int)Math.max(1, Math.min(SLOTS_DEFAULT, SLOTS_BYTES_DEFAULT / model.sampleBytes()));
    }

    private static SutProvider provider(final String name)
    {
        if (name.equals(org.jloadgen.sut.network.client.NetworkSutProvider.NAME)
            || name.equals(org.jloadgen.sut.network.openai.OpenAiSutProvider.NAME))
        {
            throw new IllegalArgumentException("serving the " + name + " SUT would make this node a proxy for other "
                + "servers; serve a SUT that runs here: " + SutCommandOptions.providers().keySet());
        }
        return SutCommandOptions.provider(name);
    }

    private static long[] parseShape(final String text)
    {
        final String[] parts = text.strip().split("\\s*,\\s*");
        final long[] dims = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                dims[i] = Long.parseLong(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("--input-shape must be dimensions such as 1,28,28 (-1 for any "
                    + "size), got '" + text + "'", ex);
            }
            if (dims[i] < -1)
            {
                throw new IllegalArgumentException("--input-shape has a bad dimension: '" + text + "'");
            }
        }
        return dims;
    }

    private static String hostName()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final UnknownHostException ex)
        {
            return "localhost";
        }
    }
}
