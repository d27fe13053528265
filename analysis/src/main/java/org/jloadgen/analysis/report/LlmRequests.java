package org.jloadgen.analysis.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.log.DetailLogValues;

/**
 * The per-request export of an LLM run ({@code --sut openai --sut-opt requests-file=FILE.jsonl}, one JSON object a
 * line: {@code send_ns}, {@code ok}, {@code ttft_ns}, {@code tpot_ns}, {@code e2e_ns}, {@code itl_min_ns},
 * {@code itl_max_ns}, {@code events}...), found through the detail log's {@code jloadgen_llm_requests_file} record:
 * the path as logged, else a file of that name in the run's folder.
 *
 * @param sendS      each request's send, seconds after the first send.
 * @param ok         whether it was answered.
 * @param ttftNs     its time to first token, or -1.
 * @param tpotNs     its time per output token, or -1.
 * @param itlMeanNs  its mean gap between text events ((E2E - TTFT) / (events - 1)), or -1.
 * @param itlMaxNs   its longest gap, or -1.
 * @param source     the file.
 */
record LlmRequests(double[] sendS, boolean[] ok, long[] ttftNs, long[] tpotNs, long[] itlMeanNs, long[] itlMaxNs,
    Path source)
{
    /** The detail-log record naming the export. */
    static final String FILE_KEY = "jloadgen_llm_requests_file";
    private static final Pattern FIELD = Pattern.compile("\"([a-z_]+)\":(-?\\d+|true|false)");

    /**
     * @param dir    the run's folder.
     * @param detail its detail log, or {@code null}.
     * @return the export, or {@code null} when the run has none (or it is gone).
     * @throws UncheckedIOException naming the file when it cannot be read.
     */
    static LlmRequests find(final Path dir, final DetailLogValues detail)
    {
        if (detail == null || !detail.has(FILE_KEY))
        {
            return null;
        }
        final Path logged = Path.of(detail.text(FILE_KEY));
        final Path file = Files.isRegularFile(logged) ? logged
            : logged.getFileName() != null && Files.isRegularFile(dir.resolve(logged.getFileName()))
                ? dir.resolve(logged.getFileName()) : null;
        return file == null ? null : read(file);
    }

    /**
     * @param file a per-request export.
     * @return its requests, in send order.
     */
    static LlmRequests read(final Path file)
    {
        final List<long[]> rows = new ArrayList<>();
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        for (final String line : lines)
        {
            if (line.isBlank())
            {
                continue;
            }
            // send, ok, ttft, tpot, e2e, events, itl max
            final long[] r = {Long.MIN_VALUE, 0, -1, -1, -1, 0, -1};
            final Matcher m = FIELD.matcher(line);
            while (m.find())
            {
                final String v = m.group(2);
                final long n = v.equals("true") ? 1 : v.equals("false") ? 0 : Long.parseLong(v);
                switch (m.group(1))
                {
                    case "send_ns" -> r[0] = n;
                    case "ok" -> r[1] = n;
                    case "ttft_ns" -> r[2] = n;
                    case "tpot_ns" -> r[3] = n;
                    case "e2e_ns" -> r[4] = n;
                    case "events" -> r[5] = n;
                    case "itl_max_ns" -> r[6] = n;
                    default ->
                    {
                    }
                }
            }
            if (r[0] != Long.MIN_VALUE)
            {
                rows.add(r);
            }
        }
        rows.sort((a, b) -> Long.compare(a[0], b[0]));
        final int n = rows.size();
        final double[] send = new double[n];
        final boolean[] ok = new boolean[n];
        final long[] ttft = new long[n];
        final long[] tpot = new long[n];
        final long[] itlMean = new long[n];
        final long[] itlMax = new long[n];
        final long first = n == 0 ? 0 : rows.get(0)[0];
        for (int i = 0; i < n; i++)
        {
            final long[] r = rows.get(i);
            send[i] = (r[0] - first) / 1e9;
            ok[i] = r[1] == 1;
            ttft[i] = r[2];
            tpot[i] = r[3];
            itlMean[i] = ok[i] && r[5] > 1 && r[2] >= 0 ? (r[4] - r[2]) / (r[5] - 1) : -1;
            itlMax[i] = r[6];
        }
        return new LlmRequests(send, ok, ttft, tpot, itlMean, itlMax, file);
    }

    /**
     * @return requests that failed.
     */
    long failed()
    {
        long n = 0;
        for (final boolean b : ok)
        {
            n += b ? 0 : 1;
        }
        return n;
    }
}
