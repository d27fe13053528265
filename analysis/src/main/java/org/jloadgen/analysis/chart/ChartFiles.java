package org.jloadgen.analysis.chart;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * Writes an {@link XyChart} as PNG and SVG files (and returns the SVG for inlining into a page). Rendering needs no
 * display: the AWT runs headless.
 */
public final class ChartFiles
{
    /**
     * What was written for one chart.
     *
     * @param png the PNG file.
     * @param svg the SVG file.
     * @param svgElement the SVG document's {@code <svg>} element, to inline into HTML.
     */
    public record Written(Path png, Path svg, String svgElement)
    {
    }

    static
    {
        // Charts are drawn into images and SVG strings, never onto a screen; a machine without X must work.
        System.setProperty("java.awt.headless", "true");
    }

    private ChartFiles()
    {
    }

    /**
     * Writes {@code dir/name.png} and {@code dir/name.svg}.
     *
     * @param chart    the chart.
     * @param dir      where.
     * @param name     file name without extension; also the prefix of the SVG's internal ids, so several SVGs can
     *                 sit inline in one page (letters, digits, {@code -} and {@code _}).
     * @param widthPx  width in pixels.
     * @param heightPx height in pixels.
     * @return the files and the SVG element.
     * @throws IOException if a file cannot be written.
     */
    public static Written write(final XyChart chart, final Path dir, final String name, final int widthPx,
        final int heightPx) throws IOException
    {
        if (!name.matches("[A-Za-z0-9_-]+"))
        {
            throw new IllegalArgumentException("chart file name '" + name + "' must be letters, digits, - and _");
        }
        final JFreeChart jfree = chart.toJFreeChart();
        final Path png = dir.resolve(name + ".png");
        try (OutputStream out = Files.newOutputStream(png))
        {
            ChartUtils.writeChartAsPNG(out, jfree, widthPx, heightPx);
        }
        final String svgElement = svg(jfree, name, widthPx, heightPx);
        final Path svg = dir.resolve(name + ".svg");
        Files.writeString(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement + "\n",
            StandardCharsets.UTF_8);
        return new Written(png, svg, svgElement);
    }

    /**
     * @param chart    the chart.
     * @param idPrefix prefix of the SVG's internal ids (clip paths, gradients).
     * @param widthPx  width.
     * @param heightPx height.
     * @return the chart as one {@code <svg>} element.
     */
    public static String svg(final XyChart chart, final String idPrefix, final int widthPx, final int heightPx)
    {
        return svg(chart.toJFreeChart(), idPrefix, widthPx, heightPx);
    }

    private static String svg(final JFreeChart chart, final String idPrefix, final int widthPx, final int heightPx)
    {
        final SVGGraphics2D g2 = new SVGGraphics2D(widthPx, heightPx);
        g2.setDefsKeyPrefix(idPrefix + "-");
        chart.draw(g2, new Rectangle(0, 0, widthPx, heightPx));
        return g2.getSVGElement(idPrefix);
    }
}
