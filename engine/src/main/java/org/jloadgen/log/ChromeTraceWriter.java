package org.jloadgen.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.jloadgen.clib.CFormat;
import org.jloadgen.clib.IoErrors;

/**
 * {@code mlperf_log_trace.json} in LoadGen's Chrome-trace layout (spec §8.5; loadgen/logging.h, ChromeTracer), loadable
 * by chrome://tracing and Perfetto: header <code>&#123;"traceEvents":[</code>, one event per line each followed by a
 * comma, and a footer with the origin. Times are µs from the trace origin with three decimals, as LoadGen's
 * {@code std::fixed} {@code setprecision(3)} prints {@code duration<double, micro>}.
 * <p>
 * Written after the timed part or by a logging thread, never on the hot path; the file gets a temporary name
 * and is renamed into place on {@link #close()}. Not thread-safe.
 */
public final class ChromeTraceWriter implements AutoCloseable
{
    /** Below this many ns, {@code ns / 1000.0} printed with 3 decimals equals the exact integer split. */
    private static final long EXACT_MICROS_LIMIT_NS = 1_000_000_000_000_000L;
    private static final String[] SAMPLE_ARGS = {"sample_seq", "query_seq", "sample_idx", "issue_start_ns",
        "complete_ns"};
    private static final String[] LATENCY_ARGS = {"issue_delay", "issue_to_done"};

    private final Path target;
    private final Path temporary;
    private final BufferedWriter out;
    private final long originNs;
    private final long originEpochNs;
    private final StringBuilder line = new StringBuilder(256);
    private final long[] sampleValues = new long[SAMPLE_ARGS.length];
    private final long[] latencyValues = new long[LATENCY_ARGS.length];
    private boolean closed;

