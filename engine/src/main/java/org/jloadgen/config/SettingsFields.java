package org.jloadgen.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.clib.CFormat;
import org.jloadgen.clib.CNumbers;

/**
 * Every {@link TestSettings} field under its LoadGen field name (the Field column of spec §2.2, from
 * loadgen/test_settings.h, TestSettings, e.g. {@code server_target_qps}, {@code qsl_rng_seed},
 * {@code server_ttft_latency}), with its type, a parser for text values and a formatter. Used by the CLI's {@code --set
 * FIELD=VALUE}, which is applied after the config files, and wherever settings are shown.
 * <p>
 * Values are in the field's own unit (ns, ms, fraction), not the config files' (ms, percent). Accepted text:
 * doubles as C {@code strtod} reads them ({@code 0.99}, {@code 1e6}); unsigned 64-bit integers in decimal
 * (up to 18446744073709551615) or {@code 0x} hex; ints in decimal; booleans {@code true}, {@code false},
 * {@code 1}, {@code 0}; scenarios and modes by log name ({@code Server}, {@code PerformanceOnly}, any case)
 * or LoadGen number.
 */
public final class SettingsFields
{
    /**
     * The type of a field's value.
     */
    public enum Type
    {
        /** IEEE double. */
        DOUBLE("double"),
        /** Unsigned 64-bit integer held in a {@code long}. */
        UNSIGNED_LONG("unsigned 64-bit integer"),
        /** Signed 32-bit integer. */
        INT("int"),
        /** Boolean. */
        BOOLEAN("boolean: true, false, 1 or 0"),
        /** {@link TestScenario}. */
        SCENARIO("scenario: SingleStream, MultiStream, Server, Offline or 0..3"),
        /** {@link TestMode}. */
        MODE("mode: SubmissionRun, AccuracyOnly, PerformanceOnly, FindPeakPerformance or 0..3");

        private final String description;

        Type(final String description)
        {
            this.description = description;
        }

        /**
         * @return what values look like, for messages.
         */
        public String description()
        {
            return description;
        }
    }

    /**
     * One settings field.
     */
    public static final class Field
    {
        private final String name;
        private final Type type;
        private final Function<TestSettings, String> getter;
        private final BiConsumer<TestSettings, String> setter;

        private Field(
            final String name,
            final Type type,
            final Function<TestSettings, String> getter,
            final BiConsumer<TestSettings, String> setter)
        {
            this.name = name;
            this.type = type;
            this.getter = getter;
            this.setter = setter;
        }

        /**
         * @return LoadGen's field name.
         */
        public String name()
        {
            return name;
        }

        /**
         * @return the value type.
         */
        public Type type()
        {
            return type;
        }

        /**
         * @param settings settings to read.
         * @return the value as text that {@link #set} reads back to the same value (doubles with the fewest
         *         {@code %g} digits that round-trip, unsigned integers unsigned, booleans true/false, enums
         *         by log name).
         */
        public String get(final TestSettings settings)
        {
            return getter.apply(settings);
        }

        /**
         * @param settings settings to change.
         * @param value    text of the new value.
         * @throws IllegalArgumentException naming the field, its type and the value when it does not parse.
         */
        public void set(final TestSettings settings, final String value)
        {
            setter.accept(settings, value);
        }

        @Override
        public String toString()
        {
            return name + " (" + type.description() + ")";
        }
    }

    private static final Map<String, Field> FIELDS = fields();

    private SettingsFields()
    {
    }

