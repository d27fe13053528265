package org.jloadgen.record;

import java.io.FileNotFoundException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;
import org.jloadgen.bindings.ThreadScheduling;

import org.jloadgen.clib.IoErrors;

/**
 * Latency interval histograms for jitter analysis, beside the exact per-sample latencies: completing threads
 * record into an HdrHistogram {@link Recorder} (wait-free, fixed footprint, no allocation), and a background
 * thread writes one interval histogram per period into an {@code .hlog} file that HdrHistogram's
 * {@code HistogramLogProcessor} and plotters read. Latencies are the same as LoadGen's (Server: from the
 * scheduled time), so coordinated omission is already excluded and must not be corrected again.
 * <p>
 * The writer thread runs with the {@code SCHED_IDLE} policy where the kernel allows it: it works while the clock runs
 * (about a millisecond per interval to encode and compress) and must never take a CPU from the issue thread or a SUT
 * thread. Its interval ends when it flips the recorder, so a late flip only makes that interval longer; the log
 * carries each interval's own start and length.
 */
public final class LatencyIntervalLog implements AutoCloseable
{
    /** Highest latency the histogram tracks; larger values are clamped. */
    public static final long HIGHEST_TRACKABLE_NS = TimeUnit.HOURS.toNanos(1);

    private final Path target;
    private final Path temporary;
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final long intervalMs;
    private final Histogram total = new Histogram(HIGHEST_TRACKABLE_NS, 3);
    private Recorder recorder;
    private Thread thread;
    private Histogram interval;
    private volatile boolean running;
    private volatile long lastIntervalP99Ns = -1;

    /**
     * @param target     the {@code .hlog} file (written under a temporary name until closed).
     * @param intervalMs interval length.
     */
    public LatencyIntervalLog(final Path target, final long intervalMs)
    {
        this.target = target;
        this.temporary = target.resolveSibling(target.getFileName() + ".partial");
        this.intervalMs = Math.max(1, intervalMs);
        try
        {
            this.out = new PrintStream(temporary.toFile(), java.nio.charset.StandardCharsets.UTF_8);
        }
        catch (final FileNotFoundException ex)
        {
            throw new UncheckedIOException("cannot create latency log " + temporary + ": " + IoErrors.reason(ex), ex);
        }
        catch (final java.io.IOException ex)
        {
            throw new UncheckedIOException("cannot create latency log " + temporary + ": " + IoErrors.reason(ex), ex);
        }
        this.writer = new HistogramLogWriter(out);
        writer.outputLogFormatVersion();
        writer.outputComment("JLoadGen sample latencies in ns (Server: from the scheduled time)");
        writer.outputLegend();
    }

    /**
     * Starts recording a series: returns the recorder completing threads feed.
     *
     * @param label a comment written before the series' intervals.
     * @return the recorder.
     */
    public Recorder startSeries(final String label)
    {
        writer.outputComment(label);
        final long nowMs = System.currentTimeMillis();
        writer.outputStartTime(nowMs);
        writer.setBaseTime(nowMs);
        recorder = newRecorder();
        interval = null;
        lastIntervalP99Ns = -1;
        running = true;
        final Recorder r = recorder;
        thread = new Thread(() -> run(r), "jloadgen-latency-log");
        thread.setDaemon(true);
        thread.start();
        return r;
    }

    /**
     * Runs the writer's own work (flip a recorder, encode, compress and print an interval histogram) on throwaway
     * objects until the JIT has compiled it, so that the compilations happen before the clock starts instead of on
     * a compiler thread, next to the issue and SUT threads, during the first intervals of a test.
     *
     * @param intervals interval histograms to write.
     */
    public static void warmUpWriter(final int intervals)
    {
        final Recorder r = newRecorder();
        final HistogramLogWriter discard = new HistogramLogWriter(new PrintStream(OutputStream.nullOutputStream(),
            false, java.nio.charset.StandardCharsets.UTF_8));
        final Histogram total = new Histogram(HIGHEST_TRACKABLE_NS, 3);
        Histogram interval = null;
        long value = 1;
        for (int i = 0; i < intervals; i++)
        {
            for (int v = 0; v < 2_000; v++)
            {
                // Values over the whole range, as a run's latencies spread from ns to ms.
                value = value * 7 % 100_000_007L;
                r.recordValue(1 + value % (1 + (value & 0xFFFFF)));
            }
            interval = r.getIntervalHistogram(interval);
            discard.outputIntervalHistogram(interval);
            total.add(interval);
        }
    }

    /**
     * @return a recorder of the kind {@link #startSeries} returns (same range and precision), for code that must
     *         run the completion path exactly as a test with this log does (the engine warm-up).
     */
    public static Recorder newRecorder()
    {
        return new Recorder(1, HIGHEST_TRACKABLE_NS, 3);
    }

    private void run(final Recorder r)
    {
        ThreadScheduling.tryRunOnlyWhenIdle();
        while (running)
        {
            try
            {
                Thread.sleep(intervalMs);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            writeInterval(r);
        }
    }

    private synchronized void writeInterval(final Recorder r)
    {
        interval = r.getIntervalHistogram(interval);
        if (interval.getTotalCount() > 0)
        {
            writer.outputIntervalHistogram(interval);
            total.add(interval);
            lastIntervalP99Ns = interval.getValueAtPercentile(99);
        }
    }

    /**
     * @return the 99th percentile latency of the last interval written in the current series (any thread), or -1
     *         before the first.
     */
    public long lastIntervalP99Ns()
    {
        return lastIntervalP99Ns;
    }

    /**
     * Ends the current series after writing its last interval.
     */
    public void endSeries()
    {
        if (thread == null)
        {
            return;
        }
        running = false;
        thread.interrupt();
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        writeInterval(recorder);
        thread = null;
        recorder = null;
    }

    /**
     * @return every latency recorded so far, all series together.
     */
    public Histogram total()
    {
        return total;
    }

    /**
     * @return the final path of the log.
     */
    public Path path()
    {
        return target;
    }

    @Override
    public void close()
    {
        endSeries();
        out.close();
        try
        {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final java.io.IOException ex)
        {
            throw new UncheckedIOException("cannot finish latency log " + target + ": " + IoErrors.reason(ex), ex);
        }
    }
}
