package org.jloadgen.analysis.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartFilesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldDrawSeriesBoundAndBandIntoPngAndSvg() throws IOException
    {
        final XyChart chart = XyChart.of("Latency over time", Axis.linear("time (s)"),
            Axis.log("latency").nanoseconds())
            .subtitle("p99 per interval")
            .add(Series.line("p99", new double[] {0, 1, 2, 3}, new double[] {2_000, 3_000, 50_000, 2_500}))
            .add(Series.points("GC pause", new double[] {2.1}, new double[] {40_000}).color(3))
            .bound(100_000, "latency bound 100 µs")
            .band(1.9, 2.2);
        assertTrue(chart.hasData());
        final ChartFiles.Written written = ChartFiles.write(chart, dir, "latency-1", 640, 360);

        final BufferedImage png = ImageIO.read(written.png().toFile());
        assertEquals(640, png.getWidth());
        assertEquals(360, png.getHeight());
        // The bound is drawn in red: some pixels must be strongly red.
        int red = 0;
        for (int yy = 0; yy < png.getHeight(); yy++)
        {
            for (int xx = 0; xx < png.getWidth(); xx++)
            {
                final int rgb = png.getRGB(xx, yy);
                if (((rgb >> 16) & 0xff) > 180 && ((rgb >> 8) & 0xff) < 80 && (rgb & 0xff) < 80)
                {
                    red++;
                }
            }
        }
        assertTrue(red > 100, "red bound pixels: " + red);

        final String svg = Files.readString(written.svg());
        assertTrue(svg.contains("<svg"), svg.substring(0, 100));
        assertTrue(written.svgElement().startsWith("<svg"));
        assertTrue(svg.contains("Latency over time"));
        assertTrue(svg.contains("latency bound 100 µs"));
        assertTrue(svg.contains("id='latency-1'"));
        // Inline SVGs share one id space in a page: every internal id carries the chart's prefix.
        assertEquals(0, java.util.regex.Pattern.compile("id='(?!latency-1)").matcher(svg).results().count(), svg);
    }

    @Test
    void shouldLeaveOutValuesALogAxisCannotShow()
    {
        final XyChart chart = XyChart.of("t", Axis.linear("x"), Axis.log("y"))
            .add(Series.line("zeros", new double[] {0, 1}, new double[] {0, -1}));
        assertFalse(chart.hasData());
        chart.add(Series.bars("one", new double[] {1}, new double[] {5}));
        assertTrue(chart.hasData());
        // Drawing a chart whose only series is empty must not fail either.
        assertTrue(ChartFiles.svg(XyChart.of("empty", Axis.linear("x"), Axis.linear("y")), "e", 200, 100)
            .startsWith("<svg"));
    }

    @Test
    void shouldLabelPercentileTicksAsHdrHistogramsPlotterDoes()
    {
        assertEquals("0%", XyChart.TickFormat.percentileLabel(0));
        assertEquals("90%", XyChart.TickFormat.percentileLabel(100 * (1 - 1 / 10.0)));
        assertEquals("99%", XyChart.TickFormat.percentileLabel(100 * (1 - 1 / 100.0)));
        assertEquals("99.9%", XyChart.TickFormat.percentileLabel(100 * (1 - 1 / 1000.0)));
        assertEquals("99.999%", XyChart.TickFormat.percentileLabel(100 * (1 - 1 / 100_000.0)));
        final XyChart.TickFormat ticks = new XyChart.TickFormat(true, false);
        assertEquals("99.9%", ticks.format(1000.0));
        assertEquals("0%", ticks.format(1.0));
        assertEquals("20 µs", new XyChart.TickFormat(false, true).format(20_000.0));
        assertEquals("1,500", new XyChart.TickFormat(false, false).format(1500.0));
    }

    @Test
    void shouldFormatDurationsInReadableUnits()
    {
        assertEquals("850 ns", Durations.format(850));
        assertEquals("12.5 µs", Durations.format(12_500));
        assertEquals("3 ms", Durations.format(3_000_000));
        assertEquals("1.2 s", Durations.format(1_200_000_000));
    }

    @Test
    void shouldRejectMismatchedSeriesAndBadFileNames()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Series.line("p99", new double[] {1, 2}, new double[] {1}));
        assertTrue(ex.getMessage().contains("p99"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ChartFiles.write(
            XyChart.of("t", Axis.linear("x"), Axis.linear("y")), dir, "../escape", 100, 100));
    }
}
