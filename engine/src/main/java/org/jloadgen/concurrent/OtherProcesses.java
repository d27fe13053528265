package org.jloadgen.concurrent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Locale;

import org.jloadgen.bindings.ProcessCpuTime;

/**
 * How busy the other processes on this process's CPUs are, measured from Linux's own counters: the time each CPU the
 * process may run on ({@code /proc/stat}, the CPUs of {@code Cpus_allowed_list} in {@code /proc/self/status}) was not
 * idle over a short window, less this process's own CPU time over the same window (every thread of it). What is
 * left is what other processes (and the kernel for them) kept busy: {@code 1.0} is one CPU's worth. The process's
 * budget opens the window when the process starts, so it usually spans the start-up ({@link Window}). A neighbour
 * that keeps a CPU busy takes it from a thread that would busy-spin there, so the {@link CpuBudget} counts it.
 * <p>
 * The window is at least {@link #PRECISE_WINDOW_MS} where this process's CPU time is read to the nanosecond
 * ({@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)} through the native library), else {@link #WINDOW_MS}. Why the
 * idle counter and the nanoseconds: {@code /proc} prints every counter in 10 ms ticks, and a counter's difference
 * is off by up to a tick; the busy time summed from five counters (user, nice, system, irq, softirq and steal) less
 * this process's ticks ({@code /proc/self/stat}) could be off by several ticks a CPU, which took a quarter of a
 * second to average out. The idle counter is one counter a CPU (the kernel keeps it in nanoseconds for a tickless
 * idle CPU and truncates it to ticks), and with this process's own time exact the figure is off by at most a tick a
 * CPU: 0.2 CPU over 100 ms on two CPUs, under the half CPU that {@link #wholeCpus()} rounds at. The JVM, the CLI and
 * the settings take longer than 100 ms before the figure is first needed, so the window costs a start nothing.
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
    /** The shortest measuring window where this process's CPU time counts in ticks. */
    public static final long WINDOW_MS = 250;
    /** The shortest measuring window where this process's CPU time is read to the nanosecond. */
    public static final long PRECISE_WINDOW_MS = 100;
    /** A fixed figure instead of a measurement: CPUs other processes keep busy (e.g. {@code 0} on a quiet host). */
    public static final String BUSY_CPUS_PROP_NAME = "jloadgen.otherBusyCpus";

    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final Path SELF_STAT = Path.of("/proc/self/stat");
    private static final Path SELF_STATUS = Path.of("/proc/self/status");

    /**
     * @param window a measurement opened earlier.
     * @return {@code -Djloadgen.otherBusyCpus=N} when given, else the window closed after at least its minimum
     *         ({@link Window#minimumMs()}).
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
        return window.close(window.minimumMs());
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
     * @return this process's CPU time in ns: to the nanosecond where the native library reads it, else from its
     *         ticks ({@code /proc/self/stat}).
     * @throws IOException where neither can be read.
     */
    static long ownCpuNs() throws IOException
    {
        final long preciseNs = ProcessCpuTime.nanosOrMinusOne();
        return preciseNs >= 0 ? preciseNs : ownTicks() * NS_PER_TICK;
    }

    /**
     * A measurement under way: the counters read when it was opened. Opened early (the process's {@link CpuBudget}
     * opens one when it is made) and closed when the figure is first needed, the window costs only what is left of
     * its minimum length by then, instead of a 250 ms sleep before every test.
     */
    public static final class Window
    {
        private final BitSet allowed;
        private final Idle idleBefore;
        private final long ownBeforeNs;
        private final boolean ownPrecise;
        private final long startNs;

        private Window(final BitSet allowed, final Idle idleBefore, final long ownBeforeNs, final boolean ownPrecise,
            final long startNs)
        {
            this.allowed = allowed;
            this.idleBefore = idleBefore;
            this.ownBeforeNs = ownBeforeNs;
            this.ownPrecise = ownPrecise;
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
                final long preciseNs = ProcessCpuTime.nanosOrMinusOne();
                final boolean precise = preciseNs >= 0;
                return new Window(allowed, idleTicks(allowed), precise ? preciseNs : ownTicks() * NS_PER_TICK,
                    precise, System.nanoTime());
            }
            catch (final IOException | RuntimeException ex)
            {
                return new Window(null, null, 0, false, System.nanoTime());
            }
        }

        /**
         * @return the shortest window worth a figure: {@link #PRECISE_WINDOW_MS} where this process's CPU time is
         *         read to the nanosecond, else {@link #WINDOW_MS}.
         */
        public long minimumMs()
        {
            return ownPrecise ? PRECISE_WINDOW_MS : WINDOW_MS;
        }

        /**
         * @param minWindowMs the shortest window worth a figure ({@link #minimumMs()}); sleeps what is left of it,
         *                    if anything.
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
                final Idle idleAfter = idleTicks(allowed);
                final long ownAfterNs = ownCpuNs();
                final long windowNs = System.nanoTime() - startNs;
                final long idleNs = (idleAfter.ticks() - idleBefore.ticks()) * NS_PER_TICK;
                final long notIdleNs = idleAfter.cpus() * windowNs - idleNs;
                final double others = Math.max(0, notIdleNs - (ownAfterNs - ownBeforeNs)) / (double)windowNs;
                return new OtherProcesses(others, windowNs / 1_000_000L, idleAfter.cpus(), true);
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

    /**
     * Idle and iowait ticks summed over some CPUs.
     *
     * @param ticks the sum.
     * @param cpus  the CPUs counted.
     */
    record Idle(long ticks, int cpus)
    {
    }

    /** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Java runs on. */
    static final long CLOCK_TICKS_PER_SECOND = 100;
    private static final long NS_PER_TICK = 1_000_000_000L / CLOCK_TICKS_PER_SECOND;

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
     * @param allowed the CPUs to count, or an empty set for all (the total line).
     * @return idle and iowait ticks of the allowed CPUs, and how many CPUs they cover.
     */
    static Idle idleTicks(final BitSet allowed) throws IOException
    {
        long idle = 0;
        int cpus = 0;
        int all = 0;
        for (final String line : Files.readAllLines(PROC_STAT, StandardCharsets.US_ASCII))
        {
            if (!line.startsWith("cpu"))
            {
                continue;
            }
            // cpuN user nice system idle iowait irq softirq steal ...
            final String[] f = line.split("\\s+");
            if (f[0].equals("cpu"))
            {
                if (allowed.isEmpty())
                {
                    idle += Long.parseLong(f[4]) + Long.parseLong(f[5]);
                }
                continue;
            }
            all++;
            if (!allowed.isEmpty() && allowed.get(Integer.parseInt(f[0].substring(3))))
            {
                idle += Long.parseLong(f[4]) + Long.parseLong(f[5]);
                cpus++;
            }
        }
        return new Idle(idle, allowed.isEmpty() ? all : cpus);
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
