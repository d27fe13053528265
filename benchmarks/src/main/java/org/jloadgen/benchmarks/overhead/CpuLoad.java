package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Machine-wide CPU use from {@code /proc/stat}: the overhead runner waits for a quiet machine before each child
 * (other people's builds on a shared two-core machine turn microseconds into milliseconds) and reports how busy
 * the machine was. Not thread-safe; one instance per runner.
 */
public final class CpuLoad
{
    private static final Path PROC_STAT = Path.of("/proc/stat");

    private CpuLoad()
    {
    }

    /**
     * @param windowMs how long to watch.
     * @return the fraction of CPU time (all CPUs) spent busy during the window, or NaN where {@code /proc/stat}
     *         cannot be read.
     * @throws InterruptedException if interrupted while watching.
     */
    public static double busyFraction(final long windowMs) throws InterruptedException
    {
        final long[] before = read();
        Thread.sleep(windowMs);
        final long[] after = read();
        if (before == null || after == null)
        {
            return Double.NaN;
        }
        return busyFraction(before, after);
    }

    /**
     * @param before {busy, total} jiffies at the start.
     * @param after  {busy, total} jiffies at the end.
     * @return busy / total over the interval (0 if no time passed).
     */
    static double busyFraction(final long[] before, final long[] after)
    {
        final long total = after[1] - before[1];
        return total <= 0 ? 0 : (double)(after[0] - before[0]) / total;
    }

    /**
     * @param line the aggregate {@code cpu} line of {@code /proc/stat}.
     * @return {busy, total} jiffies: total is every field, busy all but idle and iowait.
     * @throws IllegalArgumentException if the line is not the aggregate cpu line.
     */
    static long[] parse(final String line)
    {
        final String[] f = line.trim().split("\\s+");
        if (!f[0].equals("cpu") || f.length < 5)
        {
            throw new IllegalArgumentException("not the aggregate cpu line of /proc/stat: " + line);
        }
        long total = 0;
        for (int i = 1; i < f.length; i++)
        {
            total += Long.parseLong(f[i]);
        }
        final long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
        return new long[] {total - idle, total};
    }

    /**
     * @return {busy, total} jiffies of all CPUs so far, or {@code null} where {@code /proc/stat} cannot be read.
     */
    public static long[] snapshot()
    {
        return read();
    }

    private static long[] read()
    {
        try
        {
            final List<String> lines = Files.readAllLines(PROC_STAT);
            return lines.isEmpty() ? null : parse(lines.get(0));
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }
}
