package org.jloadgen.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistogramSeriesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldSplitALogIntoSeriesAndPickTheReportedOne() throws IOException
    {
        // FindPeakPerformance writes one series per target; the summary reports the peak, not the last one.
        final Path hlog = dir.resolve("mlperf_log_latency.hlog");
        try (PrintStream out = new PrintStream(hlog.toFile(), StandardCharsets.UTF_8))
        {
            final HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputLogFormatVersion();
            writer.outputLegend();
            int target = 100;
            for (final String mode : List.of("AccuracyOnly", "PerformanceOnly", "PerformanceOnly", "PerformanceOnly"))
            {
                writer.outputComment("series: Server " + mode + " target_qps " + target + ".000000");
                writer.outputStartTime(1_000_000L + target);
                writer.setBaseTime(1_000_000L + target);
                for (int i = 0; i < 3; i++)
                {
                    final Histogram h = new Histogram(3);
                    h.recordValueWithCount(1_000L * target, i + 1);
                    h.setStartTimeStamp(1_000_000L + target + i * 1_000L);
                    h.setEndTimeStamp(1_000_000L + target + (i + 1) * 1_000L);
                    writer.outputIntervalHistogram(h);
                }
                target *= 2;
            }
        }
        final List<HistogramSeries> all = HistogramSeries.read(hlog);
        assertEquals(4, all.size());
        assertEquals(200, all.get(1).targetQps());
        assertEquals(List.of(0.0, 1.0, 2.0), all.get(1).offsetsS());
        assertEquals(1_000_200L, all.get(1).startEpochMs());
        assertEquals(6, all.get(1).total().getTotalCount());
        assertEquals(400, HistogramSeries.reported(all, 400).targetQps(), "the reported target");
        assertEquals(800, HistogramSeries.reported(all, Double.NaN).targetQps(), "else the last performance one");
        assertEquals(800, HistogramSeries.reported(all, 100).targetQps(), "an accuracy series is never reported");
    }
}
