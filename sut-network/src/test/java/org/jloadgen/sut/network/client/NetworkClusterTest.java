package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.accuracy.AccuracyLogReader;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.sut.cpu.CpuSut;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.InferenceSettings;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.testing.CliRun;
import org.jloadgen.sut.network.ServeProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster of two {@code jloadgen serve --sut cpu} nodes (the embedded Fashion-MNIST model, each node with its own
 * name) on the loopback interface, loaded by {@code jloadgen run --sut network}: accuracy, Server and Offline runs,
 * every response compared byte for byte with the same model run locally, and a graceful SIGTERM at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NetworkClusterTest
{
    @TempDir
    static Path dir;

    private ModelDescriptor fashion;
    private ServeProcess nodeA;
    private ServeProcess nodeB;
    /** QSL index to the model's local answer (10 float32 logits). */
    private final Map<Long, byte[]> expected = new HashMap<>();

    @BeforeAll
    void startCluster() throws Exception
    {
        fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        nodeA = ServeProcess.start(dir.resolve("nodes"), "node-a", "--sut", "cpu");
        nodeB = ServeProcess.start(dir.resolve("nodes"), "node-b", "--sut", "cpu");
        try (CpuSut local = CpuSut.open(fashion, InferenceSettings.defaults(TestScenario.OFFLINE)))
        {
            final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP)
                .jitWarmupMs(0);
            final TestResult result = new TestRunner(local, local.library(), new TestSettings()
                .scenario(TestScenario.OFFLINE).mode(TestMode.ACCURACY_ONLY), new LogSettings()
                .outputDirectory(dir.resolve("local")).copySummaryToStdout(false), engine, null, List.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
            AccuracyLogReader.read(result.accuracyFile(), e -> expected.put(e.qslIndex(), e.data()));
        }
        assertEquals(FashionMnist.SAMPLE_COUNT, expected.size());
    }

    @AfterAll
    void stopCluster() throws Exception
    {
        try
        {
            if (nodeA != null && nodeB != null)
            {
                // SIGTERM: each node stops taking requests, drains, closes its SUT and exits as a terminated process
                // does.
                assertEquals(ServeProcess.EXIT_SIGTERM, nodeA.terminate(), nodeA::log);
                assertEquals(ServeProcess.EXIT_SIGTERM, nodeB.terminate(), nodeB::log);
                assertTrue(nodeA.log().contains("jloadgen serve: stopped"), nodeA::log);
                // The node's banner (address, SUT, model, CPUs and how its threads wait) reads in 80 columns.
                assertFitsIn80Columns(nodeA.log());
            }
        }
        finally
        {
            if (nodeA != null)
            {
                nodeA.close();
            }
            if (nodeB != null)
            {
                nodeB.close();
            }
        }
    }

    private static String withSummary(final CliRun cli, final Path out)
    {
        try
        {
            return cli + "\n--- summary\n" + Files.readString(out.resolve("mlperf_log_summary.txt"));
        }
        catch (final java.io.IOException ex)
        {
            return cli + "\n(no summary: " + ex + ")";
        }
    }

    private List<String> client(final String scenario, final String mode, final Path out, final String... more)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--sut", "network",
            "--sut-opt", "endpoints=" + nodeA.endpoint() + "," + nodeB.endpoint(),
            "--sut-opt", "model=cpu",
            // The raw file's dtype and sample shape default to the input the nodes describe: uint8 [1,28,28].
            "--dataset", fashion.data().dataset().toString(),
            "--sut-opt", "header-bytes=" + FashionMnist.IMAGE_HEADER_BYTES,
            "--labels", fashion.data().labels().toString(),
            "--scenario", scenario, "--mode", mode, "--out", out.toString(),
            "--server-wait", "SLEEP", "--completion-wait", "SLEEP", "--jit-warmup-ms", "0", "--quiet"));
        args.addAll(List.of(more));
        return args;
    }

    /**
     * @return entries in the accuracy log, each checked against the local model's answer.
     */
    private long checkEveryResponse(final Path accuracyLog)
    {
        final AtomicLong checked = new AtomicLong();
        AccuracyLogReader.read(accuracyLog, e ->
        {
            assertArrayEquals(expected.get(e.qslIndex()), e.data(), "answer for QSL index " + e.qslIndex());
            checked.incrementAndGet();
        });
        return checked.get();
    }

    @Test
    void shouldScoreTheModelsKnownAccuracyThroughTheClusterOnStreams()
    {
        final Path out = dir.resolve("accuracy");
        // Over Triton's streaming extension: every request a message on one stream per node.
        final CliRun cli = CliRun.of(client("Offline", "AccuracyOnly", out, "--sut-opt", "stream=true")
            .toArray(String[]::new));
        assertEquals(0, cli.exitCode(), cli::toString);
        assertTrue(cli.out().contains("Accuracy: top-1 accuracy: 89.19% (8919 of 10000 samples)"), cli::toString);
        assertEquals(FashionMnist.SAMPLE_COUNT, checkEveryResponse(out.resolve("mlperf_log_accuracy.json")));
        // Both nodes answered, each under its own name.
        assertTrue(cli.err().matches("(?s).*node 'node-a' \\(127\\.0\\.0\\.1:\\d+\\): [1-9]\\d* sent, [1-9]\\d* "
            + "answered, 0 failed.*"), cli::toString);
        assertTrue(cli.err().matches("(?s).*node 'node-b' \\(127\\.0\\.0\\.1:\\d+\\): [1-9]\\d* sent, [1-9]\\d* "
            + "answered, 0 failed.*"), cli::toString);
        // The warm-up's line and the per-node counts read in 80 columns.
        assertTrue(cli.err().contains("jloadgen: network SUT: warm-up: "), cli::toString);
        assertFitsIn80Columns(cli.err());
    }

    /**
     * Fails on a line wider than 80 columns, unless it is one word (a long path stays whole).
     */
    private static void assertFitsIn80Columns(final String text)
    {
        for (final String line : text.split("\n"))
        {
            assertTrue(line.length() <= 80 || !line.strip().contains(" "),
                () -> "wider than 80 columns (" + line.length() + "): " + line + "\n--- in\n" + text);
        }
    }

    @Test
    void shouldRunServerValidWithEveryResponseChecked() throws Exception
    {
        final Path out = dir.resolve("server");
        // A latency bound of a minute: the test machine may be shared by many builds, and VALID is about the run,
        // not its speed. 600 queries: enough for early stopping to pass when every query is under the bound.
        final CliRun cli = CliRun.of(client("Server", "PerformanceOnly", out, "--set", "server_target_qps=300",
            "--set", "min_duration_ms=2000", "--set", "server_target_latency_ns=60000000000",
            "--set", "accuracy_log_probability=1").toArray(String[]::new));
        assertEquals(0, cli.exitCode(), () -> withSummary(cli, out));
        final MlLogParser detail = MlLogParser.parse(out.resolve("mlperf_log_detail.txt"));
        assertEquals(0, detail.errorCount(), cli::toString);
        assertEquals("VALID", detail.value("result_validity"), cli::toString);
        final String sutName = String.valueOf(detail.value("sut_name"));
        assertTrue(sutName.contains("Network SUT") && sutName.contains("node-a@") && sutName.contains("node-b@"),
            sutName);
        assertEquals(countQueries(detail), checkEveryResponse(out.resolve("mlperf_log_accuracy.json")));
        assertTrue(Files.readString(out.resolve("mlperf_log_summary.txt")).contains("Result is : VALID"));
    }

    @Test
    void shouldRunOfflineValidWithEveryResponseChecked() throws Exception
    {
        // An Offline run is VALID when its 55,000 samples (100,000 QPS x 1.1 x 0.5 s) take at least min_duration:
        // after the network warm-up the cluster answered 8,000-45,000 a second on a 2-core machine (busy to quiet),
        // so a machine would need twice the quiet rate, whatever its load. (A rate measured from another run would
        // track load changes between the two, not this run.)
        final Path out = dir.resolve("offline");
        final CliRun cli = CliRun.of(client("Offline", "PerformanceOnly", out, "--set", "offline_expected_qps=100000",
            "--set", "min_duration_ms=500", "--set", "accuracy_log_probability=1").toArray(String[]::new));
        assertEquals(0, cli.exitCode(), () -> withSummary(cli, out));
        final MlLogParser detail = MlLogParser.parse(out.resolve("mlperf_log_detail.txt"));
        assertEquals(0, detail.errorCount(), cli::toString);
        assertEquals("VALID", detail.value("result_validity"), cli::toString);
        assertEquals(countQueries(detail), checkEveryResponse(out.resolve("mlperf_log_accuracy.json")));
    }

    private static long countQueries(final MlLogParser detail)
    {
        return ((Number)detail.value("generated_samples_per_query")).longValue()
            * ((Number)detail.value("generated_query_count")).longValue();
    }
}
