package org.jloadgen.engine.official;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.ChildCli;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A SUT that misbehaves under the official LoadGen (the synthetic SUT's deliberate bugs) ends the run INVALID
 * (exit 3) within a bounded time, with complete logs (a summary with LoadGen's error count, a detail log whose
 * every line parses, a closed accuracy log), an {@code error_runtime} record that says what happened, and the same
 * message on the console.
 */
class OfficialFailuresTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void build()
    {
        OfficialLoadGenFixture.build();
    }

    static Stream<Arguments> misbehaviours()
    {
        final List<String> singleStream = List.of("--scenario", "SingleStream", "--set", "min_duration_ms=300",
            "--set", "min_query_count=200");
        final List<String> server = List.of("--scenario", "Server", "--set", "server_target_qps=2000",
            "--set", "min_duration_ms=300", "--set", "min_query_count=200");
        final List<String> serverThreads = List.of("--scenario", "Server", "--set", "server_target_qps=2000",
            "--set", "min_duration_ms=300", "--set", "min_query_count=200",
            "--set", "server_num_issue_query_threads=2");
        // Offline issues one query: its first one misbehaves.
        final List<String> offline = List.of("--scenario", "Offline", "--set", "offline_expected_qps=2000",
            "--set", "min_duration_ms=300", "--sut-opt", "batch=16", "--sut-opt", "misbehave-after=0");
        return Stream.of(
            Arguments.of("throw", singleStream, "the SUT threw from issueQuery"),
            Arguments.of("throw", serverThreads, "the SUT threw from issueQuery"),
            Arguments.of("throw-flush", singleStream, "the SUT threw from flushQueries"),
            // The worker's failure reaches the bridge through ResponseSink.fail, or as the SUT's next issueQuery
            // throwing because it has stopped, whichever comes first; both name it.
            Arguments.of("fail", server, "synthetic SUT misbehaving on purpose: inference failed"),
            Arguments.of("never", singleStream, "no sample completed for"),
            Arguments.of("never", server, "no sample completed for"),
            Arguments.of("never", offline, "no sample completed for"),
            Arguments.of("twice", singleStream, "the sample was already complete (completed twice)"),
            Arguments.of("twice", server, "the sample was already complete (completed twice)"),
            Arguments.of("unknown", singleStream, "no such sample is outstanding"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("misbehaviours")
    void shouldEndInvalidWithCompleteLogsAndAClearError(final String misbehaviour, final List<String> args,
        final String expected) throws IOException
    {
        final Path out = dir.resolve("logs");
        final List<String> command = new ArrayList<>(List.of("run", "--engine", "official", "--sut", "synthetic",
            "--sut-opt", "misbehave=" + misbehaviour, "--out", out.toString(), "--quiet", "--no-audit-config",
            "--completion-timeout-ms", "1500"));
        if (!args.contains("misbehave-after=0"))
        {
            command.addAll(List.of("--sut-opt", "misbehave-after=20"));
        }
        command.addAll(args);
        final long startNs = System.nanoTime();
        final ChildCli.Result result = ChildCli.run(dir, 120, command.toArray(String[]::new));
        final long tookMs = (System.nanoTime() - startNs) / 1_000_000;

        assertEquals(3, result.exitCode(), result.both());
        assertTrue(result.err().contains(expected) || result.err().contains(consoleWords(misbehaviour)),
            "console: " + result.both());
        final String summary = Files.readString(out.resolve("mlperf_log_summary.txt"), StandardCharsets.UTF_8);
        assertTrue(summary.matches("(?s).*\\d+ ERRORS? encountered\\. See detailed log\\.\\s*"), summary);
        final MlLogParser detail = MlLogParser.parse(out.resolve("mlperf_log_detail.txt"));
        assertTrue(detail.records().stream().anyMatch(r -> r.isError() && "error_runtime".equals(r.key())
            && String.valueOf(r.value()).contains(expected)), "error_runtime record with '" + expected + "'");
        final String accuracy = Files.readString(out.resolve("mlperf_log_accuracy.json"), StandardCharsets.UTF_8)
            .strip();
        assertTrue(accuracy.startsWith("[") && accuracy.endsWith("]"), "a closed accuracy log: " + accuracy);
        assertTrue(tookMs < 60_000, "took " + tookMs + " ms");
    }

    /** The console's summary of what the bridge dropped, for the misbehaviours that do not fail the test. */
    private static String consoleWords(final String misbehaviour)
    {
        return switch (misbehaviour)
        {
            case "twice" -> "completions of samples already complete were dropped";
            case "unknown" -> "completions of ids that were not outstanding were dropped";
            default -> "the test ended early because";
        };
    }
}
