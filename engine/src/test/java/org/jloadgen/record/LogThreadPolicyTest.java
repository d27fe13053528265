package org.jloadgen.record;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import org.agrona.DirectBuffer;
import org.jloadgen.bindings.ThreadScheduling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The harness's own threads that run while the clock runs take only CPU time nobody else wants: the kernel reports
 * them with the {@code SCHED_IDLE} policy.
 */
class LogThreadPolicyTest
{
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void shouldRunTheAccuracyLogDrainOnlyWhenACpuIsIdle()
    {
        try (AccuracyLogCollector collector = new AccuracyLogCollector(new AccuracyLogConsumer()
        {
            @Override
            public void onResponse(final long sampleSequenceId, final long qslIndex, final DirectBuffer data,
                final int offset, final int length, final long tokenCount)
            {
            }

            @Override
            public void onFirstToken(final long sampleSequenceId, final DirectBuffer data, final int offset,
                final int length)
            {
            }
        }, 1 << 16))
        {
            assertEquals(ThreadScheduling.SCHED_IDLE, policyOf("jloadgen-accuracy-log"));
        }
    }

    @Test
    void shouldRunTheLatencyLogWriterOnlyWhenACpuIsIdle()
    {
        try (LatencyIntervalLog log = new LatencyIntervalLog(dir.resolve("latency.hlog"), 1_000))
        {
            log.startSeries("series");
            assertEquals(ThreadScheduling.SCHED_IDLE, policyOf("jloadgen-latency-log"));
        }
    }

    /**
     * @param threadName a thread's full name; the kernel keeps its first 15 characters.
     * @return its policy, field 41 of its {@code /proc/self/task/<tid>/stat}, once the thread has set it.
     */
    private static int policyOf(final String threadName)
    {
        final String comm = threadName.substring(0, Math.min(15, threadName.length()));
        return assertTimeoutPreemptively(LIMIT, () ->
        {
            while (true)
            {
                try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
                {
                    for (final Path task : (Iterable<Path>)tasks::iterator)
                    {
                        if (read(task.resolve("comm")).strip().equals(comm))
                        {
                            final String stat = read(task.resolve("stat"));
                            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
                            final int policy = Integer.parseInt(fields[41 - 3]);
                            if (policy == ThreadScheduling.SCHED_IDLE)
                            {
                                return policy;
                            }
                        }
                    }
                }
                Thread.sleep(1);
            }
        }, threadName + " never ran with SCHED_IDLE");
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