    private static Map<String, Field> fields()
    {
        final Map<String, Field> m = new LinkedHashMap<>();
        add(m, new Field("scenario", Type.SCENARIO, s -> s.scenario().logName(),
            (s, v) -> s.scenario(parseScenario("scenario", v))));
        add(m, new Field("mode", Type.MODE, s -> s.mode().logName(), (s, v) -> s.mode(parseMode("mode", v))));
        addDouble(m, "single_stream_expected_latency_ns", TestSettings::singleStreamExpectedLatencyNs,
            TestSettings::singleStreamExpectedLatencyNs);
        addDouble(m, "single_stream_target_latency_percentile", TestSettings::singleStreamTargetLatencyPercentile,
            TestSettings::singleStreamTargetLatencyPercentile);
        addDouble(m, "multi_stream_expected_latency_ns", TestSettings::multiStreamExpectedLatencyNs,
            TestSettings::multiStreamExpectedLatencyNs);
        addDouble(m, "multi_stream_target_latency_percentile", TestSettings::multiStreamTargetLatencyPercentile,
            TestSettings::multiStreamTargetLatencyPercentile);
        addUnsigned(m, "multi_stream_samples_per_query", TestSettings::multiStreamSamplesPerQuery,
            TestSettings::multiStreamSamplesPerQuery);
        addDouble(m, "server_target_qps", TestSettings::serverTargetQps, TestSettings::serverTargetQps);
        addUnsigned(m, "server_target_latency_ns", TestSettings::serverTargetLatencyNs,
            TestSettings::serverTargetLatencyNs);
        addDouble(m, "server_target_latency_percentile", TestSettings::serverTargetLatencyPercentile,
            TestSettings::serverTargetLatencyPercentile);
        addBoolean(m, "server_coalesce_queries", TestSettings::serverCoalesceQueries,
            TestSettings::serverCoalesceQueries);
        add(m, new Field("server_find_peak_qps_decimals_of_precision", Type.INT,
            s -> Integer.toString(s.serverFindPeakQpsDecimalsOfPrecision()),
            (s, v) -> s.serverFindPeakQpsDecimalsOfPrecision(
                parseInt("server_find_peak_qps_decimals_of_precision", v))));
        addDouble(m, "server_find_peak_qps_boundary_step_size", TestSettings::serverFindPeakQpsBoundaryStepSize,
            TestSettings::serverFindPeakQpsBoundaryStepSize);
        addUnsigned(m, "server_max_async_queries", TestSettings::serverMaxAsyncQueries,
            TestSettings::serverMaxAsyncQueries);
        addUnsigned(m, "server_num_issue_query_threads", TestSettings::serverNumIssueQueryThreads,
            TestSettings::serverNumIssueQueryThreads);
        addDouble(m, "offline_expected_qps", TestSettings::offlineExpectedQps, TestSettings::offlineExpectedQps);
        addBoolean(m, "sample_concatenate_permutation", TestSettings::sampleConcatenatePermutation,
            TestSettings::sampleConcatenatePermutation);
        addUnsigned(m, "min_duration_ms", TestSettings::minDurationMs, TestSettings::minDurationMs);
        addUnsigned(m, "max_duration_ms", TestSettings::maxDurationMs, TestSettings::maxDurationMs);
        addUnsigned(m, "min_query_count", TestSettings::minQueryCount, TestSettings::minQueryCount);
        addUnsigned(m, "max_query_count", TestSettings::maxQueryCount, TestSettings::maxQueryCount);
        addUnsigned(m, "qsl_rng_seed", TestSettings::qslRngSeed, TestSettings::qslRngSeed);
        addUnsigned(m, "sample_index_rng_seed", TestSettings::sampleIndexRngSeed, TestSettings::sampleIndexRngSeed);
        addUnsigned(m, "schedule_rng_seed", TestSettings::scheduleRngSeed, TestSettings::scheduleRngSeed);
        addUnsigned(m, "accuracy_log_rng_seed", TestSettings::accuracyLogRngSeed, TestSettings::accuracyLogRngSeed);
        addDouble(m, "accuracy_log_probability", TestSettings::accuracyLogProbability,
            TestSettings::accuracyLogProbability);
        addUnsigned(m, "accuracy_log_sampling_target", TestSettings::accuracyLogSamplingTarget,
            TestSettings::accuracyLogSamplingTarget);
        addBoolean(m, "test05", TestSettings::test05, TestSettings::test05);
        addUnsigned(m, "test05_qsl_rng_seed", TestSettings::test05QslRngSeed, TestSettings::test05QslRngSeed);
        addUnsigned(m, "test05_sample_index_rng_seed", TestSettings::test05SampleIndexRngSeed,
            TestSettings::test05SampleIndexRngSeed);
        addUnsigned(m, "test05_schedule_rng_seed", TestSettings::test05ScheduleRngSeed,
            TestSettings::test05ScheduleRngSeed);
        addBoolean(m, "print_timestamps", TestSettings::printTimestamps, TestSettings::printTimestamps);
        addBoolean(m, "performance_issue_unique", TestSettings::performanceIssueUnique,
            TestSettings::performanceIssueUnique);
        addBoolean(m, "performance_issue_same", TestSettings::performanceIssueSame, TestSettings::performanceIssueSame);
        addUnsigned(m, "performance_issue_same_index", TestSettings::performanceIssueSameIndex,
            TestSettings::performanceIssueSameIndex);
        addUnsigned(m, "performance_sample_count_override", TestSettings::performanceSampleCountOverride,
            TestSettings::performanceSampleCountOverride);
        addUnsigned(m, "accuracy_sample_count_override", TestSettings::accuracySampleCountOverride,
            TestSettings::accuracySampleCountOverride);
        addBoolean(m, "use_token_latencies", TestSettings::useTokenLatencies, TestSettings::useTokenLatencies);
        addUnsigned(m, "server_ttft_latency", TestSettings::serverTtftLatencyNs, TestSettings::serverTtftLatencyNs);
        addUnsigned(m, "server_tpot_latency", TestSettings::serverTpotLatencyNs, TestSettings::serverTpotLatencyNs);
        addBoolean(m, "infer_token_latencies", TestSettings::inferTokenLatencies, TestSettings::inferTokenLatencies);
        addUnsigned(m, "token_latency_scaling_factor", TestSettings::tokenLatencyScalingFactor,
            TestSettings::tokenLatencyScalingFactor);
        return Collections.unmodifiableMap(m);
    }

