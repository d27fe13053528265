package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.spi.SutContext;
import org.jloadgen.testing.CliRun;
import org.jloadgen.sut.network.ServeProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A cluster that goes wrong: a node killed mid-run, a node that fails or goes silent mid-run, a node that is
 * never up, a model no node serves. Each ends in a clear error naming the node, INVALID logs when a run had
 * started, and never a hang.
 */
class NetworkFailuresTest
{
    @TempDir
    Path dir;

    private static TestResult run(final NetworkSutProvider.Instance instance, final Path out)
    {
        final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
            .mode(TestMode.PERFORMANCE_ONLY).serverTargetQps(500).minDurationMs(20_000);
        final EngineOptions engine = new EngineOptions().serverWait(ServerWaitStrategy.SLEEP)
            .completionWait(CompletionWaitStrategy.SLEEP).jitWarmupMs(0).completionTimeoutMs(30_000);
        return new TestRunner(instance.sut(), instance.qsl(), settings, new LogSettings().outputDirectory(out)
            .copySummaryToStdout(false), engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    private static NetworkSutProvider.Instance client(final Map<String, String> options)
    {
        return (NetworkSutProvider.Instance)new NetworkSutProvider().create(new SutContext(TestScenario.SERVER,
            options, 1024, 1024));
    }

    private static void assertInvalidNaming(final TestResult result, final String node, final String what)
        throws Exception
    {
        final MlLogParser detail = MlLogParser.parse(result.detailFile());
        final String errors = detail.records().stream().filter(MlLogParser.Record::isError)
            .map(MlLogParser.Record::valueText).toList().toString();
        assertTrue(errors.contains("node '" + node + "' (127.0.0.1:") && errors.contains(what)
            && errors.matches("(?s).*; when it failed: \\d+ sent to it, \\d+ answered, \\d+ failed, "
                + "\\d+ in flight.*"), errors);
        assertTrue(Files.readString(result.summaryFile()).contains("Result is : INVALID"));
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndInvalidNamingANodeKilledMidRun(final boolean stream) throws Exception
    {
        try (ServeProcess a = ServeProcess.start(dir, "node-a", "--sut", "null");
             ServeProcess b = ServeProcess.start(dir, "node-b", "--sut", "null");
             NetworkSutProvider.Instance instance = client(Map.of("endpoints", a.endpoint() + "," + b.endpoint(),
                 "model", "null", "balance", "round-robin", "stream", String.valueOf(stream))))
        {
            final NetworkSut sut = instance.networkSut();
            final Thread killer = new Thread(() ->
            {
                try
                {
                    // Once node-b has answered part of the run, it crashes.
                    while (sut.describeNodes().matches("(?s).*node 'node-b'[^\\n]*: \\d+ sent, \\d{1,2} answered.*"))
                    {
                        Thread.sleep(5);
                    }
                    b.kill();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            });
            killer.start();
            final long startNs = System.nanoTime();
            final TestResult result = run(instance, dir.resolve("killed"));
            killer.join(10_000);
            // Ends at the failure, not after the 20 s it asked for, nor after the 30 s completion timeout.
            assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(15), "the run went on after the crash");
            // A killed peer's calls end UNAVAILABLE, or UNKNOWN "channel closed" where the transport closed under a
            // call before a status arrived (gRPC's words; seen once in a full suite run on the 2-CPU machine).
            final String closed = "UNKNOWN: channel closed";
            assertInvalidNaming(result, "node-b", sut.failure().contains(closed) ? closed : "UNAVAILABLE");
            assertTrue(!stream || sut.failure().contains("closed its ModelStreamInfer stream"), sut.failure());
            assertTrue(sut.failure().contains("node 'node-b'"), sut.failure());
            assertFalse(sut.describeNodes().contains("node 'node-a' (127.0.0.1:" + a.endpoint().split(":")[1]
                + "): 0 sent"), sut.describeNodes());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndInvalidNamingANodeWhoseSutFails() throws Exception
    {
        try (ServeProcess a = ServeProcess.start(dir, "node-a", "--sut", "null");
             ServeProcess b = ServeProcess.start(dir, "node-b", "--sut", "synthetic", "--model", "null",
                 "--sut-opt", "misbehave=fail", "--sut-opt", "misbehave-after=100");
             NetworkSutProvider.Instance instance = client(Map.of("endpoints", a.endpoint() + "," + b.endpoint(),
                 "model", "null", "balance", "round-robin", "warmup-ms", "0")))
        {
            final TestResult result = run(instance, dir.resolve("failed"));
            assertInvalidNaming(result, "node-b", "the SUT failed");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldStopBeforeTheRunNamingANodeThatFailsDuringTheWarmUp() throws Exception
    {
        try (ServeProcess a = ServeProcess.start(dir, "node-a", "--sut", "null");
             ServeProcess b = ServeProcess.start(dir, "node-b", "--sut", "synthetic", "--model", "null",
                 "--sut-opt", "misbehave=fail", "--sut-opt", "misbehave-after=100"))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> client(Map.of(
                "endpoints", a.endpoint() + "," + b.endpoint(), "model", "null", "balance", "round-robin")));
            assertTrue(ex.getMessage().startsWith("a node failed during the network warm-up: node 'node-b' "
                + "(127.0.0.1:"), ex.getMessage());
            assertTrue(ex.getMessage().contains("the SUT failed"), ex.getMessage());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldEndInvalidNamingANodeThatStopsAnswering() throws Exception
    {
        try (ServeProcess a = ServeProcess.start(dir, "node-a", "--sut", "synthetic", "--model", "m",
                 "--sut-opt", "misbehave=never", "--sut-opt", "misbehave-after=100");
             NetworkSutProvider.Instance instance = client(Map.of("endpoints", a.endpoint(), "model", "m",
                 "timeout-ms", "1000", "warmup-ms", "0")))
        {
            final long startNs = System.nanoTime();
            final TestResult result = run(instance, dir.resolve("silent"));
            assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(15), "the run hung");
            assertInvalidNaming(result, "node-a", "no answer within 1000 ms");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldRefuseToStartWhenANodeIsNeverUp() throws Exception
    {
        final int closedPort;
        try (ServerSocket socket = new ServerSocket(0))
        {
            closedPort = socket.getLocalPort();
        }
        try (ServeProcess a = ServeProcess.start(dir, "node-a", "--sut", "null"))
        {
            final Path out = dir.resolve("never-up");
            final CliRun cli = CliRun.of("run", "--sut", "network", "--sut-opt", "endpoints=" + a.endpoint()
                + ",127.0.0.1:" + closedPort, "--sut-opt", "model=null", "--sut-opt", "connect-timeout-ms=500",
                "--scenario", "Server", "--out", out.toString());
            assertEquals(2, cli.exitCode(), cli::toString);
            final String expected = "node 127.0.0.1:" + closedPort + " is not reachable within 500 ms "
                + "(connect-timeout-ms): UNAVAILABLE";
            assertTrue(cli.err().contains(expected), cli::toString);
            assertTrue(Files.readString(out.resolve("mlperf_log_detail.txt")).contains(expected));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldRefuseToStartWhenNoNodeServesTheModel() throws Exception
    {
        try (ServeProcess a = ServeProcess.start(dir, "node-a", "--sut", "null"))
        {
            final CliRun cli = CliRun.of("run", "--sut", "network", "--sut-opt", "endpoints=" + a.endpoint(),
                "--sut-opt", "model=resnet50", "--scenario", "Offline", "--out", dir.resolve("model").toString());
            assertEquals(2, cli.exitCode(), cli::toString);
            assertTrue(cli.err().contains("node 'node-a' (" + a.endpoint() + ") does not serve model 'resnet50': "
                + "NOT_FOUND: Request for unknown model: 'resnet50' is not found; node node-a serves 'null'"),
                cli::toString);
        }
    }
}
