package org.jloadgen.engine.official;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.ChildCli;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.jloadgen.testing.OfficialPython;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same SUT, command line, seeds and settings under JLoadGen's engine and under the official LoadGen (through
 * the bridge, each in its own JVM): the SUT is given the same loads, the same samples in the same order at the same
 * loaded-set positions, and the flushes; the official submission log parser reads both engines' detail logs; the
 * bridge's logs carry the official LoadGen's version and the SHA-1 of each of its source files.
 */
class BothEnginesTest
{
    private static final String[] SEEDS = {"--set", "qsl_rng_seed=1234567", "--set", "sample_index_rng_seed=7654321",
        "--set", "schedule_rng_seed=42"};

    @TempDir
    Path dir;

    @BeforeAll
    static void build()
    {
        OfficialLoadGenFixture.build();
    }

    static Stream<Arguments> scenarios()
    {
        return Stream.of(
            Arguments.of("SingleStream", List.of("--scenario", "SingleStream", "--set", "min_duration_ms=0",
                "--set", "min_query_count=300")),
            Arguments.of("MultiStream", List.of("--scenario", "MultiStream", "--set", "min_duration_ms=0",
                "--set", "min_query_count=120", "--qsl-total", "300", "--qsl-performance", "100")),
            Arguments.of("Server", List.of("--scenario", "Server", "--set", "server_target_qps=20000",
                "--set", "min_duration_ms=0", "--set", "min_query_count=500", "--sut-opt", "batch=true")),
            Arguments.of("Offline", List.of("--scenario", "Offline", "--set", "min_duration_ms=0",
                "--set", "min_query_count=5000", "--qsl-total", "2000", "--qsl-performance", "700",
                "--sut-opt", "batch=true")),
            Arguments.of("AccuracyOnly-SingleStream", List.of("--scenario", "SingleStream", "--mode", "AccuracyOnly",
                "--qsl-total", "2500", "--qsl-performance", "1000")),
            Arguments.of("AccuracyOnly-Offline", List.of("--scenario", "Offline", "--mode", "AccuracyOnly",
                "--qsl-total", "2500", "--qsl-performance", "1000", "--sut-opt", "batch=true")),
            Arguments.of("AccuracyOnly-MultiStream", List.of("--scenario", "MultiStream", "--mode", "AccuracyOnly",
                "--qsl-total", "700", "--qsl-performance", "300")),
            Arguments.of("Server-tokens", List.of("--scenario", "Server", "--set", "server_target_qps=20000",
                "--set", "min_duration_ms=0", "--set", "min_query_count=300", "--set", "use_token_latencies=true",
                "--sut-opt", "tokens=4")),
            Arguments.of("SingleStream-tokens-batch", List.of("--scenario", "SingleStream", "--set",
                "min_duration_ms=0", "--set", "min_query_count=200", "--set", "use_token_latencies=true",
                "--sut-opt", "tokens=4", "--sut-opt", "batch=true")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void shouldIssueTheSameSamplesInTheSameOrderUnderBothEngines(final String name, final List<String> args)
        throws IOException
    {
        final Run jloadgen = run("jloadgen", args);
        final Run official = run("official", args);

        final List<String> expected = Files.readAllLines(jloadgen.recording());
        final List<String> actual = Files.readAllLines(official.recording());
        assertTrue(expected.stream().anyMatch(line -> line.startsWith("Q ")), "queries recorded: " + expected.size());
        assertTrue(expected.stream().anyMatch(line -> line.startsWith("L ")), "loads recorded");
        assertEquals(expected.size(), actual.size(), "lines recorded (loads, queries, flushes, unloads)");
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(expected.get(i), actual.get(i), name + ": line " + (i + 1) + " of the recordings");
        }

        OfficialPython.assumeAvailable();
        final String jloadgenParsed = parsed(jloadgen);
        final String officialParsed = parsed(official);
        assertEquals(keyLines(jloadgenParsed), keyLines(officialParsed), "what the official parser reads");
    }

    @Test
    void shouldCopyThePayloadsAResponseCallbackWritesIntoTheAccuracyLogUnderBothEngines() throws IOException
    {
        final List<String> args = List.of("--scenario", "Offline", "--mode", "AccuracyOnly", "--qsl-total", "900",
            "--qsl-performance", "400", "--sut-opt", "batch=true", "--sut-opt", "callback=true");
        final Run jloadgen = run("jloadgen", args);
        final Run official = run("official", args);

        final Map<Long, String> expected = accuracyData(jloadgen);
        assertEquals(900, expected.size(), "every sample once in JLoadGen's accuracy log");
        assertEquals(expected, accuracyData(official), "qsl_idx -> data in the official accuracy log");
        for (final Map.Entry<Long, String> entry : expected.entrySet())
        {
            final long i = entry.getKey();
            assertEquals(String.format("%02X%02X%02X%02X", i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff, i >> 24),
                entry.getValue(), "the callback's payload for sample " + i);
        }
    }

    @Test
    void shouldCarryTheOfficialVersionAndFileHashesInTheBridgesLogs() throws Exception
    {
        final Run official = run("official", List.of("--scenario", "SingleStream", "--set", "min_duration_ms=0",
            "--set", "min_query_count=10"));
        final MlLogParser detail = MlLogParser.parse(official.dir().resolve("mlperf_log_detail.txt"));
        final Path source = OfficialLoadGenFixture.loadgenSource();
        final String version = Files.readString(source.resolve("VERSION.txt")).strip();

        assertTrue(String.valueOf(detail.value("loadgen_version")).startsWith(version + " @ "),
            String.valueOf(detail.value("loadgen_version")));
        assertEquals(sha1OfLoadGenFiles(source), new TreeMap<>((Map<?, ?>)detail.value("loadgen_file_sha1")));
        assertEquals("TraceRecordingSUT", detail.value("sut_name"));
        assertEquals(0L, detail.errorCount(), "errors in the bridge's detail log");
    }

    /** A run; its exit code may differ between engines on such short runs (LoadGen's 1% clock check, say). */
    private record Run(int exitCode, Path dir, Path recording, String output)
    {
    }

    private Run run(final String engine, final List<String> args)
    {
        final Path out = dir.resolve(engine);
        final Path recording = dir.resolve(engine + ".recording");
        final List<String> command = new ArrayList<>(List.of("run", "--engine", engine, "--sut", "trace-recording",
            "--sut-opt", "file=" + recording, "--out", out.toString(), "--quiet", "--no-audit-config",
            "--jit-warmup-ms", "0"));
        command.addAll(List.of(SEEDS));
        command.addAll(args);
        final ChildCli.Result result = ChildCli.run(dir, 180, command.toArray(String[]::new));
        assertTrue(result.exitCode() == 0 || result.exitCode() == 3, engine + ": " + result.both());
        assertTrue(Files.isRegularFile(recording), engine + " wrote no recording: " + result.both());
        return new Run(result.exitCode(), out, recording, engine + ": " + result.both() + "\n");
    }

    /** qsl_idx to data of an accuracy log ({@code { "seq_id" : 0, "qsl_idx" : 5, "data" : "05000000" }}). */
    private static Map<Long, String> accuracyData(final Run run) throws IOException
    {
        final Map<Long, String> data = new TreeMap<>();
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile(
            "\"qsl_idx\" : (\\d+), \"data\" : \"([0-9A-F]*)\"").matcher(read(run.dir().resolve(
                "mlperf_log_accuracy.json")));
        while (m.find())
        {
            assertEquals(null, data.put(Long.parseLong(m.group(1)), m.group(2)), "sample " + m.group(1) + " twice");
        }
        return data;
    }

    private static String parsed(final Run run)
    {
        final OfficialPython.Result result = OfficialPython.parseDetailLog(run.dir().resolve("mlperf_log_detail.txt"),
            "effective_scenario", "effective_test_mode", "effective_samples_per_query", "effective_qsl_rng_seed",
            "effective_sample_index_rng_seed", "effective_schedule_rng_seed", "qsl_reported_total_count",
            "effective_performance_sample_count", "effective_accuracy_sample_count");
        assertEquals(0, result.exitCode(), "the official log parser failed on " + run.dir() + ":\n" + result.output());
        return result.output();
    }

    /** The parsed keys (not the message counts: the engines' informational records differ). */
    private static List<String> keyLines(final String parsed)
    {
        return parsed.lines().filter(line -> line.contains("=")).toList();
    }

    /** What LoadGen's version_generator.py hashes: the files of the source folder and of bindings/. */
    static Map<String, String> sha1OfLoadGenFiles(final Path source) throws IOException, NoSuchAlgorithmException
    {
        final Map<String, String> sha1 = new TreeMap<>();
        for (final String folder : List.of("", "bindings/"))
        {
            try (Stream<Path> files = Files.list(source.resolve(folder.isEmpty() ? "." : folder)))
            {
                for (final Path file : files.filter(Files::isRegularFile).toList())
                {
                    final MessageDigest digest = MessageDigest.getInstance("SHA-1");
                    sha1.put("/" + folder + file.getFileName(), HexFormat.of().formatHex(
                        digest.digest(Files.readAllBytes(file))));
                }
            }
        }
        return sha1;
    }

    static String read(final Path file) throws IOException
    {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
