package org.jloadgen.cli.api;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.jloadgen.bindings.ThreadScheduling;
import org.jloadgen.engine.RunStatus;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.engine.TestResult;

/**
 * One live status line on a terminal while a test runs: the step, elapsed time against {@code min_duration},
 * samples issued and completed, the completion rate and the last interval's p99 latency. Drawn by its own daemon
 * thread at the lowest priority, twice a second, from {@link RunStatus#snapshot()}: the issue and completion paths
 * do no work for it, and it never holds a core a SUT thread wants for longer than one redraw.
 */
public final class ProgressLine implements AutoCloseable
{
    /** Redraw period: often enough to look live, rare enough to cost nothing. */
    static final long PERIOD_MS = 500;
    private static final String ERASE_LINE = "\r\033[K";
    /** Guards {@link #drawnOn}: a line is drawn, or erased before other output, as a whole. */
    private static final Object TERMINAL = new Object();
    /** The stream the status line currently stands on, or {@code null} when none is shown. */
    private static PrintStream drawnOn;

    private final RunStatus status;
    private final PrintStream err;
    private final String jobStep;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastCompleted = -1;
    private long lastElapsedNs;
    private String lastSeries = "";

    private ProgressLine(final RunStatus status, final PrintStream err, final String jobStep)
    {
        this.status = status;
        this.err = err;
        this.jobStep = jobStep;
        this.thread = new Thread(this::run, "jloadgen-progress");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
    }

    /**
     * @param status  the running test.
     * @param err     standard error.
     * @param jobStep a prefix naming the job's step (the default job's {@code [1/2] accuracy}), or {@code null}.
     * @param enabled whether to draw at all (off with {@code --quiet} and when standard error is not a terminal).
     * @return a started progress line; close it when the test ends.
     */
    public static ProgressLine start(final RunStatus status, final PrintStream err, final String jobStep,
        final boolean enabled)
    {
        final ProgressLine line = new ProgressLine(status, err, jobStep);
        if (enabled)
        {
            line.thread.start();
        }
        return line;
    }

    /**
     * @return whether standard error is an interactive terminal: the JVM has a terminal console and, where Linux
     *         tells, file descriptor 2 is a terminal device (not a file or pipe).
     */
    public static boolean stderrIsTerminal()
    {
        final java.io.Console console = System.console();
        if (console == null || !console.isTerminal())
        {
            return false;
        }
        try
        {
            final String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        }
        catch (final java.io.IOException | UnsupportedOperationException | SecurityException ex)
        {
            // No /proc: the console's answer (standard input and output are terminals) has to do.
            return true;
        }
    }

    /**
     * Wraps a stream the test prints to (the summary, the default job's messages) so that writing to it first erases
     * the status line; the next redraw puts the line back under the new output. Not for the timed part: each write
     * takes a lock.
     *
     * @param target the stream.
     * @return a stream that writes to {@code target}.
     */
    public static PrintStream guard(final PrintStream target)
    {
        return new PrintStream(new java.io.FilterOutputStream(target)
        {
            @Override
            public void write(final int b) throws java.io.IOException
            {
                eraseDrawn();
                out.write(b);
            }

            @Override
            public void write(final byte[] b, final int off, final int len) throws java.io.IOException
            {
                eraseDrawn();
                out.write(b, off, len);
            }
        }, true, target.charset());
    }

    private static void eraseDrawn()
    {
        synchronized (TERMINAL)
        {
            if (drawnOn != null)
            {
                drawnOn.print(ERASE_LINE);
                drawnOn.flush();
                drawnOn = null;
            }
        }
    }

    public void draw(final String text)
    {
        synchronized (TERMINAL)
        {
            err.print(ERASE_LINE + text);
            err.flush();
            drawnOn = err;
        }
    }

    private void run()
    {
        // Java's thread priorities mean nothing to Linux by default; SCHED_IDLE keeps the line from taking a CPU from
        // the issue thread or a SUT thread while the clock runs.
        ThreadScheduling.tryRunOnlyWhenIdle();
        while (running)
        {
            try
            {
                Thread.sleep(PERIOD_MS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            if (running)
            {
                draw(format(status.snapshot()));
            }
        }
    }

    /**
     * @param s what the test is doing.
     * @return the status line (no line break).
     */
    public String format(final RunStatus.Snapshot s)
    {
        final StringBuilder line = new StringBuilder(120);
        if (jobStep != null)
        {
            line.append(jobStep).append(" | ");
        }
        line.append(s.step());
        if (!s.issuing())
        {
            lastCompleted = -1;
            return line.append(" | preparing").toString();
        }
        if (!s.series().equals(lastSeries))
        {
            lastSeries = s.series();
            lastCompleted = -1;
        }
        line.append(" | ").append(s.series());
        line.append(String.format(Locale.ROOT, " | %.1f", s.elapsedNs() / 1e9));
        if (s.minDurationMs() > 0)
        {
            line.append(String.format(Locale.ROOT, "/%.1f", s.minDurationMs() / 1e3));
        }
        line.append(String.format(Locale.ROOT, " s | issued %,d done %,d", s.samplesIssued(), s.samplesCompleted()));
        if (lastCompleted >= 0 && s.elapsedNs() > lastElapsedNs)
        {
            final double perSecond = (s.samplesCompleted() - lastCompleted) * 1e9 / (s.elapsedNs() - lastElapsedNs);
            line.append(String.format(Locale.ROOT, " | %,.0f/s", perSecond));
        }
        lastCompleted = s.samplesCompleted();
        lastElapsedNs = s.elapsedNs();
        if (s.intervalP99Ns() >= 0)
        {
            line.append(" | p99 ").append(duration(s.intervalP99Ns()));
        }
        return line.toString();
    }

    private static String duration(final long ns)
    {
        if (ns < 10_000)
        {
            return ns + " ns";
        }
        if (ns < 10_000_000)
        {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
    }

    /**
     * Stops drawing and erases the line, so what the test prints next starts on a clean line.
     */
    @Override
    public void close()
    {
        running = false;
        if (thread.isAlive())
        {
            thread.interrupt();
            try
            {
                thread.join(2_000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            eraseDrawn();
        }
    }

    /**
     * Runs the test with a live status line on standard error when it is a terminal. Ctrl-C is the caller's
     * {@link InterruptGuard}'s, which covers what the caller prints after the test too. Also for default jobs that
     * drive the engine themselves.
     *
     * @param runner   the test.
     * @param jobStep  what the status line starts with (a job's step, e.g. {@code [1/2] accuracy}), or {@code null}.
     * @param progress whether to show the status line when standard error is a terminal (off with {@code --quiet}).
     * @return its result.
     */
    public static TestResult runWithStatusLine(final TestRunner runner, final String jobStep, final boolean progress)
    {
        final ProgressLine line = ProgressLine.start(runner.status(), System.err, jobStep,
            progress && ProgressLine.stderrIsTerminal());
        try
        {
            return runner.run();
        }
        finally
        {
            line.close();
        }
    }
}
