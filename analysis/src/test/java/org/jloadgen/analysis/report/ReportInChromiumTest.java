package org.jloadgen.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.jloadgen.api.TestScenario;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders reports in headless Chromium (Debian's {@code chromium}, installed by {@code .ci/run}), takes a screenshot
 * and checks that every chart drew: each chart's box on the page has enough non-white pixels and more than a few
 * colours. Also that the page logged nothing to the console (no script errors) and loaded nothing but itself.
 * <p>
 * The chart boxes are measured by a copy of the page with a probe script added ({@code --dump-dom} prints the DOM
 * after the load event); the screenshot is of the page itself, laid out identically at the same window width.
 */
class ReportInChromiumTest
{
    private static final int WINDOW_WIDTH = 1100;
    private static final Pattern BOX = Pattern.compile("([a-z-]+),(\\d+),(\\d+),(\\d+),(\\d+)");

    @TempDir
    Path dir;

    @Test
    void shouldDrawEveryChartOfAServerRunWithPauses() throws Exception
    {
        final Path run = ReportRuns.run(dir.resolve("server"), TestScenario.SERVER, "SPIN");
        assertEquals("0", ReportRuns.report(run.toString())[0]);
        final List<String> drawn = render(run.resolve("report/report.html"));
        assertTrue(drawn.containsAll(List.of("chart-latency-over-time", "chart-throughput",
            "chart-percentile-spectrum", "chart-issue-lateness", "chart-issue-lateness-over-time",
            "chart-batch-sizes")), drawn.toString());
    }

    @Test
    void shouldDrawTheChartsOfOfficialLogsAndOfSeveralRuns() throws Exception
    {
        final Path official = Files.createDirectories(dir.resolve("official"));
        for (final String file : List.of("mlperf_log_summary.txt", "mlperf_log_detail.txt"))
        {
            Files.copy(SharedData.data("example-logs/Server/" + file), official.resolve(file));
        }
        Files.copy(SharedData.data("example-logs/Server-traced/mlperf_log_trace.head400.json"),
            official.resolve("mlperf_log_trace.head400.json"));
        assertEquals("0", ReportRuns.report(official.toString())[0]);
        assertTrue(render(official.resolve("report/report.html")).size() >= 4);

        final Path a = ReportRuns.run(dir.resolve("a"), TestScenario.OFFLINE, "SPIN");
        final Path b = ReportRuns.run(dir.resolve("b"), TestScenario.OFFLINE, "SPIN");
        assertEquals("0", ReportRuns.report(a.toString(), b.toString(), "--out", dir.resolve("ab").toString())[0]);
        assertTrue(render(dir.resolve("ab/report.html")).size() >= 4);
    }

    @Test
    void shouldCatchABlankChartAndAScriptError() throws Exception
    {
        // The checks themselves must be able to fail: a chart that drew nothing, and a page whose script throws.
        // Without Chromium this skips here, not inside assertThrows (which would take the skip for a failure).
        chromium();
        final Path run = Files.createDirectories(dir.resolve("broken"));
        Files.copy(SharedData.data("example-logs/Server/mlperf_log_detail.txt"), run.resolve("mlperf_log_detail.txt"));
        assertEquals("0", ReportRuns.report(run.toString())[0]);
        final Path page = run.resolve("report/report.html");
        final String html = Files.readString(page);
        final String blank = html.replaceFirst("(?s)(<figure class=\"chart\"[^>]*>\\n)<svg.*?</svg>",
            "$1<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"420\"></svg>");
        assertFalse(blank.equals(html), "a chart was blanked");
        final Path blankPage = Files.writeString(run.resolve("report/blank.html"), blank);
        final AssertionError noInk = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
            () -> render(blankPage, true));
        assertTrue(noInk.getMessage().contains("pixels drawn"), noInk.getMessage());
        final Path throwing = Files.writeString(run.resolve("report/throwing.html"),
            html.replace("</body>", "<script>noSuchFunction();</script></body>"));
        final AssertionError scriptError = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
            () -> render(throwing, false));
        assertTrue(scriptError.getMessage().contains("noSuchFunction"), scriptError.getMessage());
    }

    private List<String> render(final Path page) throws Exception
    {
        return render(page, true);
    }

    /**
     * Renders the page, checks it, and returns the ids of the charts that drew.
     */
    private List<String> render(final Path page, final boolean selfContained) throws Exception
    {
        final String chromium = chromium();
        final String html = Files.readString(page);
        if (selfContained)
        {
            ReportCommandTest.assertSelfContained(html);
        }

        // 1. The page itself: console messages (script errors, failed loads) go to stderr with --enable-logging.
        final Path shot = dir.resolve("shot-" + System.nanoTime() + ".png");
        final Path probe = page.resolveSibling("probe-" + System.nanoTime() + ".html");
        Files.writeString(probe, html.replace("<head>", "<head>\n<script>window.__errors = []; "
            + "window.addEventListener('error', e => window.__errors.push(String(e.message)), true);</script>")
            .replace("</body>", PROBE + "</body>"), StandardCharsets.UTF_8);
        final String dom = runChromium(chromium, "--dump-dom", probe.toUri().toString());
        final String errors = attribute(dom, "data-errors");
        assertEquals("", errors, "script errors on the page: " + errors);
        final int height = Integer.parseInt(attribute(dom, "data-height"));
        final List<int[]> boxes = new ArrayList<>();
        final List<String> ids = new ArrayList<>();
        final Matcher m = BOX.matcher(attribute(dom, "data-boxes"));
        while (m.find())
        {
            ids.add(m.group(1));
            boxes.add(new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))});
        }
        assertEquals(html.split("<figure class=\"chart\"", -1).length - 1, boxes.size(), "every chart has a box");
        assertFalse(boxes.isEmpty(), "the page has charts");

        final String log = runChromium(chromium, "--window-size=" + WINDOW_WIDTH + "," + (height + 50),
            "--screenshot=" + shot, "--enable-logging=stderr", "--v=0", page.toUri().toString());
        for (final String line : log.split("\n"))
        {
            if (line.contains(":CONSOLE(") || line.contains("Uncaught") || line.contains("net::ERR_"))
            {
                fail("the page logged: " + line);
            }
        }
        final BufferedImage image = ImageIO.read(shot.toFile());
        assertTrue(image.getHeight() >= height, "screenshot height " + image.getHeight() + " < page " + height);
        for (int i = 0; i < boxes.size(); i++)
        {
            final int[] box = boxes.get(i);
            assertTrue(box[2] > 100 && box[3] > 100, ids.get(i) + " box too small: " + box[2] + "x" + box[3]);
            long inked = 0;
            final java.util.Set<Integer> colours = new java.util.HashSet<>();
            for (int y = box[1]; y < Math.min(image.getHeight(), box[1] + box[3]); y++)
            {
                for (int x = box[0]; x < Math.min(image.getWidth(), box[0] + box[2]); x++)
                {
                    final int rgb = image.getRGB(x, y) & 0xffffff;
                    if (rgb != 0xffffff)
                    {
                        inked++;
                        colours.add(rgb);
                    }
                }
            }
            final long area = (long)box[2] * box[3];
            assertTrue(inked > area / 100, ids.get(i) + ": only " + inked + " of " + area + " pixels drawn");
            assertTrue(colours.size() > 8, ids.get(i) + ": " + colours.size() + " colours");
        }
        Files.delete(probe);
        return ids;
    }

    private static final String PROBE = """
        <script>
        window.addEventListener('load', () => {
          const boxes = [...document.querySelectorAll('figure.chart > svg')].map(svg => {
            const r = svg.getBoundingClientRect();
            return [svg.parentElement.id, Math.round(r.left + window.scrollX), Math.round(r.top + window.scrollY),
              Math.round(r.width), Math.round(r.height)].join(',');
          });
          document.body.setAttribute('data-boxes', boxes.join(';'));
          document.body.setAttribute('data-height', String(document.documentElement.scrollHeight));
          document.body.setAttribute('data-errors', window.__errors.join(' | '));
        });
        </script>
        """;

    private String runChromium(final String chromium, final String... args) throws IOException, InterruptedException
    {
        final Path profile = Files.createTempDirectory(dir, "profile");
        final List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        final Path output = Files.createTempFile(dir, "chromium", ".out");
        final Path errors = Files.createTempFile(dir, "chromium", ".err");
        final Process p = new ProcessBuilder(command).redirectOutput(output.toFile()).redirectError(errors.toFile())
            .start();
        if (!p.waitFor(120, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            fail("chromium did not finish in 120 s: " + command);
        }
        assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(errors));
        return Files.readString(output) + Files.readString(errors);
    }

    private static String attribute(final String dom, final String name)
    {
        final Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(dom);
        if (!m.find())
        {
            fail("the probe did not run: no " + name + " in the DOM");
        }
        return m.group(1);
    }

    /**
     * @return Chromium: {@code $CHROMIUM} where set, else {@code chromium} or {@code chromium-browser} on the
     *         {@code PATH}; skips the calling test where there is none (fails it under CI, which installs it).
     */
    static String chromium()
    {
        final String named = System.getenv("CHROMIUM");
        final List<Path> candidates = new ArrayList<>();
        if (named != null && !named.isBlank())
        {
            candidates.add(Path.of(named));
        }
        else
        {
            for (final String folder : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
            {
                if (!folder.isEmpty())
                {
                    candidates.add(Path.of(folder, "chromium"));
                    candidates.add(Path.of(folder, "chromium-browser"));
                }
            }
        }
        for (final Path candidate : candidates)
        {
            if (Files.isExecutable(candidate))
            {
                return candidate.toString();
            }
        }
        // CI installs chromium (.ci/run); a developer machine without it skips, saying how to get it.
        final String message = "headless Chromium is needed to render the report, none on the PATH or at $CHROMIUM "
            + "(Debian: apt-get install -y chromium)";
        if (System.getenv("CI") != null)
        {
            fail(message);
        }
        Assumptions.abort(message);
        return null;
    }
}
