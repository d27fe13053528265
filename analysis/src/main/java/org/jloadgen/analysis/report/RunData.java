package org.jloadgen.analysis.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Stream;

import org.jloadgen.log.DetailLogValues;
import org.jloadgen.sut.SutStatistics;

/**
 * Everything a report shows about one run folder, read from whatever files it holds: LoadGen's summary and detail
 * logs (JLoadGen's or the official LoadGen's), JLoadGen's latency and issue lateness interval logs, its flight
 * recording, the SUT statistics, and a Chrome trace. Each part is {@code null} (or empty) when its file is missing;
 * {@link #notes()} says what could not be shown and why.
 *
 * @param name      the run's name in the report (the folder name).
 * @param dir       the folder.
 * @param files     the files used, for the page.
 * @param summary   the summary text, or {@code null}.
 * @param detail    the detail log's values, or {@code null}.
 * @param latency   the reported series' latency intervals (from the {@code .hlog}, else from a trace), or
 *                  {@code null}.
 * @param lateness  the reported series' issue lateness intervals, or {@code null}.
 * @param pauses    the flight recording's pauses, or {@code null}.
 * @param sutStats  the SUT statistics, or {@code null}.
 * @param notes     what the files do not allow, one sentence each.
 * @param incomplete whether the run did not finish: it was killed or crashed and left its detail log under the
 *                  temporary name ({@code .partial}) with no summary; the detail is what it logged up to then.
 */
