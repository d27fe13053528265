package org.jloadgen.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.TestScenario;

/**
 * Test-scope reader of {@code mlperf_log_detail.txt} written from the grammar of spec §8.2, for every harness test
 * that checks a detail log. Each line must be {@code :::MLLOG } followed by one JSON object with {@code key},
 * {@code value}, {@code time_ms}, {@code namespace}, {@code event_type} and {@code metadata}; the JSON is parsed by a
 * small strict parser (RFC 8259: no trailing commas, no comments, no NaN/Infinity, escapes checked), because the
 * submission checker parses every line with {@code json.loads}. Duplicate keys resolve to the first occurrence, as
 * in the checker.
 */
public final class MlLogParser
{
    /** Prefix of every line. */
    public static final String PREFIX = ":::MLLOG ";

    /**
     * One record.
     *
     * @param line      1-based line number.
     * @param key       record key.
     * @param value     parsed value: String, Long or BigInteger (integers), Double (other numbers), Boolean,
     *                  List, Map, or {@code null}.
     * @param valueText the value's JSON text exactly as written.
     * @param timeMs    {@code time_ms} as written.
     * @param metadata  the metadata object.
     * @param raw       the whole line.
     */
    public record Record(int line, String key, Object value, String valueText, String timeMs,
        Map<String, Object> metadata, String raw)
    {
        /**
         * @return {@code metadata.is_error}.
         */
        public boolean isError()
        {
            return Boolean.TRUE.equals(metadata.get("is_error"));
        }

        /**
         * @return {@code metadata.is_warning}.
         */
        public boolean isWarning()
        {
            return Boolean.TRUE.equals(metadata.get("is_warning"));
        }
    }

    private final List<Record> records;
    private final Map<String, Record> firstByKey = new LinkedHashMap<>();

    private MlLogParser(final List<Record> records)
    {
        this.records = Collections.unmodifiableList(records);
        for (final Record r : records)
        {
            firstByKey.putIfAbsent(r.key(), r);
        }
    }

