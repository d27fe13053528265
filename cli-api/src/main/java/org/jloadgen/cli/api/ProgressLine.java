package org.jloadgen.cli.api;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.IntSupplier;

import org.jloadgen.bindings.ThreadScheduling;
import org.jloadgen.engine.RunStatus;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.engine.TestResult;

/**
 * One live status line on a terminal while a test runs: the step, elapsed time against {@code min_duration},
 * samples issued and completed, the completion rate and the last interval's p99 latency; before a series issues, what
 * is being prepared (loading samples, generating the trace, the JIT warm-up). Fitted to the terminal's width at each
 * redraw ({@link StatusFields}); where standard error is not a terminal, a plain line every 10 s instead. Drawn by its
 * own daemon thread at the lowest priority, twice a second, from {@link RunStatus#snapshot()}: the issue and
 * completion paths do no work for it, and it never holds a core a SUT thread wants for longer than one redraw.
 */
public final class ProgressLine implements AutoCloseable
{
    /** Redraw period: often enough to look live, rare enough to cost nothing. */
    static final long PERIOD_MS = 500;
    /** Period of the plain line where standard error is not a terminal: a log, not an animation. */
    static final long PLAIN_PERIOD_MS = 10_000;
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
    private final Output output;
    private final IntSupplier columns;
    private final long plainPeriodMs;
    private long lastCompleted = -1;
    private long lastElapsedNs;
    private String lastSeries = "";
    private String preparing = "";
    private String preparingStep = "";
    private long preparingSinceNs = System.nanoTime();

    /** How the status is shown. */
    public enum Output
    {
        /** Not at all ({@code --quiet}). */
        OFF,
        /** One line redrawn in place, fitted to the terminal's width. */
        LIVE,
        /** A plain line every {@link #PLAIN_PERIOD_MS} (standard error is a file or a pipe). */
        PLAIN
    }

    private ProgressLine(final RunStatus status, final PrintStream err, final String jobStep, final Output output,
        final IntSupplier columns, final long plainPeriodMs)
    {
        this.plainPeriodMs = plainPeriodMs;
        this.status = status;
        this.err = err;
        this.jobStep = jobStep;
        this.output = output;
        this.columns = columns;
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
        return start(status, err, jobStep, enabled ? Output.LIVE : Output.OFF, TerminalWidth::columns);
    }

    /**
     * @param status  the running test.
     * @param err     standard error.
     * @param jobStep a prefix naming the job's step, or {@code null}.
     * @param output  how to show it.
     * @param columns the terminal's width, asked before each redraw of a {@link Output#LIVE} line.
     * @return a started progress line; close it when the test ends.
     */
    public static ProgressLine start(final RunStatus status, final PrintStream err, final String jobStep,
        final Output output, final IntSupplier columns)
    {
        return start(status, err, jobStep, output, columns, PLAIN_PERIOD_MS);
    }

    /**
     * @param status        the running test.
     * @param err           standard error.
     * @param jobStep       a prefix naming the job's step, or {@code null}.
     * @param output        how to show it.
     * @param columns       the terminal's width, asked before each redraw of a {@link Output#LIVE} line.
     * @param plainPeriodMs the period of a {@link Output#PLAIN} line.
     * @return a started progress line; close it when the test ends.
     */
    public static ProgressLine start(final RunStatus status, final PrintStream err, final String jobStep,
        final Output output, final IntSupplier columns, final long plainPeriodMs)
    {
        final ProgressLine line = new ProgressLine(status, err, jobStep, output, columns, plainPeriodMs);
        if (output != Output.OFF)
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
                Thread.sleep(output == Output.PLAIN ? plainPeriodMs : PERIOD_MS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            if (running && output == Output.PLAIN)
            {
                synchronized (TERMINAL)
                {
                    err.println(format(status.snapshot()));
                }
            }
            else if (running)
            {
                // One column short of the width: a line that fills the last column wraps on some terminals.
                draw(format(status.snapshot(), Math.max(1, columns.getAsInt() - 1)));
            }
        }
    }

    /**
     * @param s what the test is doing.
     * @return the status line in full (no line break).
     */
    public String format(final RunStatus.Snapshot s)
    {
        return fields(s).full();
    }

