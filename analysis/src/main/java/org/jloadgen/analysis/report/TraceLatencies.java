package org.jloadgen.analysis.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;

/**
 * Per-sample latencies from a Chrome trace ({@code mlperf_log_trace.json}, LoadGen's or JLoadGen's
 * {@code --chrome-trace}): every {@code Latency} counter event carries the sample's scheduled time ({@code ts}, µs),
 * its issue delay (scheduled to issued, ns: the issue lateness) and its issue-to-done time (ns). They are binned into
 * interval histograms so they chart like the {@code .hlog} series. The trace is read line by line, one event a line
 * as both writers write it, so a truncated trace still gives the samples it holds.
 */
final class TraceLatencies
{
    private static final Pattern LATENCY = Pattern.compile(
        "\"name\":\"Latency\",\"ph\": ?\"C\".*?\"ts\":([0-9.]+),\"args\":\\{ ?\"issue_delay\":(-?\\d+),"
            + "\"issue_to_done\":(-?\\d+)");
    /** At most this many intervals over the trace's span. */
    private static final int MAX_INTERVALS = 200;

    private TraceLatencies()
    {
    }

    /**
     * @param latency  sample latencies (scheduled to done) per interval.
     * @param lateness issue delays per interval.
     * @param samples  samples found.
     */
    record Binned(HistogramSeries latency, HistogramSeries lateness, long samples)
    {
    }

    /**
     * @param file a Chrome trace.
     * @return its latencies binned over time, or {@code null} if it holds no {@code Latency} events.
     */
    static Binned read(final Path file)
    {
        final List<double[]> events = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                final Matcher m = LATENCY.matcher(line);
                if (m.find())
                {
                    events.add(new double[] {Double.parseDouble(m.group(1)), Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3))});
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read trace " + file, ex);
        }
        if (events.isEmpty())
        {
            return null;
        }
        events.sort((a, b) -> Double.compare(a[0], b[0]));
        final double firstUs = events.get(0)[0];
        final double spanUs = events.get(events.size() - 1)[0] - firstUs;
        // Whole milliseconds per interval, at least one, at most MAX_INTERVALS intervals.
        final double intervalUs = Math.max(1_000, Math.ceil(spanUs / MAX_INTERVALS / 1_000) * 1_000);
        final List<Double> offsets = new ArrayList<>();
        final List<Double> lengths = new ArrayList<>();
        final List<Histogram> latency = new ArrayList<>();
        final List<Histogram> lateness = new ArrayList<>();
        long bucket = -1;
        for (final double[] e : events)
        {
            final long b = (long)((e[0] - firstUs) / intervalUs);
            if (b != bucket)
            {
                bucket = b;
                offsets.add(b * intervalUs / 1e6);
                lengths.add(intervalUs / 1e6);
                latency.add(new Histogram(3));
                lateness.add(new Histogram(3));
            }
            final long delayNs = Math.max(0, (long)e[1]);
            latency.get(latency.size() - 1).recordValue(delayNs + Math.max(0, (long)e[2]));
            lateness.get(lateness.size() - 1).recordValue(delayNs);
        }
        final String label = "series: Chrome trace " + file.getFileName();
        return new Binned(new HistogramSeries(label, 0, offsets, lengths, latency),
            new HistogramSeries(label, 0, offsets, lengths, lateness), events.size());
    }
}
