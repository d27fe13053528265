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
        final Collector collector = new Collector(file);
        try (HistogramLogScanner scanner = new HistogramLogScanner(file.toFile()))
        {
            scanner.process(collector);
        }
        catch (final java.io.FileNotFoundException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        collector.endSeries();
        return collector.series;
    }

    /**
     * Gathers the scanner's events into series: a {@code #series: ...} comment starts a new one.
     */
    private static final class Collector implements HistogramLogScanner.EventHandler
    {
        private final Path file;
        private final List<HistogramSeries> series = new ArrayList<>();
        private String label = "series";
        private long startMs;
        private List<Double> offsets = new ArrayList<>();
        private List<Double> lengths = new ArrayList<>();
        private List<Histogram> intervals = new ArrayList<>();

        Collector(final Path file)
        {
            this.file = file;
        }

        void endSeries()
        {
            if (!intervals.isEmpty())
            {
                series.add(new HistogramSeries(label, startMs, List.copyOf(offsets), List.copyOf(lengths),
                    List.copyOf(intervals)));
            }
            offsets = new ArrayList<>();
            lengths = new ArrayList<>();
            intervals = new ArrayList<>();
        }

        @Override
        public boolean onComment(final String comment)
        {
            final String text = comment.startsWith("#") ? comment.substring(1).trim() : comment.trim();
            if (text.startsWith(SERIES_PREFIX))
            {
                endSeries();
                label = text;
            }
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
                throw new IllegalArgumentException(file + ": an interval histogram cannot be decoded: "
                    + ex.getMessage(), ex);
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
