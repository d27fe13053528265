package org.jloadgen.engine.official;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.testing.ChildCli;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Under the official LoadGen, the Java side of the hot path allocates nothing: the issue upcall, the sample view, the
 * SUT's completions and their downcalls, measured on the issuing thread (which completes inline) over the last 40000
 * of 80000 SingleStream queries (the first ones let the JIT compile the path), one sample at a time and as response
 * arrays.
 */
class OfficialAllocationTest
{
    private static final Pattern MEASURED = Pattern.compile("^A (\\d+) queries (-?\\d+) bytes$", Pattern.MULTILINE);

    @BeforeAll
    static void build()
    {
        OfficialLoadGenFixture.build();
    }

    @ParameterizedTest(name = "batch={0}")
    @ValueSource(booleans = {false, true})
    void shouldAllocateNothingOnTheIssueAndCompletionPaths(final boolean batch, @org.junit.jupiter.api.io.TempDir
        final Path dir) throws IOException
    {
        final Path recording = dir.resolve("allocation.txt");
        final List<String> command = new ArrayList<>(List.of("run", "--engine", "official", "--sut", "trace-recording",
            "--sut-opt", "file=" + recording, "--sut-opt", "allocation=true", "--sut-opt", "batch=" + batch,
            "--scenario", "SingleStream", "--set", "min_duration_ms=0", "--set", "min_query_count=80000",
            "--set", "single_stream_expected_latency_ns=10000", "--out", dir.resolve("logs").toString(), "--quiet",
            "--no-audit-config"));
        final ChildCli.Result result = ChildCli.run(dir, 180, command.toArray(String[]::new));
        assertTrue(result.exitCode() == 0 || result.exitCode() == 3, result.both());

        final Matcher m = MEASURED.matcher(Files.readString(recording));
        assertTrue(m.find(), Files.readString(recording));
        assertEquals(40_000L, Long.parseLong(m.group(1)), "queries measured");
        assertEquals(0L, Long.parseLong(m.group(2)), "bytes allocated by the issuing thread");
    }
}
