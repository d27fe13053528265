package org.jloadgen.benchmarks.sut;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import org.HdrHistogram.Histogram;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.cli.api.ChildJvmCommand;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.sut.network.client.NetworkSutProvider;
import org.jloadgen.sut.network.client.SyntheticSource;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;
import org.jloadgen.sut.network.kserve.proto.ModelInferResponse;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The network client's benchmark (not a test; {@code sut-network/README.md} has the command and the figures):
 * against a {@code jloadgen serve --sut null} node over loopback (started here in its own JVM, or given with
 * {@code --endpoint}), it measures
 * <ol>
 * <li>throughput: JLoadGen Offline runs through {@code --sut network} (a {@code ModelInfer} call per request, and
 * {@code stream=true}: messages on one {@code ModelStreamInfer} stream) and a bare grpc-java loop (the generated
 * async stub, one prebuilt request message, the same number of calls in flight), each as requests/s and as
 * requests per second of this process's CPU time (requests/s per client core);</li>
 * <li>latency: JLoadGen Server runs at {@code --server-qps} and the bare loop sending at the same rate on a
 * Poisson schedule, each as p50/p99 latency from the scheduled time; the difference is what the client adds.</li>
 * </ol>
 * Rounds rotate the clients' order so that a drift in machine load hits them alike.
 */
@Command(name = "network-client-benchmark", mixinStandardHelpOptions = true,
    description = "Requests/s per client core and p99 latency of --sut network vs a bare grpc-java loop, against a "
        + "null jloadgen serve over loopback.")
public final class NetworkClientBenchmark implements Callable<Integer>
{
    @Option(names = "--seconds", defaultValue = "10", description = "Length of each measurement (default: 10).")
    long seconds;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of both clients (default: 3).")
    int rounds;

    @Option(names = "--inflight", defaultValue = "256", description = "Calls in flight (default: 256).")
    int inFlight;

    @Option(names = "--sample-bytes", defaultValue = "64", description = "Tensor bytes per request (default: 64).")
    int sampleBytes;

    @Option(names = "--server-qps", defaultValue = "10000",
        description = "Rate of the latency runs; 0 skips them (default: ${DEFAULT-VALUE}).")
    double serverQps;

    @Option(names = "--endpoint", paramLabel = "HOST:PORT",
        description = "A running `jloadgen serve --sut null` node (model null) instead of one started here.")
    String endpoint;

    @Option(names = "--server-jvm-opts", defaultValue = "",
        description = "JVM flags of the node started here, e.g. '-XX:ActiveProcessorCount=2'.")
    String serverJvmOpts;

    @Option(names = "--out", defaultValue = "out/bench-network",
        description = "Log folder (default: ${DEFAULT-VALUE}).")
    Path out;

    /**
     * @param args see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new NetworkClientBenchmark()).execute(args));
    }

    /**
     * One measurement.
     *
     * @param requests requests answered.
     * @param wallNs   wall time.
     * @param cpuNs    this process's CPU time meanwhile.
     * @param p50Ns    median latency, or -1.
     * @param p99Ns    99th percentile latency, or -1.
     * @param allocatedBytes heap bytes this process allocated meanwhile, or -1.
     */
    private record Figures(long requests, long wallNs, long cpuNs, long p50Ns, long p99Ns, long allocatedBytes)
    {
        double bytesPerRequest()
        {
            return (double)allocatedBytes / requests;
        }

        double perSecond()
        {
            return requests * 1e9 / wallNs;
        }

        double perCoreSecond()
        {
            return requests * 1e9 / cpuNs;
        }

        double cores()
        {
            return (double)cpuNs / wallNs;
        }
    }

