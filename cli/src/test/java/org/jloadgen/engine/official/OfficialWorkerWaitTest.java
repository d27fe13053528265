package org.jloadgen.engine.official;

import java.nio.file.Path;

import org.jloadgen.testing.ChildCli;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Under the official LoadGen, an AUTO toolkit worker counts LoadGen's issue thread (which sleeps to each query and
 * needs a CPU to wake on) before it decides to spin, and the console says so, since LoadGen's detail log cannot.
 */
class OfficialWorkerWaitTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void build()
    {
        OfficialLoadGenFixture.build();
    }

    @Test
    void shouldCountLoadGensIssueThreadBeforeAWorkerSpins()
    {
        final ChildCli.Result result = ChildCli.run(dir, 120, "run", "--engine", "official", "--sut", "null-worker",
            "--scenario", "Server", "--set", "server_target_qps=1000", "--set", "min_duration_ms=200",
            "--set", "min_query_count=100", "--out", dir.resolve("logs").toString(), "--quiet", "--no-audit-config");
        assertTrue(result.exitCode() == 0 || result.exitCode() == 3, result.both());
        final int cpus = Runtime.getRuntime().availableProcessors();
        // The console's lines are wrapped to 80 columns, continuation lines indented by two spaces.
        final String err = result.err().replace("\n  ", " ");
        assertTrue(err.contains("jloadgen: CPU budget: the official LoadGen's issue thread: sleeps to each "
            + "query, needs a CPU to wake on"), err);
        final String worker = "jloadgen: CPU budget: NullWorkerSUT: 1 worker, idle wait ";
        assertTrue(err.contains(worker), err);
        assertTrue(err.contains("(auto: " + cpus + (cpus == 1 ? " CPU" : " CPUs") + ", 0 SUT threads, 1 reserved"),
            err);
        assertTrue(err.contains(" before this SUT's 1 worker: "), err);
        final String line = err.lines().filter(l -> l.startsWith(worker)).findFirst().orElseThrow();
        // The CPUs the child measured other processes keeping busy (the machine running the test may be busy).
        final java.util.regex.Matcher others = java.util.regex.Pattern.compile(", (\\d+) busy in other processes")
            .matcher(line);
        final int busy = others.find() ? Integer.parseInt(others.group(1)) : 0;
        // One CPU for everything else, one for LoadGen's issue thread and the neighbours': the worker spins only on a
        // CPU left after those (from 3 CPUs on, on a quiet machine).
        final String expected = cpus - busy >= 3 ? "SPIN, parking after" : "PARK after a 20 us spin";
        assertEquals(worker + expected, line.substring(0, worker.length() + expected.length()), line);
    }
}
