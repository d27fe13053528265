package org.jloadgen.analysis.report;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogScanner;

/**
 * One series of an HdrHistogram interval log written by JLoadGen ({@code mlperf_log_latency.hlog},
 * {@code mlperf_log_issue_lateness.hlog}): its label, its start, and its interval histograms with their offsets.
 *
 * @param label        the series label ({@code series: Server PerformanceOnly target_qps 2000.000000}), or
 *                     {@code series} when the log has none.
 * @param startEpochMs the series' {@code StartTime}, ms since the epoch (0 if the log gives none).
 * @param offsetsS     each interval's start, seconds after the series start.
 * @param lengthsS     each interval's length in seconds.
 * @param intervals    the interval histograms (values in ns).
 */
record HistogramSeries(String label, long startEpochMs, List<Double> offsetsS, List<Double> lengthsS,
    List<Histogram> intervals)
{
    private static final String SERIES_PREFIX = "series: ";

    /**
     * @return every interval added together.
     */
    Histogram total()
    {
        final Histogram total = new Histogram(3);
        intervals.forEach(total::add);
        return total;
    }

    /**
     * @return the series' target QPS from its label, or NaN.
     */
    double targetQps()
    {
        final int at = label.lastIndexOf("target_qps ");
        if (at < 0)
        {
            return Double.NaN;
        }
        try
        {
            return Double.parseDouble(label.substring(at + "target_qps ".length()).trim());
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN;
        }
    }

    /**
     * @return whether the label says this is a performance series.
     */
    boolean performance()
    {
        return label.contains("PerformanceOnly");
    }

    /**
     * Reads every series of a log, through HdrHistogram's own log scanner.
     *
     * @param file the {@code .hlog}.
     * @return its series in order (a log without series labels is one series).
     * @throws IllegalArgumentException naming the file if a histogram line cannot be decoded.
     */
    static List<HistogramSeries> read(final Path file)
    {
        final List<String> lines;
        try
        {
            lines = java.nio.file.Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8);
        }
        catch (final java.io.IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        // HdrHistogram's scanner hands comments over one word at a time, so the series labels are found here and
        // each series' lines are scanned on their own.
        final List<HistogramSeries> series = new ArrayList<>();
        String label = "series";
        final StringBuilder chunk = new StringBuilder();
        for (final String line : lines)
        {
            if (line.startsWith("#" + SERIES_PREFIX))
            {
                scan(file, label, chunk, series);
                label = line.substring(1).trim();
                chunk.setLength(0);
            }
            chunk.append(line).append('\n');
        }
        scan(file, label, chunk, series);
        return series;
    }

    private static void scan(final Path file, final String label, final CharSequence text,
        final List<HistogramSeries> series)
    {
        final Collector collector = new Collector(file, label);
        try (HistogramLogScanner scanner = new HistogramLogScanner(new java.io.ByteArrayInputStream(
            text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))))
        {
            scanner.process(collector);
        }
        if (!collector.intervals.isEmpty())
        {
            series.add(new HistogramSeries(label, collector.startMs, List.copyOf(collector.offsets),
                List.copyOf(collector.lengths), List.copyOf(collector.intervals)));
        }
    }

    /**
     * Gathers one series' start time and interval histograms from the scanner's events.
     */
    private static final class Collector implements HistogramLogScanner.EventHandler
    {
        private final Path file;
        private final String label;
        private final List<Double> offsets = new ArrayList<>();
        private final List<Double> lengths = new ArrayList<>();
        private final List<Histogram> intervals = new ArrayList<>();
        private long startMs;

        Collector(final Path file, final String label)
        {
            this.file = file;
            this.label = label;
        }

        @Override
        public boolean onComment(final String comment)
        {
            return false;
        }

        @Override
        public boolean onBaseTime(final double secondsSinceEpoch)
        {
            return false;
        }

        @Override
        public boolean onStartTime(final double secondsSinceEpoch)
        {
            startMs = Math.round(secondsSinceEpoch * 1000);
            return false;
        }

        @Override
        public boolean onHistogram(final String tag, final double timestamp, final double length,
            final HistogramLogScanner.EncodableHistogramSupplier supplier)
        {
            final EncodableHistogram h;
            try
            {
                h = supplier.read();
            }
            catch (final DataFormatException ex)
            {
                throw new IllegalArgumentException(file + " (" + label + "): an interval histogram cannot be "
                    + "decoded: " + ex.getMessage(), ex);
            }
            if (h instanceof Histogram histogram)
            {
                offsets.add(timestamp);
                lengths.add(length);
                intervals.add(histogram);
            }
            return false;
        }

        @Override
        public boolean onException(final Throwable t)
        {
            throw new IllegalArgumentException(file + ": not an HdrHistogram interval log: " + t, t);
        }
    }

    /**
     * @param all      the series of a log.
     * @param targetQps the reported run's target QPS (NaN if unknown).
     * @return the performance series that was reported: the last with that target, else the last performance
     *         series, else the last; {@code null} if there is none.
     */
    static HistogramSeries reported(final List<HistogramSeries> all, final double targetQps)
    {
        HistogramSeries lastPerformance = null;
        HistogramSeries matching = null;
        for (final HistogramSeries s : all)
        {
            if (s.performance())
            {
                lastPerformance = s;
                if (!Double.isNaN(targetQps) && Math.abs(s.targetQps() - targetQps) <= 1e-6 * Math.max(1, targetQps))
                {
                    matching = s;
                }
            }
        }
        if (matching != null)
        {
            return matching;
        }
        return lastPerformance != null ? lastPerformance : all.isEmpty() ? null : all.get(all.size() - 1);
    }
}
