package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.jloadgen.sut.SutStatistics;

/**
 * Where one JLoadGen Server run's latency went, from the files it wrote: per query, the issue lateness (scheduled time
 * to the SUT being called: the engine's {@code mlperf_log_issue_lateness.hlog}); per batch, from the SUT toolkit's
 * {@code sut_stats.txt}, the hand-off (the issue thread handing the first sample over to a worker taking it up) and
 * the inference time where the SUT records one. Issue lateness plus hand-off is what the harness adds; inference and
 * batching are the SUT's.
 *
 * @param issueLateness   per-query issue lateness, ns, all intervals together.
 * @param handoff         per-batch hand-off, ns, or {@code null} when the SUT records none.
 * @param inference       per-batch inference time, ns, or {@code null} when the SUT records none.
 * @param samplesPerBatch mean samples per batch, or NaN.
 */
public record LatencyBreakdown(Histogram issueLateness, Histogram handoff, Histogram inference,
    double samplesPerBatch)
{
    /** The engine's Server issue lateness log in a run's folder (default log prefix and suffix). */
    static final String LATENESS_FILE = "mlperf_log_issue_lateness.hlog";
    private static final long HIGHEST_NS = 3_600_000_000_000L;

    /**
     * Reads a run's folder.
     *
     * @param runDir holds {@value #LATENESS_FILE} and, for toolkit SUTs, {@value SutStatistics#FILE_NAME}.
     * @return the breakdown.
     * @throws IOException if a file cannot be read.
     * @throws IllegalArgumentException naming the file if the lateness log holds no interval.
     */
    public static LatencyBreakdown read(final Path runDir) throws IOException
    {
        final Path lateness = runDir.resolve(LATENESS_FILE);
        final Histogram total = new Histogram(HIGHEST_NS, 3);
        try (HistogramLogReader reader = new HistogramLogReader(lateness.toFile()))
        {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null)
            {
                total.add((Histogram)interval);
            }
        }
        if (total.getTotalCount() == 0)
        {
            throw new IllegalArgumentException(lateness + " holds no interval (not a Server performance run?)");
        }
        final Path stats = runDir.resolve(SutStatistics.FILE_NAME);
        if (!Files.isRegularFile(stats))
        {
            return new LatencyBreakdown(total, null, null, Double.NaN);
        }
        final SutStatistics.Snapshot snapshot = SutStatistics.Snapshot.read(stats);
        return new LatencyBreakdown(total, stage(snapshot, SutStatistics.HANDOFF_STAGE),
            stage(snapshot, "inference"), snapshot.batches() == 0 ? Double.NaN
                : (double)snapshot.samples() / snapshot.batches());
    }

    private static Histogram stage(final SutStatistics.Snapshot snapshot, final String name)
    {
        for (final SutStatistics.StageTimes stage : snapshot.stages())
        {
            if (stage.name().equals(name))
            {
                return stage.histogram();
            }
        }
        return null;
    }
}
