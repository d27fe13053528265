package org.jloadgen.systemtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tools/platform-stalls} as its README builds and runs it: it compiles without warnings, a short run prints
 * one row per CPU asked for with counts that only shrink as the gap grows, within 80 columns, and a missing argument
 * is a usage error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlatformStallsToolTest
{
    @TempDir
    Path dir;

    private static Path root()
    {
        final String root = System.getProperty("jloadgen.root.dir");
        return root != null ? Path.of(root).toAbsolutePath().normalize() : Path.of("..").toAbsolutePath().normalize();
    }

    private static Result run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        return new Result(process.exitValue(), output);
    }

    private record Result(int status, String output)
    {
    }

    @Test
    void shouldCountEachCpusGapsBySizeAndRefuseAMissingDuration() throws Exception
    {
        final Path binary = dir.resolve("stalls");
        final Result build = run(List.of("cc", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-o",
            binary.toString(), root().resolve("tools/platform-stalls/stalls.c").toString()));
        assertEquals(0, build.status(), build.output());

        final Result stalls = run(List.of(binary.toString(), "0.3", "0"));
        assertEquals(0, stalls.status(), stalls.output());
        final List<String> lines = stalls.output().lines().toList();
        assertEquals(3, lines.size(), stalls.output());
        assertTrue(lines.get(0).startsWith("0.3 s: gaps between the clock readings"), stalls.output());
        assertTrue(lines.get(1).matches("cpu +>=10us +>=50us +>=100us +>=500us +>=1ms +>=2ms +longest +run-queue "
            + "+ticks"), lines.get(1));
        // CPU 0 pinned (no '?'), six counts, the longest gap, the run-queue wait and the CPU's timer interrupts
        // ('?' where /proc does not say, e.g. no LOC line on other architectures).
        final java.util.regex.Matcher row = java.util.regex.Pattern.compile(
            " *0 +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +\\d+\\.\\d\\d ms +(\\d+\\.\\d ms|\\?) +(\\d+|\\?)")
            .matcher(lines.get(2));
        assertTrue(row.matches(), lines.get(2));
        long previous = Long.MAX_VALUE;
        for (int i = 1; i <= 6; i++)
        {
            final long count = Long.parseLong(row.group(i));
            assertTrue(count <= previous, "counts of longer gaps cannot be larger: " + lines.get(2));
            previous = count;
        }
        for (final String line : lines)
        {
            assertTrue(line.length() <= 80, "over 80 columns: " + line);
        }

        final Result usage = run(List.of(binary.toString()));
        assertEquals(2, usage.status(), usage.output());
        assertTrue(usage.output().contains("usage:"), usage.output());
    }
}
