package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.JitThreadPolicy;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.testing.ScriptedClock;
import org.jloadgen.testing.ScriptedSut;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole runs on a scripted clock with a scripted SUT, so every number is fixed: the summary must equal the
 * golden file byte for byte, and the detail log too except the fields that name the machine, the build or the
 * date (pid, tid, source file and line, build dates, version, jar hashes, test_datetime, power_begin/end).
 * Regenerate after an intended change with {@code -Djloadgen.golden.update=true} and review the diff.
 */
class GoldenRunTest
{
    private static final Path GOLDEN = Path.of("src/test/resources/golden-runs");
    private static final long[] SERVICE_NS = {100_000, 250_000, 120_000, 900_000, 130_000, 95_000, 3_000_000,
        110_000, 140_000, 105_000};
    private static final Pattern METADATA = Pattern.compile(
        "\"file\": \"[^\"]*\", \"line_no\": \\d+, \"pid\": \\d+, \"tid\": \\d+");
    private static final List<String> MACHINE_KEYS = List.of("loadgen_version", "loadgen_build_date_local",
        "loadgen_build_date_utc", "loadgen_file_sha1", "test_datetime", "power_begin", "power_end");

    @TempDir
    Path dir;

    static Stream<Arguments> runs()
    {
        final TestSettings base = new TestSettings().minQueryCount(200).minDurationMs(50);
        return Stream.of(
            Arguments.of("singlestream", base.copy().scenario(TestScenario.SINGLE_STREAM)
                .singleStreamExpectedLatencyNs(100_000)),
            Arguments.of("multistream", base.copy().scenario(TestScenario.MULTI_STREAM).minQueryCount(662)
                .multiStreamExpectedLatencyNs(50_000)),
            Arguments.of("server", base.copy().scenario(TestScenario.SERVER).serverTargetQps(2_000)
                .minQueryCount(500).serverTargetLatencyNs(2_000_000)),
            Arguments.of("server-valid", base.copy().scenario(TestScenario.SERVER).serverTargetQps(500)
                .minQueryCount(500).serverTargetLatencyNs(5_000_000)),
            Arguments.of("offline", base.copy().scenario(TestScenario.OFFLINE).offlineExpectedQps(10_000)),
            Arguments.of("singlestream-accuracy", base.copy().scenario(TestScenario.SINGLE_STREAM)
                .mode(TestMode.ACCURACY_ONLY)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void shouldWriteTheGoldenSummaryAndDetail(final String name, final TestSettings settings) throws IOException
    {
        final ScriptedClock clock = new ScriptedClock(1_000_000_000_000L);
        final EngineOptions options = new EngineOptions().clock(clock).wallClock(clock).jitWarmupMs(0)
            .latencyHistogram(false).serverWait(ServerWaitStrategy.SPIN).completionWait(CompletionWaitStrategy.SPIN)
            .jitThreads(JitThreadPolicy.NORMAL);
        final TestRunner runner = new TestRunner(new ScriptedSut(clock, SERVICE_NS), new SyntheticQsl(256, 128),
            settings, new LogSettings().outputDirectory(dir), options, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        runner.run();

        final String summary = Files.readString(dir.resolve("mlperf_log_summary.txt"));
        final String detail = mask(Files.readString(dir.resolve("mlperf_log_detail.txt")));
        final Path golden = GOLDEN.resolve(name);
        if (Boolean.getBoolean("jloadgen.golden.update"))
        {
            Files.createDirectories(golden);
            Files.writeString(golden.resolve("mlperf_log_summary.txt"), summary);
            Files.writeString(golden.resolve("mlperf_log_detail.txt"), detail);
        }
        assertEquals(Files.readString(golden.resolve("mlperf_log_summary.txt")), summary, "summary of " + name);
        assertEquals(Files.readString(golden.resolve("mlperf_log_detail.txt")), detail, "detail log of " + name);
    }

    private static String mask(final String detail)
    {
        final StringBuilder out = new StringBuilder();
        for (final String line : detail.split("\n"))
        {
            String l = METADATA.matcher(line).replaceAll("\"file\": \"*\", \"line_no\": 0, \"pid\": 0, \"tid\": 0");
            for (final String key : MACHINE_KEYS)
            {
                final String prefix = ":::MLLOG {\"key\": \"" + key + "\", \"value\": ";
                if (l.startsWith(prefix))
                {
                    l = prefix + "\"*\"" + l.substring(l.indexOf(", \"time_ms\": "));
                }
            }
            out.append(l).append('\n');
        }
        return out.toString();
    }
}