    @Override
    public Integer call() throws Exception
    {
        final PrintStream console = System.out;
        Files.createDirectories(out);
        Process node = null;
        try
        {
            if (endpoint == null)
            {
                node = startNode();
            }
            console.printf(Locale.ROOT, "machine: %d CPUs, load average %s; node %s, %d-byte tensors, %d in flight%n",
                Runtime.getRuntime().availableProcessors(), loadAverage(), endpoint, sampleBytes, inFlight);
            final String[] clients = {"JLoadGen --sut network", "JLoadGen --sut network stream=true",
                "bare grpc-java loop"};
            final List<Figures[]> throughput = new ArrayList<>();
            final List<Figures[]> latency = new ArrayList<>();
            for (int r = 1; r <= rounds; r++)
            {
                // Rotate the order so that a drift in machine load does not favour one client.
                final Figures[] t = new Figures[clients.length];
                for (int k = 0; k < clients.length; k++)
                {
                    final int c = (k + r - 1) % clients.length;
                    t[c] = c == 2 ? bareThroughput() : jloadgenOffline(r, c == 1);
                }
                throughput.add(t);
                for (int c = 0; c < clients.length; c++)
                {
                    console.printf(Locale.ROOT, "round %d throughput, %s: %,.0f req/s on %.2f cores = %,.0f req/s per "
                        + "core, %.0f B allocated per request; load %s%n", r, clients[c], t[c].perSecond(),
                        t[c].cores(), t[c].perCoreSecond(), t[c].bytesPerRequest(), loadAverage());
                }
                if (serverQps > 0)
                {
                    final Figures[] l = {jloadgenServer(r, false), jloadgenServer(r, true), bareLatency()};
                    latency.add(l);
                    console.printf(Locale.ROOT, "round %d latency at %,.0f QPS: JLoadGen p50 %s p99 %s; stream=true "
                        + "p50 %s p99 %s; bare grpc-java p50 %s p99 %s%n", r, serverQps, us(l[0].p50Ns()),
                        us(l[0].p99Ns()), us(l[1].p50Ns()), us(l[1].p99Ns()), us(l[2].p50Ns()), us(l[2].p99Ns()));
                }
            }
            console.println();
            console.println("| client | requests/s | client CPU cores | requests/s per client core | heap B/request "
                + "| p50 | p99 | p99 added vs bare |");
            console.println("|---|---:|---:|---:|---:|---:|---:|---:|");
            final Figures bareP99 = latency.isEmpty() ? null
                : median(latency.stream().map(f -> f[2]).toList(), f -> (double)f.p99Ns());
            for (int side = 0; side < clients.length; side++)
            {
                final int s = side;
                final Figures t = median(throughput.stream().map(f -> f[s]).toList(), Figures::perCoreSecond);
                final Figures l = latency.isEmpty() ? null
                    : median(latency.stream().map(f -> f[s]).toList(), f -> (double)f.p99Ns());
                console.printf(Locale.ROOT, "| %s | %,.0f | %.2f | %,.0f | %.0f | %s | %s | %s |%n", clients[side],
                    t.perSecond(), t.cores(), t.perCoreSecond(), t.bytesPerRequest(),
                    l == null ? "-" : us(l.p50Ns()), l == null ? "-" : us(l.p99Ns()),
                    l == null || side == 2 ? "-" : String.format(Locale.ROOT, "%+.0f us",
                        (l.p99Ns() - bareP99.p99Ns()) / 1e3));
            }
            console.println("(median round by requests/s per core, and by p99; latency at " + (long)serverQps
                + " QPS from the scheduled time; Triton's perf_analyzer: ~35,000 requests/s per client)");
            console.printf(Locale.ROOT, "load average at the end: %s%n", loadAverage());
            return 0;
        }
        finally
        {
            if (node != null)
            {
                node.destroy();
                node.waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    private static Figures median(final List<Figures> figures, final java.util.function.ToDoubleFunction<Figures> key)
    {
        final List<Figures> sorted = new ArrayList<>(figures);
        sorted.sort(java.util.Comparator.comparingDouble(key));
        return sorted.get(sorted.size() / 2);
    }

    private Process startNode() throws IOException, InterruptedException
    {
        final Path portFile = out.resolve("node.port");
        Files.deleteIfExists(portFile);
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.REQUIRED);
        for (final String flag : serverJvmOpts.strip().split("\\s+"))
        {
            if (!flag.isEmpty())
            {
                command.add(flag);
            }
        }
        command.add("@" + ChildJvmCommand.classPathFile(System.getProperty("java.class.path")));
        command.addAll(List.of("org.jloadgen.cli.Main", "serve",
            "--sut", "null", "--host", "127.0.0.1", "--port", "0", "--port-file", portFile.toString(), "--name",
            "bench-null-node", "--slots", String.valueOf(Math.max(1024, 2 * inFlight))));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(out.resolve("node.log").toFile()).start();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.isRegularFile(portFile))
        {
            if (!process.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                process.destroyForcibly();
                throw new IOException("the null node did not come up: " + Files.readString(out.resolve("node.log")));
            }
            Thread.sleep(50);
        }
        endpoint = "127.0.0.1:" + Files.readString(portFile).strip();
        return process;
    }

    private SutInstance client(final boolean stream)
    {
        return new NetworkSutProvider().create(new SutContext(TestScenario.OFFLINE, Map.of("endpoints", endpoint,
            "model", "null", "inflight", String.valueOf(inFlight), "sample-bytes", String.valueOf(sampleBytes),
            "stream", String.valueOf(stream)), 1024, 1024));
    }

    private Figures jloadgenOffline(final int round, final boolean stream)
    {
        // Ask for more than a loopback node can answer in the time; the run lasts as long as it takes.
        final TestSettings settings = new TestSettings().scenario(TestScenario.OFFLINE)
            .mode(TestMode.PERFORMANCE_ONLY).offlineExpectedQps(100_000).minDurationMs(seconds * 1000);
        final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP);
        try (SutInstance instance = client(stream))
        {
            final long cpuBefore = processCpuNs();
            final long allocatedBefore = allocatedBytes();
            final TestResult result = run(instance, settings, engine, "offline-" + round + (stream ? "-stream" : ""));
            final long allocated = allocatedBytes() - allocatedBefore;
            // CPU of the whole run, the engine's warm-up, loading and log writing included: it overstates the
            // client's cost per request a little, never understates it.
            final long cpuNs = processCpuNs() - cpuBefore;
            final PerformanceSummary s = result.performance().get(0);
            final long runNs = (long)(s.sampleCount() * 1e9 / s.samplesPerSecond());
            return new Figures(s.sampleCount(), runNs, cpuNs, -1, -1, allocated);
        }
    }

