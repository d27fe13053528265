package org.jloadgen.concurrent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * How busy the other processes on this process's CPUs are, measured from Linux's own counters: the busy time of
 * each CPU the process may run on ({@code /proc/stat}, the CPUs of {@code Cpus_allowed_list} in
 * {@code /proc/self/status}) over a short window, less this process's own CPU time over the same window
 * ({@code /proc/self/stat}, every thread of it). What is left is what other processes (and the kernel for them) kept
 * busy: {@code 1.0} is one CPU's worth. The window is at least {@link #WINDOW_MS}; the process's budget opens it when
 * the process starts, so it usually spans the start-up ({@link Window}). A neighbour that keeps a CPU busy takes it
 * from a thread that would busy-spin there, so the {@link CpuBudget} counts it.
 * <p>
 * It is a sample, not a forecast: servers that sit idle while this process starts and get busy only once it sends
 * them work are not seen (network SUTs reserve CPUs for co-located servers themselves), and a build that starts
 * later is not either. Where there is no {@code /proc} (not Linux) nothing is measured.
 *
 * @param busyCpus CPUs' worth of time other processes kept busy over the window ({@code 0} when not measured).
 * @param windowMs the window.
 * @param cpusSeen the CPUs whose counters were read.
 * @param measured whether it was measured.
 */
public record OtherProcesses(double busyCpus, long windowMs, int cpusSeen, boolean measured)
{
    /** The shortest measuring window. */
    public static final long WINDOW_MS = 250;
    /** A fixed figure instead of a measurement: CPUs other processes keep busy (e.g. {@code 0} on a quiet host). */
    public static final String BUSY_CPUS_PROP_NAME = "jloadgen.otherBusyCpus";

    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final Path SELF_STAT = Path.of("/proc/self/stat");
    private static final Path SELF_STATUS = Path.of("/proc/self/status");

    /**
     * @param window a measurement opened earlier.
     * @return {@code -Djloadgen.otherBusyCpus=N} when given, else the window closed after at least
     *         {@link #WINDOW_MS}.
     */
    public static OtherProcesses configuredOr(final Window window)
    {
        final String fixed = System.getProperty(BUSY_CPUS_PROP_NAME);
        if (fixed != null && !fixed.isBlank())
        {
            final double cpus;
            try
            {
                cpus = Double.parseDouble(fixed.strip());
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("-D" + BUSY_CPUS_PROP_NAME + " must be a number of CPUs, got '"
                    + fixed + "'", ex);
            }
            if (!(cpus >= 0))
            {
                throw new IllegalArgumentException("-D" + BUSY_CPUS_PROP_NAME + " must be 0 or more, got '" + fixed
                    + "'");
            }
            return new OtherProcesses(cpus, 0, 0, false);
        }
        return window.close(WINDOW_MS);
    }

    /**
     * @param windowMs how long to watch.
     * @return the measurement, or a zero one where {@code /proc} cannot be read.
     */
    public static OtherProcesses measure(final long windowMs)
    {
        return Window.open().close(windowMs);
    }

    /**
     * A measurement under way: the counters read when it was opened. Opened early (the process's {@link CpuBudget}
     * opens one when it is made) and closed when the figure is first needed, the window costs only what is left of
     * its minimum length by then, instead of a 250 ms sleep before every test.
     */
    public static final class Window
    {
        private final BitSet allowed;
        private final long busyBefore;
        private final long ownBefore;
        private final long startNs;

        private Window(final BitSet allowed, final long busyBefore, final long ownBefore, final long startNs)
        {
            this.allowed = allowed;
            this.busyBefore = busyBefore;
            this.ownBefore = ownBefore;
            this.startNs = startNs;
        }

        /**
         * @return a window from now, or one that measures nothing where {@code /proc} cannot be read.
         */
        public static Window open()
        {
            try
            {
                final BitSet allowed = allowedCpus();
                return new Window(allowed, busyTicks(allowed), ownTicks(), System.nanoTime());
            }
            catch (final IOException | RuntimeException ex)
            {
                return new Window(null, 0, 0, System.nanoTime());
            }
        }

