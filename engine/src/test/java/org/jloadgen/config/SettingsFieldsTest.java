package org.jloadgen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingsFieldsTest
{
    @Test
    void shouldCoverEveryTestSettingsField()
    {
        final long instanceFields = Arrays.stream(TestSettings.class.getDeclaredFields())
            .filter(f -> !Modifier.isStatic(f.getModifiers())).count();
        assertEquals(instanceFields, SettingsFields.all().size());
        assertEquals(42, SettingsFields.all().size());
    }

    @Test
    void shouldReadDefaultsAsText()
    {
        final TestSettings s = new TestSettings();
        assertEquals("SingleStream", SettingsFields.get(s, "scenario"));
        assertEquals("PerformanceOnly", SettingsFields.get(s, "mode"));
        assertEquals("1e+06", SettingsFields.get(s, "single_stream_expected_latency_ns"));
        assertEquals("0.9", SettingsFields.get(s, "single_stream_target_latency_percentile"));
        assertEquals("100000000", SettingsFields.get(s, "server_target_latency_ns"));
        assertEquals("false", SettingsFields.get(s, "server_coalesce_queries"));
        assertEquals("1", SettingsFields.get(s, "server_find_peak_qps_decimals_of_precision"));
        assertEquals("100000000", SettingsFields.get(s, "server_ttft_latency"));
    }

    @Test
    void shouldRoundTripEveryFieldThroughText()
    {
        final TestSettings s = new TestSettings();
        SettingsFields.set(s, "server_target_qps=12345.678901234");
        SettingsFields.set(s, "single_stream_target_latency_percentile=0.999");
        SettingsFields.set(s, "offline_expected_qps=0.1");
        SettingsFields.set(s, "schedule_rng_seed=16159082839903944936");
        SettingsFields.set(s, "use_token_latencies=1");
        final TestSettings copy = new TestSettings();
        for (final SettingsFields.Field f : SettingsFields.all())
        {
            f.set(copy, f.get(s));
        }
        assertEquals(SettingsFields.snapshot(s), SettingsFields.snapshot(copy));
        assertEquals(12345.678901234, copy.serverTargetQps());
        assertEquals(0.1, copy.offlineExpectedQps());
        assertEquals("12345.678901234", SettingsFields.get(s, "server_target_qps"));
        assertEquals("0.999", SettingsFields.get(s, "single_stream_target_latency_percentile"));
    }

    @Test
    void shouldParseUnsignedAboveInt64Max()
    {
        final TestSettings s = new TestSettings();
        SettingsFields.set(s, "qsl_rng_seed", "18446744073709551615");
        assertEquals(-1L, s.qslRngSeed());
        SettingsFields.set(s, "min_query_count", "0x10");
        assertEquals(16, s.minQueryCount());
        assertEquals("18446744073709551615", SettingsFields.get(s, "qsl_rng_seed"));
    }

    @ParameterizedTest
    @CsvSource({"Server,SERVER", "server,SERVER", "2,SERVER", "Offline,OFFLINE", "0,SINGLE_STREAM",
        "MultiStream,MULTI_STREAM"})
    void shouldParseScenarioByLogNameOrNumber(final String text, final TestScenario expected)
    {
        final TestSettings s = new TestSettings();
        SettingsFields.set(s, "scenario=" + text);
        assertEquals(expected, s.scenario());
    }

    @ParameterizedTest
    @CsvSource({"AccuracyOnly,ACCURACY_ONLY", "3,FIND_PEAK_PERFORMANCE", "submissionrun,SUBMISSION_RUN"})
    void shouldParseModeByLogNameOrNumber(final String text, final TestMode expected)
    {
        final TestSettings s = new TestSettings();
        SettingsFields.set(s, "mode", text);
        assertEquals(expected, s.mode());
    }

    @ParameterizedTest
    @CsvSource({"true,true", "false,false", "1,true", "0,false", "TRUE,true"})
    void shouldParseBooleans(final String text, final boolean expected)
    {
        final TestSettings s = new TestSettings();
        SettingsFields.set(s, " print_timestamps = " + text);
        assertEquals(expected, s.printTimestamps());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "min_query_count|-1|unsigned 64-bit integer", "min_query_count|1.5|unsigned 64-bit integer",
        "min_query_count|18446744073709551616|unsigned 64-bit integer", "min_query_count|''|unsigned 64-bit integer",
        "server_target_qps|fast|double", "server_target_qps|1d|double", "print_timestamps|yes|boolean",
        "server_find_peak_qps_decimals_of_precision|2147483648|int", "scenario|Interactive|scenario",
        "mode|4|mode"})
    void shouldRejectBadValuesNamingFieldAndValue(final String field, final String value, final String type)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> SettingsFields.set(new TestSettings(), field, value));
        assertTrue(ex.getMessage().contains("'" + value + "'"), ex.getMessage());
        assertTrue(ex.getMessage().contains(field + " (" + type), ex.getMessage());
    }

    @Test
    void shouldSuggestCloseFieldNamesForTypos()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> SettingsFields.set(new TestSettings(), "server_target_qsp=5"));
        assertEquals("unknown settings field 'server_target_qsp' (did you mean server_target_qps?)", ex.getMessage());
        assertEquals(List.of("server_ttft_latency"), SettingsFields.closest("ttft_latency",
            SettingsFields.all().stream().map(SettingsFields.Field::name).toList()));
        assertEquals("unknown settings field 'zzz'",
            assertThrows(IllegalArgumentException.class, () -> SettingsFields.field("zzz")).getMessage());
    }

    @Test
    void shouldRejectAssignmentWithoutEquals()
    {
        assertEquals("expected FIELD=VALUE, got 'min_query_count'", assertThrows(IllegalArgumentException.class,
            () -> SettingsFields.set(new TestSettings(), "min_query_count")).getMessage());
    }

    @Test
    void shouldMeasureEditDistanceWithTranspositions()
    {
        assertEquals(1, SettingsFields.editDistance("qsp", "qps"));
        assertEquals(3, SettingsFields.editDistance("kitten", "sitting"));
        assertEquals(0, SettingsFields.editDistance("", ""));
    }

    @Test
    void shouldNameFieldsLikeLoadGen()
    {
        // Spot checks against spec §2.2's Field column.
        for (final String name : List.of("server_target_qps", "min_query_count", "qsl_rng_seed", "server_ttft_latency",
            "server_tpot_latency", "token_latency_scaling_factor", "accuracy_sample_count_override",
            "server_num_issue_query_threads", "test05_sample_index_rng_seed"))
        {
            assertEquals(name, SettingsFields.field(name).name());
        }
    }
}
