package org.jloadgen.benchmarks.overhead;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.jloadgen.sut.SutStatistics;

/**
 * Where one JLoadGen Server run's latency went, from the files it wrote: per sample, the issue lateness (scheduled time
 * to the SUT being called: {@code issue_delay} in the Chrome trace's {@code Latency} counters) and the rest
 * ({@code issue_to_done}); per batch, from the SUT toolkit's {@code sut_stats.txt}, the hand-off (the issue thread
 * handing the first sample over to a worker taking it up) and the inference time where the SUT records one. Issue
 * lateness plus hand-off is what the harness adds; inference and batching are the SUT's.
 *
 * @param issueLateness     per-sample issue lateness, ns.
 * @param issueToDone       per-sample time from the SUT call to the completion, ns.
 * @param handoff           per-batch hand-off, ns, or {@code null} when the SUT records none.
 * @param inference         per-batch inference time, ns, or {@code null} when the SUT records none.
 * @param samplesPerBatch   mean samples per batch, or NaN.
 */
public record LatencyBreakdown(Histogram issueLateness, Histogram issueToDone, Histogram handoff, Histogram inference,
    double samplesPerBatch)
{
    /** The Chrome trace of a run. */
    static final String TRACE_FILE = "mlperf_log_trace.json";
    private static final Pattern LATENCY_COUNTER =
        Pattern.compile("\"name\":\"Latency\".*\"issue_delay\":(-?\\d+),\"issue_to_done\":(-?\\d+)");
    private static final long HIGHEST_NS = 3_600_000_000_000L;

    /**
     * Reads a run's folder.
     *
     * @param runDir      holds {@value #TRACE_FILE} and, for toolkit SUTs, {@value SutStatistics#FILE_NAME}.
     * @param deleteTrace whether to delete the trace once read (it takes about 370 bytes per sample).
     * @return the breakdown.
     * @throws IOException if the trace cannot be read.
     * @throws IllegalArgumentException naming the file if it has no {@code Latency} counters.
     */
    public static LatencyBreakdown read(final Path runDir, final boolean deleteTrace) throws IOException
    {
        final Path trace = runDir.resolve(TRACE_FILE);
        final Histogram lateness = new Histogram(HIGHEST_NS, 3);
        final Histogram rest = new Histogram(HIGHEST_NS, 3);
        try (BufferedReader in = Files.newBufferedReader(trace, StandardCharsets.UTF_8))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                final Matcher m = LATENCY_COUNTER.matcher(line);
                if (m.find())
                {
                    lateness.recordValue(clamp(Long.parseLong(m.group(1))));
                    rest.recordValue(clamp(Long.parseLong(m.group(2))));
                }
            }
        }
        if (lateness.getTotalCount() == 0)
        {
            throw new IllegalArgumentException(trace + " has no Latency counters (not a Server run with a trace?)");
        }
        if (deleteTrace)
        {
            Files.delete(trace);
        }
        final Path stats = runDir.resolve(SutStatistics.FILE_NAME);
        if (!Files.isRegularFile(stats))
        {
            return new LatencyBreakdown(lateness, rest, null, null, Double.NaN);
        }
        final SutStatistics.Snapshot snapshot = SutStatistics.Snapshot.read(stats);
        return new LatencyBreakdown(lateness, rest, stage(snapshot, SutStatistics.HANDOFF_STAGE),
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

    private static long clamp(final long ns)
    {
        return Math.max(0, Math.min(ns, HIGHEST_NS));
    }
}