        /**
         * @param minWindowMs the shortest window worth a figure: /proc counts in 10 ms ticks. Sleeps what is left
         *                    of it, if anything.
         * @return the measurement over the whole window, from {@link #open()} to now, or a zero one where
         *         {@code /proc} cannot be read.
         */
        public OtherProcesses close(final long minWindowMs)
        {
            if (allowed == null)
            {
                return new OtherProcesses(0, 0, 0, false);
            }
            try
            {
                final long leftNs = minWindowMs * 1_000_000L - (System.nanoTime() - startNs);
                if (leftNs > 0)
                {
                    Thread.sleep(leftNs / 1_000_000L, (int)(leftNs % 1_000_000L));
                }
                final long busyAfter = busyTicks(allowed);
                final long ownAfter = ownTicks();
                final long windowNs = System.nanoTime() - startNs;
                final double others = Math.max(0, (busyAfter - busyBefore) - (ownAfter - ownBefore))
                    / (double) CLOCK_TICKS_PER_SECOND / (windowNs / 1e9);
                return new OtherProcesses(others, windowNs / 1_000_000L, allowed.cardinality(), true);
            }
            catch (final IOException | RuntimeException ex)
            {
                return new OtherProcesses(0, 0, 0, false);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return new OtherProcesses(0, 0, 0, false);
            }
        }
    }

    /** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Java runs on. */
    static final long CLOCK_TICKS_PER_SECOND = 100;

    /**
     * @return the whole CPUs other processes are counted as keeping busy: the figure rounded to the nearest whole
     *         CPU (half a CPU's worth or more counts as one).
     */
    public int wholeCpus()
    {
        return (int) Math.floor(busyCpus + 0.5);
    }

    /**
     * @return e.g. {@code 1 busy in other processes (1.27 CPUs over 250 ms, /proc/stat)}, for the detail log.
     */
    public String describe()
    {
        final String figure = String.format(Locale.ROOT, "%.2f", busyCpus);
        return wholeCpus() + " busy in other processes (" + figure + " CPUs"
            + (measured ? " over " + windowMs + " ms, /proc/stat" : ", -D" + BUSY_CPUS_PROP_NAME) + ")";
    }

    private static BitSet allowedCpus() throws IOException
    {
        final BitSet cpus = new BitSet();
        for (final String line : Files.readAllLines(SELF_STATUS, StandardCharsets.US_ASCII))
        {
            if (line.startsWith("Cpus_allowed_list:"))
            {
                for (final String range : line.substring(line.indexOf(':') + 1).strip().split(","))
                {
                    final int dash = range.indexOf('-');
                    final int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                    final int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
                    cpus.set(from, to + 1);
                }
            }
        }
        return cpus;
    }

    /**
     * @return busy ticks (user, nice, system, irq, softirq, steal) of the allowed CPUs, or of all when the mask is
     *         unknown.
     */
    static long busyTicks(final BitSet allowed) throws IOException
    {
        long busy = 0;
        final List<String> lines = Files.readAllLines(PROC_STAT, StandardCharsets.US_ASCII);
        for (final String line : lines)
        {
            if (!line.startsWith("cpu"))
            {
                continue;
            }
            final String[] f = line.split("\\s+");
            final boolean total = f[0].equals("cpu");
            if (total != allowed.isEmpty() || (!total && !allowed.get(Integer.parseInt(f[0].substring(3)))))
            {
                continue;
            }
            // user nice system idle iowait irq softirq steal
            busy += Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                + Long.parseLong(f[7]) + (f.length > 8 ? Long.parseLong(f[8]) : 0);
        }
        return busy;
    }

    /**
     * @return this process's user and system ticks, every thread.
     */
    static long ownTicks() throws IOException
    {
        final String stat = Files.readString(SELF_STAT, StandardCharsets.US_ASCII);
        // The command name may hold spaces and parentheses: fields are counted after the last ')'.
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // Fields 14 and 15 (utime, stime) are the 12th and 13th after the name (state is the 3rd field).
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
