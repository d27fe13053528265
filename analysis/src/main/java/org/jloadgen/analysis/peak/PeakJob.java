package org.jloadgen.analysis.peak;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jloadgen.cli.api.ConsoleText;

/**
 * One peak search with everything around it: runs it, prints a line per run, rewrites {@code peak.md} after every
 * run and draws the chart at the end. {@link #interrupt} (a signal handler's call) stops the search during a run,
 * aborting that run; every finished run and the report stay.
 */
public final class PeakJob
{
    private final PeakSearch search;
    private final EngineProber prober;
    private final Path folder;
    private final PeakReport.Context context;
    private final PrintStream console;
    private final CountDownLatch done = new CountDownLatch(1);

    /**
     * @param search  the search.
     * @param prober  runs its probes.
     * @param folder  where the report goes.
     * @param context what the report says about the search.
     * @param console where progress goes.
     */
    public PeakJob(final PeakSearch search, final EngineProber prober, final Path folder,
        final PeakReport.Context context, final PrintStream console)
    {
        this.search = search;
        this.prober = prober;
        this.folder = folder;
        this.context = context;
        this.console = console;
    }

    /**
     * Stops the search: the run in progress is aborted (its logs are finished and say why), the report keeps
     * every finished run. Any thread; returns at once.
     *
     * @param reason why, for the report and the aborted run's logs.
     */
    public void interrupt(final String reason)
    {
        search.stop(reason);
        prober.abort(reason);
    }

    /**
     * Waits until the search has written its final report (for a signal handler, before the JVM exits).
     *
     * @param timeoutMs the longest wait.
     * @return whether the report is written.
     * @throws InterruptedException if the wait is interrupted.
     */
    public boolean awaitReport(final long timeoutMs) throws InterruptedException
    {
        return done.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs the search.
     *
     * @param startQps the first target.
     * @return the result; {@code peak.md} and the chart are written.
     */
    public PeakSearch.Result run(final double startQps)
    {
        final long startNs = System.nanoTime();
        try
        {
            final PeakSearch.Result result = search.run(startQps, prober, (run, runs) ->
            {
                // Wrapped to 80 columns, its continuation lines indented.
                console.println(ConsoleText.wrap(line(run), "    "));
                PeakReport.write(folder, context, PeakSearch.Result.of(PeakSearch.Status.RUNNING, "",
                    search.limits().repeats(), runs), elapsedMs(startNs), null);
            });
            String chart = null;
            try
            {
                chart = PeakChart.write(folder, result);
            }
            catch (final RuntimeException ex)
            {
                // The chart illustrates; the report and the answer must not depend on it.
                console.println("jloadgen peak: warning: the chart could not be drawn: " + ex);
            }
            PeakReport.write(folder, context, result, elapsedMs(startNs), chart);
            console.println(ConsoleText.wrap(PeakReport.answer(result).replace("**", ""), "  "));
            console.println(ConsoleText.wrap("Report: " + folder.resolve(PeakReport.FILE_NAME).toAbsolutePath()
                + (chart == null ? "" : " (chart: " + chart + ")"), "  "));
            console.printf(Locale.ROOT, "Search took %s.%n", PeakFormat.duration(elapsedMs(startNs)));
            return result;
        }
        finally
        {
            done.countDown();
        }
    }

    private static long elapsedMs(final long startNs)
    {
        return (System.nanoTime() - startNs) / 1_000_000;
    }

    /**
     * @param run a finished run.
     * @return its progress line.
     */
    static String line(final ProbeRun run)
    {
        return String.format(Locale.ROOT, "run %d: %s QPS (repeat %d): %s  p50 %s  p%s %s  completed %s QPS  [%s]%s",
            run.number(), PeakFormat.qps(run.targetQps()), run.repeat(), run.verdict(),
            PeakFormat.latency(run.latencies().p50Ns()),
            PeakFormat.number(run.latencies().targetPercentile() * 100),
            PeakFormat.latency(run.latencies().atTargetNs()), PeakFormat.qps(run.completedQps()),
            PeakFormat.duration(run.wallMs()), run.why().isEmpty() ? "" : "  " + run.why());
    }
}