record RunData(String name, Path dir, List<Path> files, String summary, DetailLogValues detail,
    HistogramSeries latency, HistogramSeries lateness, JvmPauses pauses, SutStatistics.Snapshot sutStats,
    List<String> notes, boolean incomplete, LlmRequests requests)
{
    /** The verdict of a run that did not finish. */
    static final String INCOMPLETE = "INCOMPLETE";

    /**
     * Reads a run folder.
     *
     * @param dir the folder.
     * @return what it holds.
     * @throws IllegalArgumentException naming the folder if it holds none of the files a report reads, or naming a
     *                                  file that cannot be parsed.
     */
    static RunData read(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            throw new IllegalArgumentException(dir + " is not a folder (give the folder a run wrote its logs to)");
        }
        final List<Path> files = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final Path summaryFile = newest(dir, "summary", ".txt").orElse(null);
        final Path detailFile = newest(dir, "detail", ".txt").orElse(null);
        final Path latencyFile = newest(dir, "latency", ".hlog").orElse(null);
        final Path latenessFile = newest(dir, "issue_lateness", ".hlog").orElse(null);
        final Path jfrFile = newest(dir, "", ".jfr").orElse(null);
        final Path traceFile = newest(dir, "trace", ".json").orElse(null);
        final Path statsFile = Files.isRegularFile(dir.resolve(SutStatistics.FILE_NAME))
            ? dir.resolve(SutStatistics.FILE_NAME) : null;
        if (Stream.of(summaryFile, detailFile, latencyFile, latenessFile, jfrFile, traceFile, statsFile,
            newest(dir, "detail", ".txt.partial").orElse(null)).allMatch(p -> p == null))
        {
            throw new IllegalArgumentException(dir + " holds no run files (looked for *summary*.txt, *detail*.txt, "
                + "*latency*.hlog, *issue_lateness*.hlog, *.jfr, *trace*.json, " + SutStatistics.FILE_NAME + ")");
        }

        // A detail log still under its temporary name, newer than any summary: the run died before it finished.
        final Path partialFile = newest(dir, "detail", ".txt.partial").orElse(null);
        final boolean incomplete = partialFile != null
            && (summaryFile == null || modified(partialFile).compareTo(modified(summaryFile)) > 0);
        final String summary = summaryFile == null || incomplete ? null : readText(summaryFile);
        if (summary != null)
        {
            files.add(summaryFile);
        }
        final DetailLogValues detail;
        if (incomplete)
        {
            notes.add("Incomplete run: " + partialFile.getFileName() + " is the detail log of a run that did not "
                + "finish (it was killed or crashed before writing its summary); the page shows what it logged up to "
                + "then.");
            detail = DetailLogValues.parse(completeLines(readText(partialFile)), partialFile.toString());
            files.add(partialFile);
        }
        else
        {
            detail = detailFile == null ? null : DetailLogValues.read(detailFile);
            if (detailFile != null)
            {
                files.add(detailFile);
            }
        }
        if (summary == null && detail == null)
        {
            notes.add("No summary or detail log: no figures or validity verdict.");
        }
        final double targetQps = detail == null ? Double.NaN
            : detail.number("effective_target_qps").orElse(Double.NaN);

        HistogramSeries latency = null;
        HistogramSeries lateness = null;
        if (latencyFile != null)
        {
            files.add(latencyFile);
            latency = HistogramSeries.reported(HistogramSeries.read(latencyFile), targetQps);
        }
        if (latenessFile != null)
        {
            files.add(latenessFile);
            lateness = HistogramSeries.reported(HistogramSeries.read(latenessFile), targetQps);
        }
        if (traceFile != null && (latency == null || lateness == null))
        {
            final TraceLatencies.Binned binned = TraceLatencies.read(traceFile);
            if (binned != null)
            {
                files.add(traceFile);
                notes.add("Latency and issue delay over time come from the Chrome trace's " + binned.samples()
                    + " Latency events" + (latencyFile == null ? "" : " (issue delay only)") + ".");
                latency = latency == null ? binned.latency() : latency;
                lateness = lateness == null ? binned.lateness() : lateness;
            }
        }
        if (latency == null)
        {
            notes.add("No latency interval log (mlperf_log_latency.hlog, written by jloadgen run) or Chrome trace: "
                + "no latency over time or throughput; the percentile spectrum uses the summary's percentiles.");
        }
        if (lateness == null)
        {
            notes.add("No issue lateness log (mlperf_log_issue_lateness.hlog, jloadgen run in Server) or Chrome "
                + "trace: no issue lateness.");
        }
        JvmPauses pauses = null;
        if (jfrFile != null)
        {
            files.add(jfrFile);
            pauses = JvmPauses.read(jfrFile);
        }
        else
        {
            notes.add("No flight recording (jloadgen run --jfr): JVM pauses are not shown.");
        }
        SutStatistics.Snapshot stats = null;
        if (statsFile != null)
        {
            files.add(statsFile);
            try
            {
                stats = SutStatistics.Snapshot.read(statsFile);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot read " + statsFile, ex);
            }
        }
        else
        {
            notes.add("No " + SutStatistics.FILE_NAME + " (written by SUTs built on the toolkit): no batch sizes or "
                + "stage times.");
        }
        final LlmRequests requests = LlmRequests.find(dir, detail);
        if (requests != null)
        {
            files.add(requests.source());
        }
        else if (detail != null && detail.has(LlmRequests.FILE_KEY))
        {
            notes.add("The per-request export " + detail.text(LlmRequests.FILE_KEY) + " is gone: no per-request "
                + "TTFT, TPOT and ITL, and no requests over time.");
        }
        final Path fileName = dir.toAbsolutePath().normalize().getFileName();
        return new RunData(fileName == null ? dir.toString() : fileName.toString(), dir, List.copyOf(files),
            summary, detail, latency, lateness, pauses, stats, List.copyOf(notes), incomplete, requests);
    }

    /**
     * @param text a log written up to the moment its process died.
     * @return its lines, without a last line the process did not finish writing.
     */
    private static List<String> completeLines(final String text)
    {
        final int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n", -1));
    }

    /**
     * @param key a detail-log key.
     * @return its value as text, or empty when there is no detail log or no such record.
     */
    Optional<String> text(final String key)
    {
        return detail != null && detail.has(key) ? Optional.of(detail.text(key)) : Optional.empty();
    }

    /**
     * @param key a detail-log key with a numeric value.
     * @return its value, or empty.
     */
    OptionalDouble number(final String key)
    {
        if (detail == null)
        {
            return OptionalDouble.empty();
        }
        try
        {
            return detail.number(key);
        }
        catch (final IllegalArgumentException ex)
        {
            return OptionalDouble.empty();
        }
    }

    /**
     * @return the validity verdict: {@value #INCOMPLETE} for a run that did not finish, else {@code result_validity}
     *         of the detail log, else the summary's {@code Result is :} line, else empty.
     */
    Optional<String> validity()
    {
        if (incomplete)
        {
            return Optional.of(INCOMPLETE);
        }
        final Optional<String> fromDetail = text("result_validity");
        if (fromDetail.isPresent())
        {
            return fromDetail;
        }
        if (summary != null)
        {
            for (final String line : summary.split("\n"))
            {
                if (line.startsWith("Result is :"))
                {
                    return Optional.of(line.substring("Result is :".length()).trim());
                }
            }
        }
        return Optional.empty();
    }

    /**
     * @return the Server latency bound in ns ({@code effective_target_latency_ns}), or NaN outside Server.
     */
    double latencyBoundNs()
    {
        final boolean server = text("effective_scenario").map("Server"::equals).orElse(false);
        // A token run is judged on TTFT and TPOT, not on the end-to-end target latency.
        return server && !TokenCharts.tokenRun(this) ? number("effective_target_latency_ns").orElse(Double.NaN)
            : Double.NaN;
    }

    private static Optional<Path> newest(final Path dir, final String nameContains, final String extension)
    {
        try (Stream<Path> list = Files.list(dir))
        {
            return list.filter(Files::isRegularFile)
                .filter(p ->
                {
                    final String n = p.getFileName().toString();
                    return n.endsWith(extension) && n.contains(nameContains);
                })
                .max(Comparator.comparing(RunData::modified));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + dir, ex);
        }
    }

    private static java.nio.file.attribute.FileTime modified(final Path p)
    {
        try
        {
            return Files.getLastModifiedTime(p);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + p, ex);
        }
    }

    private static String readText(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }
}
