package org.jloadgen.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.testing.ChildCli;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's warm-up leaves the issue path nothing to deoptimise while the clock runs. A branch the warm-up never
 * took is compiled by C2 as a trap; the first time the measured run takes it, the issue loop drops back to
 * interpreted and then profiling code for the rest of a short run. That happened with the Server loop's silence
 * check, which first ran 100 ms into the measured run and cost the inline 10k-QPS run about 9 ns at p50. This test
 * runs the command line with {@code -Xlog:deoptimization} and fails on any deoptimisation of the issue package's
 * code between {@code power_begin} and {@code power_end} of the detail log (less the last 100 ms, where the series'
 * end conditions run for the first time, as they must). Each SUT runs with and without an end condition the run does
 * not reach ({@code max_duration_ms}, {@code max_query_count}): the warm-up never set one, and the first run that did
 * deoptimised the issue loop at its first query. At 50k QPS the 1.5 s run issues more samples than the worker SUT's
 * 64 Ki ring holds: the producer's first reload of the consumer index had trapped 1.3 s into such a run.
 */
class MeasuredRunDeoptimizationTest
{
    /** The issue and completion paths: the engine's issue loop and recorder, the toolkit's SUTs, the waits. */
    private static final Pattern DEOPT = Pattern.compile("^\\[([^\\]]+)\\].*?"
        + "(org\\.jloadgen\\.(?:issue|record|sut|concurrent)\\.[A-Za-z$]+\\.[A-Za-z]+)\\(.*?trap_bci=\\d+ ([a-z_]+)");
    private static final Pattern POWER =
        Pattern.compile("\"key\": \"(power_begin|power_end)\", \"value\": \"([^\"]+)\"");
    private static final DateTimeFormatter POWER_TIME = DateTimeFormatter.ofPattern("MM-dd-yyyy HH:mm:ss.SSS");
    private static final DateTimeFormatter XLOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"null, false", "null-worker, false", "null, true", "null-worker, true"})
    void theIssuePathIsNotDeoptimisedWhileTheClockRuns(final String sut, final boolean limits) throws IOException
    {
        final Path deoptLog = dir.resolve("deopt.log");
        final Path out = dir.resolve("out");
        final List<String> args = new java.util.ArrayList<>(List.of("run", "--sut", sut, "--scenario", "Server",
            "--set", "server_target_qps=50000", "--set", "min_duration_ms=1500", "--out", out.toString()));
        if (limits)
        {
            args.addAll(List.of("--set", "max_duration_ms=60000", "--set", "max_query_count=100000000"));
        }
        final ChildCli.Result result = ChildCli.run(dir, 120,
            List.of("-Xlog:deoptimization=debug:file=" + deoptLog + ":utctime", "-Djloadgen.otherBusyCpus=0"),
            args.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.both());

        final String detail = Files.readString(out.resolve("mlperf_log_detail.txt"), StandardCharsets.UTF_8);
        Instant begin = null;
        Instant end = null;
        final Matcher power = POWER.matcher(detail);
        while (power.find())
        {
            final Instant at = LocalDateTime.parse(power.group(2), POWER_TIME).toInstant(ZoneOffset.UTC);
            if (power.group(1).equals("power_begin"))
            {
                begin = at;
            }
            else
            {
                end = at.minusMillis(100);
            }
        }
        assertTrue(begin != null && end != null && end.isAfter(begin), detail);

        final StringBuilder inRun = new StringBuilder();
        int issuePathDeopts = 0;
        for (final String line : Files.readAllLines(deoptLog, StandardCharsets.UTF_8))
        {
            final Matcher m = DEOPT.matcher(line);
            if (!m.find())
            {
                continue;
            }
            issuePathDeopts++;
            final Instant at = OffsetDateTime.parse(m.group(1), XLOG_TIME).toInstant();
            if (!at.isBefore(begin) && at.isBefore(end))
            {
                inRun.append(m.group(2)).append(' ').append(m.group(3)).append(" at ").append(at).append('\n');
            }
        }
        assertEquals("", inRun.toString(), "the issue path was deoptimised during the measured run ("
            + issuePathDeopts + " issue-path deoptimisations in all, measured run " + begin + " to " + end + ")");
    }
}
