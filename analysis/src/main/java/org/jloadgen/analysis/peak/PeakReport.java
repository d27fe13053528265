package org.jloadgen.analysis.peak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.jloadgen.sut.AtomicFiles;

/**
 * {@code peak.md}: what a peak search found and how, rewritten after every run so a stopped or crashed search
 * leaves everything it finished. The answer first (the highest target QPS that passed every repeat, the lowest that
 * failed), then the pass rate and latencies of every target, every run with its folder, seeds and why it failed,
 * and the settings that make the search reproducible.
 */
public final class PeakReport
{
    /** The report's file name. */
    public static final String FILE_NAME = "peak.md";

    /**
     * What the report says about the search besides its runs.
     *
     * @param sut           the SUT's name and options.
     * @param commandLine   the command that ran the search.
     * @param scenario      what each run is (e.g. "Server, generated Poisson trace").
     * @param bound         the latency bound, e.g. "p99 <= 10.00 ms".
     * @param duration      min duration and queries of each run, start-up and warm-up.
     * @param startedFrom   where the search started (a capacity estimate, the config's target, --start-qps).
     * @param limits        the search's limits.
     * @param seeds         the runs' seeds.
     */
    public record Context(String sut, String commandLine, String scenario, String bound, String duration,
        String startedFrom, PeakSearch.Limits limits, RunSeeds seeds)
    {
    }

    private PeakReport()
    {
    }