    /**
     * Creates the file and writes the header.
     *
     * @param target        final path.
     * @param originNs      run-clock reading that event times count from.
     * @param originEpochNs the same instant as ns since the epoch (written in the footer).
     */
    public ChromeTraceWriter(final Path target, final long originNs, final long originEpochNs)
    {
        this.target = target;
        this.temporary = target.resolveSibling(target.getFileName() + ".partial");
        this.originNs = originNs;
        this.originEpochNs = originEpochNs;
        try
        {
            this.out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8);
            out.write("{\"traceEvents\":[\n");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create trace " + temporary + ": " + IoErrors.reason(ex), ex);
        }
    }

    /**
     * A complete ("X") event with no arguments, e.g. a scoped trace such as {@code IssueQuery}.
     *
     * @param name    event name.
     * @param pid     process id.
     * @param tid     thread id.
     * @param startNs start on the run clock.
     * @param endNs   end on the run clock.
     */
    public void complete(final String name, final long pid, final long tid, final long startNs, final long endNs)
    {
        complete(name, pid, tid, startNs, endNs, null, null);
    }

    /**
     * A complete ("X") event.
     *
     * @param name       event name.
     * @param pid        process id.
     * @param tid        thread id.
     * @param startNs    start on the run clock.
     * @param endNs      end on the run clock.
     * @param argNames   argument names, or {@code null}.
     * @param argValues  argument values, same length.
     */
    public void complete(final String name, final long pid, final long tid, final long startNs, final long endNs,
        final String[] argNames, final long[] argValues)
    {
        final StringBuilder sb = start(name);
        sb.append("\"ph\":\"X\",\"pid\":").append(pid).append(",\"tid\":").append(tid).append(",\"ts\":");
        appendMicros(sb, startNs - originNs);
        sb.append(",\"dur\":");
        appendMicros(sb, endNs - startNs);
        sb.append(",\"args\":{");
        appendArgs(sb, argNames, argValues);
        finish(sb.append("}},\n"));
    }

    /**
     * An async begin ("b") event.
     *
     * @param name      event name.
     * @param pid       process id.
     * @param id        async id.
     * @param timeNs    time on the run clock.
     * @param argNames  argument names, or {@code null}.
     * @param argValues argument values.
     */
    public void asyncBegin(final String name, final long pid, final long id, final long timeNs,
        final String[] argNames, final long[] argValues)
    {
        asyncWithArgs(name, "b", pid, id, timeNs, argNames, argValues);
    }

    /**
     * An async instant ("n") event.
     *
     * @param name      event name.
     * @param pid       process id.
     * @param id        async id.
     * @param timeNs    time on the run clock.
     * @param argNames  argument names, or {@code null}.
     * @param argValues argument values.
     */
    public void asyncInstant(final String name, final long pid, final long id, final long timeNs,
        final String[] argNames, final long[] argValues)
    {
        asyncWithArgs(name, "n", pid, id, timeNs, argNames, argValues);
    }

    /**
     * An async end ("e") event; LoadGen writes a space after its {@code "ph":"e",}.
     *
     * @param name   event name.
     * @param pid    process id.
     * @param id     async id.
     * @param timeNs time on the run clock.
     */
    public void asyncEnd(final String name, final long pid, final long id, final long timeNs)
    {
        final StringBuilder sb = start(name);
        sb.append("\"cat\":\"default\",\"ph\":\"e\", \"pid\":").append(pid).append(",\"id\":").append(id)
            .append(",\"ts\":");
        appendMicros(sb, timeNs - originNs);
        finish(sb.append("},\n"));
    }

    /**
     * A counter ("C") event; LoadGen writes {@code "ph": "C"} and a space after the opening brace of the arguments.
     *
     * @param name      counter name.
     * @param pid       process id.
     * @param timeNs    time on the run clock.
     * @param argNames  series names.
     * @param argValues series values.
     */
    public void counter(final String name, final long pid, final long timeNs, final String[] argNames,
        final long[] argValues)
    {
        final StringBuilder sb = start(name);
        sb.append("\"ph\": \"C\",\"pid\":").append(pid).append(",\"ts\":");
        appendMicros(sb, timeNs - originNs);
        sb.append(",\"args\":{ ");
        appendArgs(sb, argNames, argValues);
        finish(sb.append("}},\n"));
    }

    /**
     * LoadGen's per-sample pair: "b" at the scheduled time with the sample's ids and timings, "e" at completion.
     *
     * @param name         "Sample" for completions, "Token" for first tokens.
     * @param pid          process id.
     * @param sampleSeq    sample sequence id (also the async id).
     * @param querySeq     query sequence id.
     * @param sampleIndex  QSL index.
     * @param scheduledNs  scheduled time on the run clock.
     * @param issuedNs     issue time on the run clock.
     * @param completedNs  completion time on the run clock.
     */
    public void sample(final String name, final long pid, final long sampleSeq, final long querySeq,
        final long sampleIndex, final long scheduledNs, final long issuedNs, final long completedNs)
    {
        final long[] values = sampleValues;
        values[0] = sampleSeq;
        values[1] = querySeq;
        values[2] = sampleIndex;
        values[3] = issuedNs - scheduledNs;
        values[4] = completedNs - scheduledNs;
        asyncBegin(name, pid, sampleSeq, scheduledNs, SAMPLE_ARGS, values);
        asyncEnd(name, pid, sampleSeq, completedNs);
    }

    /**
     * LoadGen's Server latency counter at the scheduled time: issue delay and issue-to-done.
     *
     * @param name        "Latency" for completions, "Token_Latency" for first tokens.
     * @param pid         process id.
     * @param scheduledNs scheduled time on the run clock.
     * @param issuedNs    issue time on the run clock.
     * @param completedNs completion time on the run clock.
     */
    public void latencyCounter(final String name, final long pid, final long scheduledNs, final long issuedNs,
        final long completedNs)
    {
        final long[] values = latencyValues;
        values[0] = issuedNs - scheduledNs;
        values[1] = completedNs - issuedNs;
        counter(name, pid, scheduledNs, LATENCY_ARGS, values);
    }

    private void asyncWithArgs(final String name, final String phase, final long pid, final long id,
        final long timeNs, final String[] argNames, final long[] argValues)
    {
        final StringBuilder sb = start(name);
        sb.append("\"cat\":\"default\",\"ph\":\"").append(phase).append("\",\"pid\":").append(pid)
            .append(",\"id\":").append(id).append(",\"ts\":");
        appendMicros(sb, timeNs - originNs);
        sb.append(",\"args\":{");
        appendArgs(sb, argNames, argValues);
        finish(sb.append("}},\n"));
    }

    private StringBuilder start(final String name)
    {
        if (closed)
        {
            throw new IllegalStateException("trace already closed: " + target);
        }
        final StringBuilder sb = line;
        sb.setLength(0);
        return sb.append("{\"name\":\"").append(name).append("\",");
    }

    private void finish(final StringBuilder sb)
    {
        try
        {
            out.append(sb);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write trace " + temporary + ": " + IoErrors.reason(ex), ex);
        }
    }

    private static void appendArgs(final StringBuilder sb, final String[] names, final long[] values)
    {
        if (names == null)
        {
            return;
        }
        for (int i = 0; i < names.length; i++)
        {
            if (i > 0)
            {
                sb.append(',');
            }
            sb.append('"').append(names[i]).append("\":").append(values[i]);
        }
    }

    /**
     * {@code ns / 1000.0} printed as {@code %.3f}. For |ns| below 1e15 (11 days) the double is within 1e-4 of the
     * exact decimal {@code ns / 1000}, so the integer split prints the same digits without formatting a double.
     */
    static void appendMicros(final StringBuilder sb, final long deltaNs)
    {
        if (deltaNs > -EXACT_MICROS_LIMIT_NS && deltaNs < EXACT_MICROS_LIMIT_NS)
        {
            final long abs = Math.abs(deltaNs);
            if (deltaNs < 0)
            {
                sb.append('-');
            }
            sb.append(abs / 1000).append('.');
            final long frac = abs % 1000;
            if (frac < 100)
            {
                sb.append('0');
            }
            if (frac < 10)
            {
                sb.append('0');
            }
            sb.append(frac);
            return;
        }
        sb.append(CFormat.fixed(deltaNs / 1000.0, 3));
    }

    /**
     * Writes the footer, closes the file and renames it into place. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            out.write("{\"name\":\"LastTrace\"}\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\n\"ts\":");
            // duration<double, micro> of the epoch time: the ns count converted to double, then divided.
            out.write(CFormat.fixed((double)originEpochNs / 1000.0, 3));
            out.write(",\n\"version\":\"MLPerf LoadGen v1.0\"\n}\n}\n");
            out.close();
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot finish trace " + target + ": " + IoErrors.reason(ex), ex);
        }
    }
}
