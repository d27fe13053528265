package org.jloadgen.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of an {@code mlperf_log_detail.txt} (JLoadGen's or the official LoadGen's) that tools read (the overhead
 * runner, {@code jloadgen report}): each record's key and value text, and the error records. Only the record prefix
 * is parsed (key, then value up to {@code , "time_ms"}), which is all they need; the full grammar is checked by the
 * log tests.
 * The first record of a key wins, as in the submission checker.
 */
public final class DetailLogValues
{
    private static final String PREFIX = ":::MLLOG ";
    private static final Pattern RECORD =
        Pattern.compile("^\\{\"key\": \"((?:[^\"\\\\]|\\\\.)*)\", \"value\": (.*?), \"time_ms\": ");
    private static final DateTimeFormatter POWER_TIME = DateTimeFormatter.ofPattern("MM-dd-yyyy HH:mm:ss.SSS");

    private final Map<String, String> values;
    private final List<String> errors;

    private DetailLogValues(final Map<String, String> values, final List<String> errors)
    {
        this.values = values;
        this.errors = errors;
    }

    /**
     * @param file a detail log.
     * @return its values.
     * @throws UncheckedIOException if it cannot be read.
     * @throws IllegalArgumentException naming the file and line if a line is not an MLLOG record.
     */
    public static DetailLogValues read(final Path file)
    {
        try
        {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read detail log " + file, ex);
        }
    }

    /**
     * @param lines  the log's lines.
     * @param source name for error messages.
     * @return the values.
     * @throws IllegalArgumentException naming the source and line if a line is not an MLLOG record.
     */
    public static DetailLogValues parse(final List<String> lines, final String source)
    {
        final Map<String, String> values = new LinkedHashMap<>();
        final List<String> errors = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            if (line.isBlank())
            {
                continue;
            }
            final Matcher m = line.startsWith(PREFIX) ? RECORD.matcher(line).region(PREFIX.length(), line.length())
                : null;
            if (m == null || !m.lookingAt())
            {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": not an MLLOG record: "
                    + (line.length() > 80 ? line.substring(0, 80) + "..." : line));
            }
            final String key = m.group(1);
            final String value = m.group(2);
            values.putIfAbsent(key, value);
            if (line.contains("\"is_error\": true"))
            {
                errors.add(key + ": " + unquote(value));
            }
        }
        return new DetailLogValues(values, Collections.unmodifiableList(errors));
    }

    /**
     * @return the record keys, in the order of their first record.
     */
    public java.util.Set<String> keys()
    {
        return Collections.unmodifiableSet(values.keySet());
    }

    /**
     * @param key a record key.
     * @return whether the log has it.
     */
    public boolean has(final String key)
    {
        return values.containsKey(key);
    }

    /**
     * @param key a record key.
     * @return its value as written (strings without their quotes).
     * @throws IllegalArgumentException if the log lacks the key.
     */
    public String text(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            throw new IllegalArgumentException("the detail log has no " + key + " record");
        }
        return unquote(v);
    }

    /**
     * @param key a record key with a numeric value ({@code %g} doubles included).
     * @return the value, or empty if the log lacks the key.
     * @throws IllegalArgumentException if the value is not a number.
     */
    public OptionalDouble number(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return OptionalDouble.empty();
        }
        try
        {
            return OptionalDouble.of(Double.parseDouble(v));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(key + " is not a number: " + v, ex);
        }
    }

    /**
     * @return {@code result_validity} is {@code VALID} and no error was logged.
     */
    public boolean valid()
    {
        return has("result_validity") && text("result_validity").equals("VALID") && errors.isEmpty();
    }

    /**
     * @return the error records, as {@code key: value}.
     */
    public List<String> errors()
    {
        return errors;
    }

    /**
     * @return {@code power_end - power_begin} in seconds (start of issuing to the last completion, at millisecond
     *         resolution), or empty if the log lacks them.
     */
    public OptionalDouble powerWindowSeconds()
    {
        if (!has("power_begin") || !has("power_end"))
        {
            return OptionalDouble.empty();
        }
        try
        {
            final long begin = LocalDateTime.parse(text("power_begin"), POWER_TIME).toInstant(ZoneOffset.UTC)
                .toEpochMilli();
            final long end = LocalDateTime.parse(text("power_end"), POWER_TIME).toInstant(ZoneOffset.UTC)
                .toEpochMilli();
            return OptionalDouble.of((end - begin) / 1e3);
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException("bad power_begin/power_end: " + ex.getMessage(), ex);
        }
    }

    private static String unquote(final String value)
    {
        if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"')
        {
            return value.substring(1, value.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        return value;
    }
}