    /**
     * Writes the report (atomically: a reader never sees half of it).
     *
     * @param folder    the search's folder.
     * @param context   the search's context.
     * @param result    the result so far (status RUNNING between runs).
     * @param elapsedMs wall time of the search so far.
     * @param chart     the latency-vs-QPS chart's file name in the folder, or {@code null} if there is none.
     * @return the report's path.
     */
    public static Path write(final Path folder, final Context context, final PeakSearch.Result result,
        final long elapsedMs, final String chart)
    {
        final Path target = folder.resolve(FILE_NAME);
        try
        {
            Files.createDirectories(folder);
            final String text = render(folder, context, result, elapsedMs, chart);
            AtomicFiles.write(target, text.getBytes(StandardCharsets.UTF_8));
            return target;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param folder    the search's folder (run folders are shown relative to it).
     * @param context   the search's context.
     * @param result    the result so far.
     * @param elapsedMs wall time so far.
     * @param chart     the chart's file name, or {@code null}.
     * @return the Markdown text.
     */
    static String render(final Path folder, final Context context, final PeakSearch.Result result,
        final long elapsedMs, final String chart)
    {
        final StringBuilder b = new StringBuilder(4096);
        b.append("# jloadgen peak: ").append(context.sut()).append("\n\n");
        b.append(answer(result)).append("\n\n");
        final long counted = result.runs().stream().filter(ProbeRun::counted).count();
        b.append(String.format(Locale.ROOT, "Search: %s; %d run%s (%d counted) at %d target%s in %s. %s, bound %s. "
                + "Resolution %s, %d repeat%s near the boundary.%n%n",
            result.status().text() + (result.message().isEmpty() ? "" : " (" + result.message() + ")"),
            result.runs().size(), result.runs().size() == 1 ? "" : "s", counted, result.points().size(),
            result.points().size() == 1 ? "" : "s", PeakFormat.duration(elapsedMs), context.scenario(),
            context.bound(), percent(context.limits().resolution()), context.limits().repeats(),
            context.limits().repeats() == 1 ? "" : "s"));
        if (chart != null)
        {
            b.append("![latency vs target QPS](").append(chart).append(")\n\n");
        }
        b.append("## Targets\n\n");
        b.append("| target QPS | runs | VALID | pass rate | p50 | p99 | at bound's percentile | completed QPS |\n");
        b.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (final PeakSearch.Point p : result.points())
        {
            final ProbeRun worst = worstRun(result.runs(), p.targetQps());
            b.append("| ").append(PeakFormat.qps(p.targetQps()))
                .append(p.targetQps() == result.peakQps() ? " **peak**" : "")
                .append(p.targetQps() == result.failQps() ? " (lowest failing)" : "")
                .append(" | ").append(p.runs()).append(" | ").append(p.passes()).append(" | ")
                .append(p.runs() == 0 ? "-" : percent(p.passRate())).append(" | ")
                .append(worst == null ? "-" : PeakFormat.latency(worst.latencies().p50Ns())).append(" | ")
                .append(worst == null ? "-" : PeakFormat.latency(worst.latencies().p99Ns())).append(" | ")
                .append(worst == null ? "-" : PeakFormat.latency(worst.latencies().atTargetNs())).append(" | ")
                .append(worst == null ? "-" : PeakFormat.qps(worst.completedQps())).append(" |\n");
        }
        b.append("\nLatencies of a target are its worst counted run's (highest latency at the bound's "
            + "percentile).\n\n");
        b.append("## Runs\n\n");
        b.append("| # | target QPS | repeat | result | p50 | p99 | at percentile | completed QPS | queries | wall | "
            + "why not VALID | logs |\n");
        b.append("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (final ProbeRun r : result.runs())
        {
            b.append("| ").append(r.number()).append(" | ").append(PeakFormat.qps(r.targetQps())).append(" | ")
                .append(r.repeat()).append(" | ").append(r.verdict()).append(" | ")
                .append(PeakFormat.latency(r.latencies().p50Ns())).append(" | ")
                .append(PeakFormat.latency(r.latencies().p99Ns())).append(" | ")
                .append(PeakFormat.latency(r.latencies().atTargetNs())).append(" | ")
                .append(PeakFormat.qps(r.completedQps())).append(" | ").append(r.queries()).append(" | ")
                .append(PeakFormat.duration(r.wallMs())).append(" | ").append(cell(r.why())).append(" | ")
                .append(relative(folder, r.folder())).append(" |\n");
        }
        b.append("\n## Settings\n\n");
        b.append("- SUT: ").append(context.sut()).append('\n');
        b.append("- each run: ").append(context.scenario()).append("; ").append(context.duration()).append('\n');
        b.append("- bound: ").append(context.bound()).append('\n');
        b.append("- started from: ").append(context.startedFrom()).append('\n');
        final PeakSearch.Limits l = context.limits();
        b.append(String.format(Locale.ROOT, "- search: targets %s to %s QPS, bracketing step x%s, resolution %s, "
                + "%d repeat%s, at most %d runs%n", PeakFormat.qps(l.minQps()),
            Double.isInfinite(l.maxQps()) ? "unbounded" : PeakFormat.qps(l.maxQps()), PeakFormat.number(l.step()),
            percent(l.resolution()), l.repeats(), l.repeats() == 1 ? "" : "s", l.maxRuns()));
        b.append("- seeds: ").append(context.seeds().isPinned()
            ? "pinned: every run uses " + seeds(context.seeds().forRun(1))
            : "fresh per run from base " + Long.toUnsignedString(context.seeds().base())
                + " (run n: mix(base, n)); each run's below").append('\n');
        if (!context.seeds().isPinned())
        {
            for (final ProbeRun r : result.runs())
            {
                b.append("  - run ").append(r.number()).append(": ").append(seeds(r.seeds())).append('\n');
            }
        }
        b.append("- command: `").append(context.commandLine()).append("`\n");
        return b.toString();
    }

    /**
     * @param result a result.
     * @return the one-paragraph answer.
     */
    static String answer(final PeakSearch.Result result)
    {
        final StringBuilder b = new StringBuilder();
        if (!Double.isNaN(result.peakQps()))
        {
            final PeakSearch.Point p = point(result, result.peakQps());
            b.append("**Peak: ").append(PeakFormat.qps(result.peakQps())).append(" QPS**, VALID in ")
                .append(p.passes()).append(" of ").append(p.runs()).append(" runs");
        }
        else
        {
            b.append("**No peak**: no target passed all ").append(result.repeats()).append(" of its runs");
        }
        if (!Double.isNaN(result.failQps()))
        {
            final PeakSearch.Point p = point(result, result.failQps());
            b.append("; lowest failing target ").append(PeakFormat.qps(result.failQps())).append(" QPS (VALID in ")
                .append(p.passes()).append(" of ").append(p.runs()).append(')');
            if (!Double.isNaN(result.peakQps()))
            {
                b.append(", ").append(percent((result.failQps() - result.peakQps()) / result.peakQps()))
                    .append(" above the peak");
            }
        }
        else if (!Double.isNaN(result.peakQps()))
        {
            b.append("; no target failed");
        }
        b.append('.');
        final double unconfirmed = result.unconfirmedQps();
        if (!Double.isNaN(unconfirmed))
        {
            b.append(" ").append(PeakFormat.qps(unconfirmed)).append(" QPS passed but ran fewer than ")
                .append(result.repeats()).append(" times.");
        }
        if (result.status() == PeakSearch.Status.RUNNING)
        {
            b.append(" (The search is still running; this is what it found so far.)");
        }
        else if (result.status() != PeakSearch.Status.FOUND)
        {
            b.append(" The search ended early: ").append(result.status().text())
                .append(result.message().isEmpty() ? "" : ": " + result.message()).append('.');
        }
        return b.toString();
    }

    private static PeakSearch.Point point(final PeakSearch.Result result, final double qps)
    {
        return result.points().stream().filter(p -> p.targetQps() == qps).findFirst().orElseThrow();
    }

    private static ProbeRun worstRun(final List<ProbeRun> runs, final double qps)
    {
        ProbeRun worst = null;
        for (final ProbeRun r : runs)
        {
            if (r.counted() && r.targetQps() == qps
                && (worst == null || r.latencies().atTargetNs() > worst.latencies().atTargetNs()))
            {
                worst = r;
            }
        }
        return worst;
    }

    private static String seeds(final ProbeRun.Seeds s)
    {
        // Unsigned, as LoadGen logs its uint64 seeds and --set reads them.
        return "qsl_rng_seed=" + Long.toUnsignedString(s.qsl()) + " sample_index_rng_seed="
            + Long.toUnsignedString(s.sample()) + " schedule_rng_seed=" + Long.toUnsignedString(s.schedule());
    }

    private static String percent(final double fraction)
    {
        return PeakFormat.number(fraction * 100) + "%";
    }

    private static String cell(final String text)
    {
        return text.isEmpty() ? "" : text.replace('|', '/').replace('\n', ' ');
    }

    private static String relative(final Path folder, final Path runFolder)
    {
        try
        {
            return folder.toAbsolutePath().relativize(runFolder.toAbsolutePath()).toString();
        }
        catch (final IllegalArgumentException ex)
        {
            return runFolder.toString();
        }
    }
}
