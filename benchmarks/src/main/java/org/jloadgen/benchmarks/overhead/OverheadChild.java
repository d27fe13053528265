package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.cli.api.CommandLineEntry;

/**
 * Main class of the overhead runner's child JVMs: runs one {@code jloadgen} command line exactly as
 * {@code ./jloadgen} does, then records the process's peak resident set size ({@code VmHWM}, read from
 * {@code /proc/self/status} at the end, when the peak is final) before exiting with the command's exit code.
 * The parent cannot read it after the child is gone, and polling from outside would miss a late peak.
 */
public final class OverheadChild
{
    /** System property naming the file the child writes its report to. */
    public static final String REPORT_PROP_NAME = "jloadgen.overhead.report";

    private OverheadChild()
    {
    }

    /**
     * @param args a {@code jloadgen} command line, e.g. {@code run --sut null ...}.
     */
    public static void main(final String[] args)
    {
        final int exitCode = CommandLineEntry.installed().execute(args);
        final String report = System.getProperty(REPORT_PROP_NAME);
        if (report != null)
        {
            try
            {
                Files.writeString(Path.of(report), "exit=" + exitCode + "\nvmhwm_kib=" + peakRssKib()
                    + "\ncpu_ticks=" + cpuTicks() + "\n", StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                System.err.println("jloadgen overhead child: cannot write " + report + ": " + ex);
            }
        }
        System.exit(exitCode);
    }

    /**
     * @return this process's peak resident set size in KiB ({@code VmHWM}), or -1 where {@code /proc} lacks it.
     */
    static long peakRssKib()
    {
        try
        {
            return parseStatusKib(Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8),
                "VmHWM");
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    /**
     * @return CPU time this process used so far (user + system, all threads) in clock ticks, or -1 where
     *         {@code /proc} lacks it.
     */
    static long cpuTicks()
    {
        try
        {
            return parseStatTicks(Files.readString(Path.of("/proc/self/stat"), StandardCharsets.UTF_8));
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }

    /**
     * @param stat a {@code /proc/<pid>/stat} line.
     * @return its {@code utime + stime} (fields 14 and 15) in clock ticks.
     */
    static long parseStatTicks(final String stat)
    {
        // The command name (field 2) may contain spaces; fields after it are counted from its closing parenthesis.
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * @param statusLines lines of a {@code /proc/<pid>/status} file.
     * @param field       e.g. {@code VmHWM}.
     * @return the field's value in KiB, or -1 if absent.
     */
    static long parseStatusKib(final java.util.List<String> statusLines, final String field)
    {
        for (final String line : statusLines)
        {
            if (line.startsWith(field + ":"))
            {
                final String[] parts = line.substring(field.length() + 1).trim().split("\\s+");
                return Long.parseLong(parts[0]);
            }
        }
        return -1;
    }
}
