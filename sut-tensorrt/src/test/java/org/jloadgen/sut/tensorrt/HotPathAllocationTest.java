package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.sut.SutStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The TensorRT SUT's own hot path allocates nothing: its issue threads (batching, enqueuing the copies, inference and
 * copy back, recording stage times) and its completion threads (polling events, timing stages, completing batches).
 * Measured over whole Server runs on the simulated device, whose own stream threads stand for the GPU and are not
 * counted.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HotPathAllocationTest
{
    @Test
    void shouldAllocateNothingOnTheIssueAndCompletionThreads(@org.junit.jupiter.api.io.TempDir final Path dir)
        throws IOException
    {
        final Sims.Files3 files = Sims.dataset(dir, 512);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (Sims.Opened o = Sims.open(files.options("batch", "8", "timeout-us", "200", "graphs", "2,8",
            "idle", "backoff", "completion-wait", "backoff", "sim-devices", "2"), TestScenario.SERVER))
        {
            final String prefix = o.sut().name() + "-";
            final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.PERFORMANCE_ONLY).serverTargetQps(4_000).minDurationMs(300).minQueryCount(500);
            // The first runs link call sites and initialise classes; then three whole runs in a row must leave the
            // SUT's threads' allocation counters where they were.
            int clean = 0;
            long[] ids = new long[0];
            for (int run = 0; run < 12 && clean < 3; run++)
            {
                ids = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix))
                    .mapToLong(Thread::threadId).toArray();
                final long before = sum(threads.getThreadAllocatedBytes(ids));
                final TestResult result = Sims.run(o.sut(), settings, dir.resolve("run" + run));
                assertEquals(0, result.errorCount(), result.messages().toString());
                clean = sum(threads.getThreadAllocatedBytes(ids)) == before ? clean + 1 : 0;
            }
            assertEquals(2 + 2, ids.length, "one issue and one completion thread per GPU");
            assertEquals(3, clean, "the issue or completion threads kept allocating");
            // One snapshot: taking one starts the next interval.
            final SutStatistics.Snapshot stats = o.sut().statistics().snapshot();
            assertTrue(stats.batches() > 0);
            assertTrue(stats.counters().get("host_gathers") > 0, "the host gather of scattered batches ran on the "
                + "issue threads: " + stats.samples() + " samples in " + stats.batches() + " batches, "
                + stats.counters());
        }
    }

    private static long sum(final long[] values)
    {
        long total = 0;
        for (final long v : values)
        {
            total += v;
        }
        return total;
    }
}
