package org.jloadgen.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import org.jloadgen.clib.CFormat;
import org.jloadgen.clib.IoErrors;

/**
 * Writer of {@code mlperf_log_detail.txt}: one {@code :::MLLOG {json}} record per line, byte for byte in
 * LoadGen's layout (spec §8.2; loadgen/logging.h, AsyncDetail). Never used on the timed path: records are formatted as
 * they are logged.
 * <p>
 * The file is written under a temporary name ({@link #partialPath}) and renamed into place by {@link #close()}, so
 * a reader never sees half a log under the final name; a {@code .partial} left behind is the log of a run that
 * died. {@link PeriodicFlush} hands the buffered records to the OS every second, so such a log holds everything
 * logged up to the last second before the process died. Counts of error and warning records feed the summary
 * trailer and {@code num_errors}.
 */
public final class DetailLog implements AutoCloseable
{
    private static final String NAMESPACE_AND_TYPE =
        ", \"namespace\": \"mlperf::logging\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": {\"is_error\": ";
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private final Path target;
    private final Path temporary;
    private final BufferedWriter out;
    private final PrintStream copy;
    private final LongSupplier clockNs;
    private final long pid = ProcessHandle.current().pid();
    private long originNs;
    private long stampNs = Long.MIN_VALUE;
    private final PeriodicFlush.Handle flusher;
    private volatile IOException flushFailure;
    private int errorCount;
    private int warningCount;
    private boolean closed;

    /**
     * @param target  final path of the detail log.
     * @param copy    where to echo every line ({@code copy_detail_to_stdout}), or {@code null}.
     * @param clockNs the clock of the run; record times are relative to {@link #origin(long)}.
     */
    public DetailLog(final Path target, final PrintStream copy, final LongSupplier clockNs)
    {
        this.target = target;
        this.temporary = partialPath(target);
        this.copy = copy;
        this.clockNs = clockNs;
        this.originNs = clockNs.getAsLong();
        try
        {
            this.out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create detail log " + temporary + ": " + IoErrors.reason(ex), ex);
        }
        this.flusher = PeriodicFlush.every(out, ex -> flushFailure = ex);
    }

    /**
     * @param target final path of a detail log.
     * @return where it is written until the run finishes.
     */
    public static Path partialPath(final Path target)
    {
        return target.resolveSibling(target.getFileName() + ".partial");
    }

    /**
     * A log that is not backed by a file (for tests and dry runs); records are counted, not kept.
     *
     * @param clockNs the clock of the run.
     * @return the log.
     */
    public static DetailLog discarding(final LongSupplier clockNs)
    {
        return new DetailLog(clockNs);
    }

    private DetailLog(final LongSupplier clockNs)
    {
        this.target = null;
        this.temporary = null;
        this.out = null;
        this.flusher = null;
        this.copy = null;
        this.clockNs = clockNs;
        this.originNs = clockNs.getAsLong();
    }

    /**
     * @param originNs the clock reading that {@code time_ms} counts from.
     */
    public void origin(final long originNs)
    {
        this.originNs = originNs;
    }

    /**
     * Makes the following records share one timestamp, as LoadGen does for keys logged in one closure.
     * {@link #unstamp()} returns to per-record timestamps.
     */
    public void stamp()
    {
        stampNs = clockNs.getAsLong();
    }

    /**
     * Makes the following records share the given timestamp.
     *
     * @param timestampNs a clock reading.
     */
    public void stamp(final long timestampNs)
    {
        stampNs = timestampNs;
    }

    /**
     * Returns to one timestamp per record.
     */
    public void unstamp()
    {
        stampNs = Long.MIN_VALUE;
    }

    /**
     * @return number of error records so far.
     */
    public int errorCount()
    {
        return errorCount;
    }

    /**
     * @return number of warning records so far.
     */
    public int warningCount()
    {
        return warningCount;
    }

    /**
     * @param key   record key.
     * @param value string value (JSON-escaped).
     */
    public void log(final String key, final String value)
    {
        write(key, quote(value), false, false);
    }

    /**
     * @param key   record key.
     * @param value signed integer value.
     */
    public void log(final String key, final long value)
    {
        write(key, Long.toString(value), false, false);
    }

    /**
     * @param key   record key.
     * @param value value printed as an unsigned 64-bit integer (seeds).
     */
    public void logUnsigned(final String key, final long value)
    {
        write(key, Long.toUnsignedString(value), false, false);
    }

    /**
     * @param key   record key.
     * @param value double printed as C {@code %g}.
     */
    public void log(final String key, final double value)
    {
        write(key, CFormat.g(value), false, false);
    }

    /**
     * @param key   record key.
     * @param value boolean printed as {@code true}/{@code false}.
     */
    public void log(final String key, final boolean value)
    {
        write(key, value ? "true" : "false", false, false);
    }

    /**
     * @param key    record key.
     * @param values printed as {@code [a,b,c]}.
     */
    public void log(final String key, final long[] values)
    {
        final StringBuilder sb = new StringBuilder(values.length * 6 + 2).append('[');
        for (int i = 0; i < values.length; i++)
        {
            if (i > 0)
            {
                sb.append(',');
            }
            sb.append(values[i]);
        }
        write(key, sb.append(']').toString(), false, false);
    }

    /**
     * @param key    record key.
     * @param values printed as {@code {"k":"v",...}} sorted by key.
     */
    public void log(final String key, final Map<String, String> values)
    {
        final StringBuilder sb = new StringBuilder().append('{');
        boolean first = true;
        for (final Map.Entry<String, String> e : new TreeMap<>(values).entrySet())
        {
            if (!first)
            {
                sb.append(',');
            }
            first = false;
            sb.append(quote(e.getKey())).append(':').append(quote(e.getValue()));
        }
        write(key, sb.append('}').toString(), false, false);
    }

    /**
     * Logs an error record ({@code is_error: true}); any error makes the submission checker reject the log.
     *
     * @param key   record key, e.g. {@code error_runtime}.
     * @param value message.
     */
    public void error(final String key, final String value)
    {
        write(key, quote(value), true, false);
    }

    /**
     * Logs a warning record ({@code is_warning: true}).
     *
     * @param key   record key, e.g. {@code warning_generic_message}.
     * @param value message.
     */
    public void warning(final String key, final String value)
    {
        write(key, quote(value), false, true);
    }

    private void write(final String key, final String jsonValue, final boolean isError, final boolean isWarning)
    {
        if (isError)
        {
            errorCount++;
        }
        if (isWarning)
        {
            warningCount++;
        }
        if (closed || (out == null && copy == null))
        {
            return;
        }
        final long nowNs = stampNs != Long.MIN_VALUE ? stampNs : clockNs.getAsLong();
        final StackWalker.StackFrame caller = WALKER.walk(s -> s
            .filter(f -> f.getDeclaringClass() != DetailLog.class)
            .findFirst()
            .orElse(null));
        final String file = caller == null ? "jloadgen" : "jloadgen/" + caller.getFileName();
        final int line = caller == null ? 0 : caller.getLineNumber();

        final StringBuilder sb = new StringBuilder(256 + jsonValue.length());
        sb.append(":::MLLOG {\"key\": ").append(quote(key))
            .append(", \"value\": ").append(jsonValue)
            .append(", \"time_ms\": ");
        appendTimeMs(sb, nowNs - originNs);
        sb.append(NAMESPACE_AND_TYPE).append(isError)
            .append(", \"is_warning\": ").append(isWarning)
            .append(", \"file\": ").append(quote(file))
            .append(", \"line_no\": ").append(line)
            .append(", \"pid\": ").append(pid)
            .append(", \"tid\": ").append(Thread.currentThread().threadId())
            .append("}}\n");
        final String record = sb.toString();
        if (copy != null)
        {
            copy.print(record);
        }
        if (out != null)
        {
            try
            {
                out.write(record);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot write detail log " + temporary, ex);
            }
        }
    }

    /**
     * {@code time_ms} as LoadGen prints it: {@code ns / 1e6} "." {@code ns % 1e6} zero-padded to 6 digits.
     * LoadGen can log records stamped before the origin (config errors); it then prints a negative remainder.
     */
    static void appendTimeMs(final StringBuilder sb, final long deltaNs)
    {
        final long ms = deltaNs / 1_000_000L;
        final long frac = deltaNs % 1_000_000L;
        if (deltaNs < 0 && ms == 0)
        {
            sb.append('-');
        }
        sb.append(ms).append('.');
        final String f = Long.toString(Math.abs(frac));
        for (int i = f.length(); i < 6; i++)
        {
            sb.append('0');
        }
        sb.append(f);
    }

    /**
     * @param s any string.
     * @return the string as a JSON string literal.
     */
    public static String quote(final String s)
    {
        final StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default ->
                {
                    if (c < 0x20)
                    {
                        sb.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /**
     * Flushes and renames the file into place. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (out == null)
        {
            return;
        }
        flusher.close();
        try
        {
            out.close();
            if (flushFailure != null)
            {
                throw flushFailure;
            }
            Files.move(temporary, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot finish detail log " + target + ": " + IoErrors.reason(ex), ex);
        }
    }
}