    private Figures jloadgenServer(final int round, final boolean stream)
    {
        final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
            .mode(TestMode.PERFORMANCE_ONLY).serverTargetQps(serverQps).minDurationMs(seconds * 1000);
        final EngineOptions engine = new EngineOptions().serverWait(ServerWaitStrategy.HYBRID)
            .completionWait(CompletionWaitStrategy.SLEEP);
        try (SutInstance instance = client(stream))
        {
            final TestResult result = run(instance, settings, engine, "server-" + round + (stream ? "-stream" : ""));
            final PerformanceSummary s = result.performance().get(0);
            return new Figures(s.sampleCount(), 1, 1,
                s.sampleLatencyPercentileNs(PerformanceSummary.percentileIndex(0.5)),
                s.sampleLatencyPercentileNs(PerformanceSummary.percentileIndex(0.99)), -1);
        }
    }

    private TestResult run(final SutInstance instance, final TestSettings settings, final EngineOptions engine,
        final String name)
    {
        return new TestRunner(instance.sut(), instance.qsl(), settings, new LogSettings()
            .outputDirectory(out.resolve(name)).copySummaryToStdout(false), engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    private ModelInferRequest bareRequest()
    {
        final byte[] sample = new byte[sampleBytes];
        SyntheticSource.fill(0, java.lang.foreign.MemorySegment.ofArray(sample), sampleBytes);
        return ModelInferRequest.newBuilder().setModelName("null").addInputs(ModelInferRequest.InferInputTensor
            .newBuilder().setName("input").setDatatype("UINT8").addShape(1).addShape(sampleBytes))
            .addRawInputContents(ByteString.copyFrom(sample)).build();
    }

    private ManagedChannel channel()
    {
        final int colon = endpoint.lastIndexOf(':');
        return NettyChannelBuilder.forAddress(endpoint.substring(0, colon),
            Integer.parseInt(endpoint.substring(colon + 1))).usePlaintext().directExecutor().build();
    }

    /**
     * The bare loop: one thread keeps {@code inFlight} calls in flight with the generated async stub for the
     * measurement time, waiting for room as JLoadGen's client does (spin, yield, then short parks), so that the
     * comparison is of the call path, not of the wait.
     */
    private Figures bareThroughput() throws InterruptedException
    {
        final ManagedChannel channel = channel();
        try
        {
            final GRPCInferenceServiceGrpc.GRPCInferenceServiceStub stub = GRPCInferenceServiceGrpc.newStub(channel);
            final ModelInferRequest request = bareRequest();
            // Warm-up, untimed: a second of the same loop.
            loop(stub, request, new AtomicLong(), System.nanoTime() + 1_000_000_000L);
            final AtomicLong answered = new AtomicLong();
            final long cpuBefore = processCpuNs();
            final long allocatedBefore = allocatedBytes();
            final long startNs = System.nanoTime();
            loop(stub, request, answered, startNs + TimeUnit.SECONDS.toNanos(seconds));
            final long wallNs = System.nanoTime() - startNs;
            return new Figures(answered.get(), wallNs, processCpuNs() - cpuBefore, -1, -1,
                allocatedBytes() - allocatedBefore);
        }
        finally
        {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private void loop(final GRPCInferenceServiceGrpc.GRPCInferenceServiceStub stub, final ModelInferRequest request,
        final AtomicLong answered, final long stopNs)
    {
        final java.util.concurrent.atomic.AtomicInteger outstanding = new java.util.concurrent.atomic.AtomicInteger();
        final StreamObserver<ModelInferResponse> observer = new StreamObserver<>()
        {
            @Override
            public void onNext(final ModelInferResponse value)
            {
                answered.incrementAndGet();
            }

            @Override
            public void onError(final Throwable t)
            {
                outstanding.decrementAndGet();
            }

            @Override
            public void onCompleted()
            {
                outstanding.decrementAndGet();
            }
        };
        final org.agrona.concurrent.IdleStrategy idle = new org.agrona.concurrent.BackoffIdleStrategy(100, 20, 1_000,
            50_000);
        while (System.nanoTime() - stopNs < 0)
        {
            if (outstanding.get() >= inFlight)
            {
                idle.idle();
                continue;
            }
            idle.reset();
            outstanding.incrementAndGet();
            stub.modelInfer(request, observer);
        }
        // Every call answered before the clock stops.
        while (outstanding.get() > 0)
        {
            idle.idle();
        }
    }

    /**
     * The bare loop at a fixed rate: Poisson arrivals, each sent at its time (parking until shortly before it, then
     * spinning), latency from the scheduled time into a histogram.
     */
    private Figures bareLatency() throws InterruptedException
    {
        final ManagedChannel channel = channel();
        try
        {
            final GRPCInferenceServiceGrpc.GRPCInferenceServiceStub stub = GRPCInferenceServiceGrpc.newStub(channel);
            final ModelInferRequest request = bareRequest();
            final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            final java.util.Random random = new java.util.Random(1);
            final long count = (long)(serverQps * seconds);
            final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch((int)count);
            final long startNs = System.nanoTime() + 100_000_000L;
            long scheduledNs = startNs;
            for (long i = 0; i < count; i++)
            {
                scheduledNs += (long)(-Math.log(1 - random.nextDouble()) * 1e9 / serverQps);
                final long due = scheduledNs;
                while (due - System.nanoTime() > EngineOptions.HYBRID_SPIN_NS_DEFAULT)
                {
                    LockSupport.parkNanos(due - System.nanoTime() - EngineOptions.HYBRID_SPIN_NS_DEFAULT);
                }
                while (due - System.nanoTime() > 0)
                {
                    Thread.onSpinWait();
                }
                stub.modelInfer(request, new StreamObserver<>()
                {
                    @Override
                    public void onNext(final ModelInferResponse value)
                    {
                        final long latencyNs = System.nanoTime() - due;
                        synchronized (histogram)
                        {
                            histogram.recordValue(Math.min(latencyNs, histogram.getHighestTrackableValue()));
                        }
                    }

                    @Override
                    public void onError(final Throwable t)
                    {
                        done.countDown();
                    }

                    @Override
                    public void onCompleted()
                    {
                        done.countDown();
                    }
                });
            }
            done.await(seconds + 60, TimeUnit.SECONDS);
            synchronized (histogram)
            {
                return new Figures(histogram.getTotalCount(), 1, 1, histogram.getValueAtPercentile(50),
                    histogram.getValueAtPercentile(99), -1);
            }
        }
        finally
        {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static long allocatedBytes()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
    }

    private static long processCpuNs()
    {
        return ((com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    }

    private static String us(final long ns)
    {
        return ns < 0 ? "-" : String.format(Locale.ROOT, "%.0f us", ns / 1e3);
    }

    private static String loadAverage()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        }
        catch (final IOException ex)
        {
            return "?";
        }
    }
}