    /**
     * @param s     what the test is doing.
     * @param width the most characters the line may take.
     * @return the status line, shortened to fit (no line break).
     */
    public String format(final RunStatus.Snapshot s, final int width)
    {
        return fields(s).fit(width);
    }

    private StatusFields fields(final RunStatus.Snapshot s)
    {
        final StatusFields fields = new StatusFields();
        if (jobStep != null)
        {
            final int space = jobStep.indexOf(' ');
            fields.put(StatusFields.Field.JOB, jobStep, space > 0 ? jobStep.substring(0, space) : null);
        }
        fields.put(StatusFields.Field.STEP, s.step(), null);
        if (!s.issuing())
        {
            lastCompleted = -1;
            final String what = s.preparing() == null ? "" : s.preparing();
            if (!what.equals(preparing) || !s.step().equals(preparingStep))
            {
                preparing = what;
                preparingStep = s.step();
                preparingSinceNs = System.nanoTime();
            }
            final long seconds = (System.nanoTime() - preparingSinceNs) / 1_000_000_000L;
            final String since = seconds >= 1 ? ", " + seconds + " s" : "";
            return what.isEmpty() ? fields.put(StatusFields.Field.PREPARING, "preparing", null)
                : fields.put(StatusFields.Field.PREPARING, "preparing: " + what + since, what);
        }
        if (!s.series().equals(lastSeries))
        {
            lastSeries = s.series();
            lastCompleted = -1;
        }
        final int comma = s.series().indexOf(", ");
        fields.put(StatusFields.Field.SERIES, s.series(), comma > 0 ? s.series().substring(comma + 2) : null);
        final StringBuilder time = new StringBuilder(String.format(Locale.ROOT, "%.1f", s.elapsedNs() / 1e9));
        if (s.minDurationMs() > 0)
        {
            time.append(String.format(Locale.ROOT, "/%.1f", s.minDurationMs() / 1e3));
        }
        fields.put(StatusFields.Field.TIME, time.append(" s").toString(), null);
        // While the series has not issued min_query_count's samples, how many it needs: past min_duration they are
        // what it waits for (a run at 1 QPS with the default 100 queries goes on for 100 s).
        final String needed = s.samplesIssued() < s.minSamples()
            ? String.format(Locale.ROOT, " of %,d", s.minSamples()) : "";
        fields.put(StatusFields.Field.COUNTS, String.format(Locale.ROOT, "issued %,d%s done %,d", s.samplesIssued(),
            needed, s.samplesCompleted()), String.format(Locale.ROOT, "done %,d", s.samplesCompleted()));
        if (lastCompleted >= 0 && s.elapsedNs() > lastElapsedNs)
        {
            final double perSecond = (s.samplesCompleted() - lastCompleted) * 1e9 / (s.elapsedNs() - lastElapsedNs);
            fields.put(StatusFields.Field.RATE, String.format(Locale.ROOT, "%,.0f/s", perSecond), null);
        }
        lastCompleted = s.samplesCompleted();
        lastElapsedNs = s.elapsedNs();
        if (s.intervalP99Ns() >= 0)
        {
            fields.put(StatusFields.Field.P99, "p99 " + duration(s.intervalP99Ns()), null);
        }
        return fields;
    }

    private static String duration(final long ns)
    {
        if (ns < 10_000)
        {
            return ns + " ns";
        }
        if (ns < 1_000_000)
        {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        return String.format(Locale.ROOT, ns < 100_000_000 ? "%.2f ms" : "%.1f ms", ns / 1e6);
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
     * @param progress whether to show the status line (off with {@code --quiet}): live on a terminal, else a plain
     *                 line every 10 s.
     * @return its result.
     */
    public static TestResult runWithStatusLine(final TestRunner runner, final String jobStep, final boolean progress)
    {
        final ProgressLine line = ProgressLine.start(runner.status(), System.err, jobStep,
            !progress ? ProgressLine.Output.OFF
                : ProgressLine.stderrIsTerminal() ? ProgressLine.Output.LIVE : ProgressLine.Output.PLAIN,
            TerminalWidth::columns);
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