    /**
     * @param path a detail log.
     * @return the parsed log.
     * @throws IllegalArgumentException naming the line and column of the first violation.
     */
    public static MlLogParser parse(final Path path)
    {
        try
        {
            return parse(Files.readString(path, StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + path, ex);
        }
    }

    /**
     * @param text the content of a detail log.
     * @return the parsed log.
     * @throws IllegalArgumentException naming the line and column of the first violation.
     */
    public static MlLogParser parse(final String text)
    {
        final List<Record> records = new ArrayList<>();
        int lineNo = 0;
        int start = 0;
        while (start < text.length())
        {
            int end = text.indexOf('\n', start);
            if (end < 0)
            {
                end = text.length();
            }
            lineNo++;
            final String line = text.substring(start, end);
            start = end + 1;
            records.add(parseLine(line, lineNo));
        }
        if (records.isEmpty())
        {
            throw new IllegalArgumentException("empty detail log");
        }
        return new MlLogParser(records);
    }

    /**
     * @param line   one line without its newline.
     * @param lineNo its number, for messages.
     * @return the record.
     */
    public static Record parseLine(final String line, final int lineNo)
    {
        if (!line.startsWith(PREFIX))
        {
            throw new IllegalArgumentException("line " + lineNo + ": does not start with '" + PREFIX + "'");
        }
        final Json json = new Json(line, PREFIX.length(), lineNo);
        final Map<String, Object> object = json.object();
        final Map<String, String> texts = json.topLevelTexts;
        json.end();
        requireType(object, "key", String.class, lineNo);
        requireType(object, "namespace", String.class, lineNo);
        requireType(object, "event_type", String.class, lineNo);
        requireType(object, "metadata", Map.class, lineNo);
        if (!object.containsKey("value"))
        {
            throw new IllegalArgumentException("line " + lineNo + ": no \"value\"");
        }
        if (!(object.get("time_ms") instanceof Number))
        {
            throw new IllegalArgumentException("line " + lineNo + ": \"time_ms\" is not a number");
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> metadata = (Map<String, Object>)object.get("metadata");
        requireType(metadata, "is_error", Boolean.class, lineNo);
        requireType(metadata, "is_warning", Boolean.class, lineNo);
        return new Record(lineNo, (String)object.get("key"), object.get("value"), texts.get("value"),
            texts.get("time_ms"), metadata, line);
    }

    private static void requireType(final Map<String, Object> object, final String name, final Class<?> type,
        final int lineNo)
    {
        final Object v = object.get(name);
        if (!type.isInstance(v))
        {
            throw new IllegalArgumentException("line " + lineNo + ": \"" + name + "\" is "
                + (v == null ? "missing or null" : v.getClass().getSimpleName()) + ", expected "
                    + type.getSimpleName());
        }
    }

    /**
     * @return all records in file order.
     */
    public List<Record> records()
    {
        return records;
    }

    /**
     * @param key a record key.
     * @return its first occurrence (the one the checker uses), or {@code null}.
     */
    public Record first(final String key)
    {
        return firstByKey.get(key);
    }

    /**
     * @param key a record key.
     * @return the value of its first occurrence.
     * @throws IllegalArgumentException if the key is absent.
     */
    public Object value(final String key)
    {
        final Record r = first(key);
        if (r == null)
        {
            throw new IllegalArgumentException("no record \"" + key + "\"");
        }
        return r.value();
    }

    /**
     * @return records with {@code metadata.is_error} true (the checker's {@code num_errors()}).
     */
    public long errorCount()
    {
        return records.stream().filter(Record::isError).count();
    }

    /**
     * @return records with {@code metadata.is_warning} true.
     */
    public long warningCount()
    {
        return records.stream().filter(Record::isWarning).count();
    }

    /**
     * Asserts that every key the submission checker and compliance tools read for a performance log of this
     * scenario is present with the JSON type they expect (spec §8.2, "Keys read by the submission checker").
     *
     * @param scenario          the run's scenario.
     * @param tokenLatencies    whether the run measured token latencies.
     * @param inferredTokens    whether the run inferred token latencies.
     * @throws AssertionError listing every missing or mistyped key.
     */
    public void requireCheckerKeys(final TestScenario scenario, final boolean tokenLatencies,
        final boolean inferredTokens)
    {
        final List<String> problems = new ArrayList<>();
        final Map<String, Kind> expected = new LinkedHashMap<>();
        expected.put("effective_scenario", Kind.STRING);
        expected.put("effective_samples_per_query", Kind.INTEGER);
        expected.put("effective_min_query_count", Kind.INTEGER);
        expected.put("effective_min_duration_ms", Kind.INTEGER);
        expected.put("effective_performance_sample_count", Kind.INTEGER);
        expected.put("effective_accuracy_sample_count", Kind.INTEGER);
        expected.put("effective_qsl_rng_seed", Kind.INTEGER);
        expected.put("effective_sample_index_rng_seed", Kind.INTEGER);
        expected.put("effective_schedule_rng_seed", Kind.INTEGER);
        expected.put("effective_sample_concatenate_permutation", Kind.BOOLEAN);
        expected.put("effective_target_latency_ns", Kind.INTEGER);
        expected.put("qsl_reported_total_count", Kind.INTEGER);
        expected.put("sut_name", Kind.STRING);
        expected.put("result_validity", Kind.STRING);
        expected.put("early_stopping_met", Kind.BOOLEAN);
        expected.put("result_query_count", Kind.INTEGER);
        expected.put("result_mean_latency_ns", Kind.INTEGER);
        expected.put("result_99.00_percentile_latency_ns", Kind.INTEGER);
        expected.put("power_begin", Kind.STRING);
        expected.put("power_end", Kind.STRING);
        if (tokenLatencies)
        {
            expected.put("requested_use_token_latencies", Kind.BOOLEAN);
            expected.put("early_stopping_ttft_result", Kind.STRING);
            expected.put("early_stopping_tpot_result", Kind.STRING);
        }
        else
        {
            expected.put("early_stopping_result", Kind.STRING);
        }
        switch (scenario)
        {
            case SINGLE_STREAM ->
            {
                expected.put("early_stopping_latency_ss", Kind.INTEGER);
                expected.put("early_stopping_latency_ms", Kind.INTEGER);
                expected.put("result_qps_without_loadgen_overhead", Kind.NUMBER);
            }
            case MULTI_STREAM ->
            {
                expected.put("early_stopping_latency_ms", Kind.INTEGER);
                expected.put("result_99.00_percentile_per_query_latency_ns", Kind.INTEGER);
                expected.put("result_mean_query_latency_ns", Kind.INTEGER);
            }
            case SERVER -> expected.put("result_completed_samples_per_sec", Kind.NUMBER);
            case OFFLINE -> expected.put("result_samples_per_second", Kind.NUMBER);
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        if (tokenLatencies)
        {
            if (scenario == TestScenario.OFFLINE)
            {
                expected.put("result_tokens_per_second", Kind.NUMBER);
            }
            else
            {
                expected.put("result_completed_tokens_per_second", Kind.NUMBER);
                expected.put("result_first_token_99.00_percentile_latency_ns", Kind.INTEGER);
                expected.put("result_time_per_output_token_99.00_percentile_ns", Kind.INTEGER);
            }
        }
        if (inferredTokens)
        {
            if (scenario == TestScenario.OFFLINE)
            {
                expected.put("result_inferred_tokens_per_second", Kind.NUMBER);
            }
            else if (scenario == TestScenario.SERVER)
            {
                expected.put("result_inferred_completed_tokens_per_second", Kind.NUMBER);
            }
        }
        for (final Map.Entry<String, Kind> e : expected.entrySet())
        {
            final Record r = first(e.getKey());
            if (r == null)
            {
                problems.add(e.getKey() + ": missing");
            }
            else if (!e.getValue().matches(r.value()))
            {
                problems.add(e.getKey() + ": expected " + e.getValue() + ", got " + r.valueText());
            }
        }
        final Record scenarioRecord = first("effective_scenario");
        if (scenarioRecord != null && !scenario.logName().equals(scenarioRecord.value()))
        {
            problems.add("effective_scenario: expected " + scenario.logName() + ", got " + scenarioRecord.valueText());
        }
        if (!problems.isEmpty())
        {
            throw new AssertionError("detail log fails the checker's key requirements:\n  "
                + String.join("\n  ", problems));
        }
    }

    /** JSON types the checker relies on. */
    private enum Kind
    {
        STRING, INTEGER, NUMBER, BOOLEAN;

        boolean matches(final Object value)
        {
            return switch (this)
            {
                case STRING -> value instanceof String;
                case INTEGER -> value instanceof Long || value instanceof BigInteger;
                case NUMBER -> value instanceof Number;
                case BOOLEAN -> value instanceof Boolean;
            };
        }
    }

    /**
     * A strict recursive-descent JSON parser over one line. Numbers without fraction or exponent become Long (or
     * BigInteger beyond 64 bits); others Double (via BigDecimal, rejecting overflow to infinity).
     */
    private static final class Json
    {
        private final String s;
        private final int lineNo;
        private int at;
        private int depth;
        private final Map<String, String> topLevelTexts = new LinkedHashMap<>();

        Json(final String s, final int start, final int lineNo)
        {
            this.s = s;
            this.at = start;
            this.lineNo = lineNo;
        }

        void end()
        {
            if (at != s.length())
            {
                throw error("trailing characters after the JSON object");
            }
        }

        private IllegalArgumentException error(final String message)
        {
            return new IllegalArgumentException("line " + lineNo + ", column " + (at + 1) + ": " + message);
        }

        private void skipWhitespace()
        {
            while (at < s.length())
            {
                final char c = s.charAt(at);
                if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
                {
                    return;
                }
                at++;
            }
        }

        private void expect(final char c)
        {
            if (at >= s.length() || s.charAt(at) != c)
            {
                throw error("expected '" + c + "'");
            }
            at++;
        }

        Map<String, Object> object()
        {
            skipWhitespace();
            expect('{');
            depth++;
            final Map<String, Object> map = new LinkedHashMap<>();
            skipWhitespace();
            if (at < s.length() && s.charAt(at) == '}')
            {
                at++;
                depth--;
                return map;
            }
            while (true)
            {
                skipWhitespace();
                final String name = string();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                final int valueStart = at;
                final Object value = value();
                if (depth == 1)
                {
                    topLevelTexts.putIfAbsent(name, s.substring(valueStart, at));
                }
                if (!map.containsKey(name))
                {
                    map.put(name, value);
                }
                skipWhitespace();
                if (at < s.length() && s.charAt(at) == ',')
                {
                    at++;
                    continue;
                }
                expect('}');
                depth--;
                return map;
            }
        }

        private List<Object> array()
        {
            expect('[');
            final List<Object> list = new ArrayList<>();
            skipWhitespace();
            if (at < s.length() && s.charAt(at) == ']')
            {
                at++;
                return list;
            }
            while (true)
            {
                skipWhitespace();
                list.add(value());
                skipWhitespace();
                if (at < s.length() && s.charAt(at) == ',')
                {
                    at++;
                    continue;
                }
                expect(']');
                return list;
            }
        }

        private Object value()
        {
            if (at >= s.length())
            {
                throw error("unexpected end of line");
            }
            final char c = s.charAt(at);
            return switch (c)
            {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default ->
                {
                    if (c == '-' || (c >= '0' && c <= '9'))
                    {
                        yield number();
                    }
                    throw error("unexpected character '" + c + "'");
                }
            };
        }

        private Object literal(final String word, final Object value)
        {
            if (!s.startsWith(word, at))
            {
                throw error("expected " + word);
            }
            at += word.length();
            return value;
        }

        private Object number()
        {
            final int start = at;
            if (s.charAt(at) == '-')
            {
                at++;
            }
            if (at >= s.length())
            {
                throw error("bad number");
            }
            if (s.charAt(at) == '0')
            {
                at++;
            }
            else if (s.charAt(at) >= '1' && s.charAt(at) <= '9')
            {
                digits();
            }
            else
            {
                throw error("bad number");
            }
            boolean integral = true;
            if (at < s.length() && s.charAt(at) == '.')
            {
                integral = false;
                at++;
                if (digits() == 0)
                {
                    throw error("digit expected after '.'");
                }
            }
            if (at < s.length() && (s.charAt(at) == 'e' || s.charAt(at) == 'E'))
            {
                integral = false;
                at++;
                if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-'))
                {
                    at++;
                }
                if (digits() == 0)
                {
                    throw error("digit expected in exponent");
                }
            }
            final String text = s.substring(start, at);
            if (integral)
            {
                final BigInteger big = new BigInteger(text);
                return big.bitLength() < 64 ? (Object)big.longValue() : big;
            }
            final double d = new BigDecimal(text).doubleValue();
            if (Double.isInfinite(d))
            {
                throw error("number out of range: " + text);
            }
            return d;
        }

        private int digits()
        {
            final int start = at;
            while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9')
            {
                at++;
            }
            return at - start;
        }

        private String string()
        {
            expect('"');
            final StringBuilder sb = new StringBuilder();
            while (true)
            {
                if (at >= s.length())
                {
                    throw error("unterminated string");
                }
                final char c = s.charAt(at++);
                if (c == '"')
                {
                    return sb.toString();
                }
                if (c < 0x20)
                {
                    throw error("control character in string");
                }
                if (c != '\\')
                {
                    sb.append(c);
                    continue;
                }
                if (at >= s.length())
                {
                    throw error("unterminated escape");
                }
                final char e = s.charAt(at++);
                switch (e)
                {
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case '/' -> sb.append('/');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' ->
                    {
                        if (at + 4 > s.length())
                        {
                            throw error("short \\u escape");
                        }
                        int code = 0;
                        for (int i = 0; i < 4; i++)
                        {
                            final int digit = Character.digit(s.charAt(at++), 16);
                            if (digit < 0)
                            {
                                throw error("bad \\u escape");
                            }
                            code = code * 16 + digit;
                        }
                        sb.append((char)code);
                    }
                    default -> throw error("bad escape '\\" + e + "'");
                }
            }
        }
    }
}