    private interface DoubleGetter
    {
        double get(TestSettings settings);
    }

    private interface DoubleSetter
    {
        TestSettings set(TestSettings settings, double value);
    }

    private interface LongGetter
    {
        long get(TestSettings settings);
    }

    private interface LongSetter
    {
        TestSettings set(TestSettings settings, long value);
    }

    private interface BooleanGetter
    {
        boolean get(TestSettings settings);
    }

    private interface BooleanSetter
    {
        TestSettings set(TestSettings settings, boolean value);
    }

    private static void add(final Map<String, Field> m, final Field field)
    {
        m.put(field.name(), field);
    }

    private static void addDouble(
        final Map<String, Field> m, final String name, final DoubleGetter getter, final DoubleSetter setter)
    {
        add(m, new Field(name, Type.DOUBLE, s -> formatDouble(getter.get(s)),
            (s, v) -> setter.set(s, parseDouble(name, v))));
    }

    private static void addUnsigned(
        final Map<String, Field> m, final String name, final LongGetter getter, final LongSetter setter)
    {
        add(m, new Field(name, Type.UNSIGNED_LONG, s -> Long.toUnsignedString(getter.get(s)),
            (s, v) -> setter.set(s, parseUnsigned(name, v))));
    }

    private static void addBoolean(
        final Map<String, Field> m, final String name, final BooleanGetter getter, final BooleanSetter setter)
    {
        add(m, new Field(name, Type.BOOLEAN, s -> Boolean.toString(getter.get(s)),
            (s, v) -> setter.set(s, parseBoolean(name, v))));
    }

    /**
     * @return every field, in LoadGen's TestSettings declaration order.
     */
    public static Collection<Field> all()
    {
        return FIELDS.values();
    }

    /**
     * @param name LoadGen field name.
     * @return the field.
     * @throws IllegalArgumentException for an unknown name, listing close names.
     */
    public static Field field(final String name)
    {
        final Field f = FIELDS.get(name);
        if (f == null)
        {
            final List<String> close = closest(name, FIELDS.keySet());
            throw new IllegalArgumentException("unknown settings field '" + name + "'"
                + (close.isEmpty() ? "" : " (did you mean " + String.join(" or ", close) + "?)"));
        }
        return f;
    }

    /**
     * Applies one {@code FIELD=VALUE} assignment ({@code --set}).
     *
     * @param settings   settings to change.
     * @param assignment {@code name=value}; white space around either part is ignored.
     * @throws IllegalArgumentException for a missing {@code =}, an unknown field or a bad value.
     */
    public static void set(final TestSettings settings, final String assignment)
    {
        final int eq = assignment.indexOf('=');
        if (eq < 0)
        {
            throw new IllegalArgumentException("expected FIELD=VALUE, got '" + assignment + "'");
        }
        set(settings, assignment.substring(0, eq).trim(), assignment.substring(eq + 1));
    }

    /**
     * @param settings settings to change.
     * @param name     LoadGen field name.
     * @param value    text of the value.
     * @throws IllegalArgumentException for an unknown field or a bad value.
     */
    public static void set(final TestSettings settings, final String name, final String value)
    {
        field(name).set(settings, value.trim());
    }

