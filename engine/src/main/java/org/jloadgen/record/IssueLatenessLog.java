package org.jloadgen.record;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Server issue lateness, beside the latency log: for every query of a performance series, how long after its
 * scheduled time the SUT was called (the harness's own jitter, the first suspect when a Server run misses its
 * bound). While the clock runs the issue thread only stores each query's issue time in its off-heap slot
 * ({@link SeriesRecorder#issued}); after the series this class turns the slots into interval histograms.
 * <p>
 * <b>File format</b>: an HdrHistogram interval log ({@code .hlog}, the same as the latency log, readable by
 * HdrHistogram's {@code HistogramLogReader} and plotters), values in nanoseconds. Per series: a comment with the
 * latency log's label ({@code #series: Server PerformanceOnly target_qps 2000.000000}), a {@code #[StartTime: ...]}
 * line (the series' start of issuing, seconds since the epoch) and a {@code #[BaseTime: ...]} line with the same
 * value, then one interval histogram per interval of <em>scheduled</em> time ({@code --latency-interval-ms}, the
 * latency log's interval), its start stamp relative to the base time, holding the lateness of the queries scheduled
 * in it. Intervals with no query are left out.
 */
public final class IssueLatenessLog implements AutoCloseable
{
    /** Largest lateness the histograms hold; larger values are recorded as this. */
    public static final long HIGHEST_TRACKABLE_NS = LatencyIntervalLog.HIGHEST_TRACKABLE_NS;

    private static final long NS_PER_MS = 1_000_000L;

    private final Path target;
    private final Path temporary;
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final long intervalMs;
    private final Histogram interval = new Histogram(HIGHEST_TRACKABLE_NS, 3);

    /**
     * @param target     the {@code .hlog} file (written under a temporary name until closed).
     * @param intervalMs interval length, in scheduled time.
     */
    public IssueLatenessLog(final Path target, final long intervalMs)
    {
        this.target = target;
        this.temporary = target.resolveSibling(target.getFileName() + ".partial");
        this.intervalMs = Math.max(1, intervalMs);
        try
        {
            this.out = new PrintStream(temporary.toFile(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create issue lateness log " + temporary, ex);
        }
        this.writer = new HistogramLogWriter(out);
        writer.outputLogFormatVersion();
        writer.outputComment("JLoadGen Server issue lateness in ns: time from each query's scheduled time to the "
            + "SUT call, per interval of scheduled time");
        writer.outputLegend();
    }

    /**
     * Writes one series' lateness. Not for the timed part: call it after the series, while its slots exist.
     *
     * @param label         the series label (the latency log's).
     * @param recorder      the series' slots, with issue times tracked.
     * @param queriesIssued queries issued in the series.
     * @param startEpochNs  wall-clock time of the start of issuing.
     */
    public void writeSeries(final String label, final SeriesRecorder recorder, final long queriesIssued,
        final long startEpochNs)
    {
        if (!recorder.issueTimes().tracksIssueTimes())
        {
            throw new IllegalArgumentException("the series did not track issue times");
        }
        final long startMs = startEpochNs / NS_PER_MS;
        writer.outputComment(label);
        writer.outputStartTime(startMs);
        writer.outputBaseTime(startMs);
        writer.setBaseTime(startMs);
        final long intervalNs = intervalMs * NS_PER_MS;
        long bucket = -1;
        interval.reset();
        for (long q = 0; q < queriesIssued; q++)
        {
            final long b = recorder.issueTimes().scheduledRelativeNs(q) / intervalNs;
            if (b != bucket)
            {
                flush(startMs, bucket);
                bucket = b;
            }
            interval.recordValue(Math.min(recorder.issueTimes().issueLatenessNs(q), HIGHEST_TRACKABLE_NS));
        }
        flush(startMs, bucket);
        out.flush();
    }

    private void flush(final long startMs, final long bucket)
    {
        if (bucket < 0 || interval.getTotalCount() == 0)
        {
            return;
        }
        interval.setStartTimeStamp(startMs + bucket * intervalMs);
        interval.setEndTimeStamp(startMs + (bucket + 1) * intervalMs);
        writer.outputIntervalHistogram(interval);
        interval.reset();
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
        out.close();
        try
        {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot finish issue lateness log " + target, ex);
        }
    }
}