    /**
     * @param settings settings to read.
     * @param name     LoadGen field name.
     * @return the value as text (see {@link Field#get}).
     * @throws IllegalArgumentException for an unknown field.
     */
    public static String get(final TestSettings settings, final String name)
    {
        return field(name).get(settings);
    }

    /**
     * @param settings settings to read.
     * @return every field name with its value as text, in declaration order.
     */
    public static Map<String, String> snapshot(final TestSettings settings)
    {
        final Map<String, String> m = new LinkedHashMap<>();
        for (final Field f : FIELDS.values())
        {
            m.put(f.name(), f.get(settings));
        }
        return m;
    }

    /**
     * @param value a double.
     * @return C {@code %g} text with the fewest significant digits (at least 6) that reads back exactly.
     */
    static String formatDouble(final double value)
    {
        for (int precision = 6; precision < 17; precision++)
        {
            final String text = CFormat.g(value, precision);
            final double back = CNumbers.strtod(text);
            if (Double.compare(back, value) == 0 || (back == 0.0 && value == 0.0))
            {
                return text;
            }
        }
        return CFormat.g(value, 17);
    }

    private static double parseDouble(final String name, final String text)
    {
        if (!text.isEmpty() && CNumbers.strtodEnd(text, 0) == text.length() && !CNumbers.isCSpace(text.charAt(0)))
        {
            return CNumbers.strtod(text);
        }
        throw badValue(name, Type.DOUBLE, text);
    }

    private static long parseUnsigned(final String name, final String text)
    {
        try
        {
            if (text.startsWith("0x") || text.startsWith("0X"))
            {
                return Long.parseUnsignedLong(text.substring(2), 16);
            }
            if (!text.isEmpty() && Character.isDigit(text.charAt(0)))
            {
                return Long.parseUnsignedLong(text);
            }
        }
        catch (final NumberFormatException ex)
        {
            // Falls through to the message that names the field.
        }
        throw badValue(name, Type.UNSIGNED_LONG, text);
    }

    private static int parseInt(final String name, final String text)
    {
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw badValue(name, Type.INT, text);
        }
    }

    private static boolean parseBoolean(final String name, final String text)
    {
        return switch (text.toLowerCase(Locale.ROOT))
        {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw badValue(name, Type.BOOLEAN, text);
        };
    }

    private static TestScenario parseScenario(final String name, final String text)
    {
        for (final TestScenario s : TestScenario.values())
        {
            if (s.logName().equalsIgnoreCase(text) || Integer.toString(s.code()).equals(text))
            {
                return s;
            }
        }
        throw badValue(name, Type.SCENARIO, text);
    }

    private static TestMode parseMode(final String name, final String text)
    {
        for (final TestMode m : TestMode.values())
        {
            if (m.logName().equalsIgnoreCase(text) || Integer.toString(m.code()).equals(text))
            {
                return m;
            }
        }
        throw badValue(name, Type.MODE, text);
    }

    private static IllegalArgumentException badValue(final String name, final Type type, final String text)
    {
        return new IllegalArgumentException(
            "invalid value '" + text + "' for settings field " + name + " (" + type.description() + ")");
    }

    /**
     * Close spellings of a mistyped name: edit distance at most a third of its length (at least 2), or one
     * name containing the other. Hand-written: none of the project's libraries has an edit distance.
     *
     * @param name       the unknown name.
     * @param candidates known names.
     * @return at most three candidates, closest first.
     */
    static List<String> closest(final String name, final Collection<String> candidates)
    {
        final int limit = Math.max(2, name.length() / 3);
        final List<Map.Entry<String, Integer>> scored = new ArrayList<>();
        for (final String c : candidates)
        {
            final int d = editDistance(name, c);
            final boolean contains = name.length() >= 4 && (c.contains(name) || name.contains(c));
            if (d <= limit || contains)
            {
                scored.add(Map.entry(c, d));
            }
        }
        scored.sort(Comparator.<Map.Entry<String, Integer>>comparingInt(Map.Entry::getValue)
            .thenComparing(Map.Entry::getKey));
        final List<String> result = new ArrayList<>(3);
        for (int i = 0; i < scored.size() && i < 3; i++)
        {
            result.add(scored.get(i).getKey());
        }
        return result;
    }

    /** Damerau (optimal string alignment) distance, so a swapped pair like "qsp"/"qps" costs 1. */
    static int editDistance(final String a, final String b)
    {
        final int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++)
        {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++)
        {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            for (int j = 1; j <= b.length(); j++)
            {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}
