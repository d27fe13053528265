package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.config.SettingsFields;
import org.jloadgen.config.SettingsLoader;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsLogTest
{
    private static final Pattern RECORD = Pattern.compile(
        "^:::MLLOG \\{\"key\": \"([^\"]+)\", \"value\": (.*), \"time_ms\": (-?[0-9]+\\.[0-9]{6}), "
            + "\"namespace\": \"mlperf::logging\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": "
            + "\\{\"is_error\": (true|false), \"is_warning\": (true|false), .*\\}\\}$");

    @TempDir
    Path dir;

    /** One detail-log record, without the metadata the comparison ignores. */
    private record Rec(String key, String value, String timeMs, boolean isError)
    {
    }

    private static List<Rec> records(final Path detail) throws IOException
    {
        final List<Rec> out = new ArrayList<>();
        for (final String line : Files.readAllLines(detail))
        {
            final Matcher m = RECORD.matcher(line);
            assertTrue(m.matches(), line);
            out.add(new Rec(m.group(1), m.group(2), m.group(3), Boolean.parseBoolean(m.group(4))));
        }
        return out;
    }

    private static List<Rec> settingsRecords(final List<Rec> all)
    {
        return all.stream().filter(r -> r.key().startsWith("requested_") || r.key().startsWith("effective_")).toList();
    }

    private static String value(final List<Rec> all, final String key)
    {
        return all.stream().filter(r -> r.key().equals(key)).findFirst().orElseThrow().value();
    }

    private static String unquote(final String json)
    {
        return json.startsWith("\"") ? json.substring(1, json.length() - 1) : json;
    }

    private List<Rec> logWith(final java.util.function.Consumer<DetailLog> body) throws IOException
    {
        final long[] now = {5_000_000};
        final LongSupplier clock = () -> now[0] += 1_000;
        final Path file = dir.resolve("detail-" + System.nanoTime() + ".txt");
        try (DetailLog log = new DetailLog(file, null, clock))
        {
            body.accept(log);
        }
        return records(file);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SingleStream", "MultiStream", "Server", "Offline", "Accuracy-SingleStream"})
    void shouldLogRequestedAndEffectiveSettingsLikeOfficialLoadGen(final String example) throws IOException
    {
        final List<Rec> official = records(SharedData.data("example-logs/" + example + "/mlperf_log_detail.txt"));
        final List<Rec> expected = settingsRecords(official);

        // Rebuild the settings the run used from its requested_* lines.
        final TestSettings requested = new TestSettings();
        for (final Rec r : expected)
        {
            if (r.key().startsWith("requested_"))
            {
                final String name = r.key().substring("requested_".length());
                SettingsFields.set(requested, name.equals("test_mode") ? "mode" : name, unquote(r.value()));
            }
        }
        final EffectiveSettings effective = new EffectiveSettings(requested,
            Long.parseLong(value(official, "qsl_reported_total_count")),
            Long.parseLong(value(official, "qsl_reported_performance_count")));

        final List<Rec> ours = logWith(log -> SettingsLog.logAll(log, requested, effective));
        assertEquals(expected.stream().map(r -> r.key() + "=" + r.value()).toList(),
            ours.stream().map(r -> r.key() + "=" + r.value()).toList());

        // One timestamp per group, as in LoadGen's logs.
        for (final List<Rec> log : List.of(expected, ours))
        {
            final List<String> requestedTimes = log.stream().filter(r -> r.key().startsWith("requested_"))
                .map(Rec::timeMs).distinct().toList();
            final List<String> effectiveTimes = log.stream().filter(r -> r.key().startsWith("effective_"))
                .map(Rec::timeMs).distinct().toList();
            assertEquals(1, requestedTimes.size());
            assertEquals(1, effectiveTimes.size());
            assertNotEquals(requestedTimes, effectiveTimes);
        }
    }

    @Test
    void shouldLogTokenKeysOnlyWithTokenLatenciesAndTtftTpotOnlyOutsideOffline() throws IOException
    {
        final TestSettings server = new TestSettings().scenario(TestScenario.SERVER).useTokenLatencies(true)
            .serverTtftLatencyNs(2_000_000_000L).serverTpotLatencyNs(200_000_000L);
        final List<Rec> s = logWith(log -> SettingsLog.logRequested(log, server));
        assertEquals(List.of("requested_sample_concatenate_permutation=false", "requested_use_token_latencies=true",
            "requested_server_ttft_latency=2000000000", "requested_server_tpot_latency=200000000"),
            s.subList(s.size() - 4, s.size()).stream().map(r -> r.key() + "=" + r.value()).toList());

        final TestSettings offline = server.copy().scenario(TestScenario.OFFLINE);
        final List<Rec> o = logWith(log -> SettingsLog.logRequested(log, offline));
        assertEquals("requested_use_token_latencies", o.get(o.size() - 1).key());
        assertEquals("requested_offline_expected_qps", o.get(2).key());

        final List<Rec> none = logWith(log -> SettingsLog.logRequested(log, new TestSettings()));
        assertEquals("requested_sample_concatenate_permutation", none.get(none.size() - 1).key());
        assertEquals(21, none.size());
    }

    @Test
    void shouldLogSeedsUnsignedAndDurationsSigned() throws IOException
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER)
            .scheduleRngSeed(Long.parseUnsignedLong("16159082839903944936")).maxDurationMs(-1L);
        final EffectiveSettings e = new EffectiveSettings(s, 10, 10);
        final List<Rec> recs = logWith(log -> SettingsLog.logAll(log, s, e));
        assertEquals("16159082839903944936", value(recs, "requested_schedule_rng_seed"));
        assertEquals("16159082839903944936", value(recs, "effective_schedule_rng_seed"));
        assertEquals("18446744073709551615", value(recs, "requested_max_duration_ms"));
        // std::chrono::milliseconds holds a signed count.
        assertEquals("-1", value(recs, "effective_max_duration_ms"));
        assertEquals("\"Server\"", value(recs, "effective_scenario"));
    }

    @Test
    void shouldLogSettingsErrorsBeforeRequestedSettings() throws IOException
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(-5)
            .performanceIssueSame(true).performanceIssueSameIndex(7);
        final EffectiveSettings e = new EffectiveSettings(s, 4, 4);
        final List<Rec> recs = logWith(log -> SettingsLog.logAll(log, s, e));
        assertEquals(new Rec("error_invalid_test_settings",
            "\"Invalid value for server_target_qps requested. requested: -5 using: 1\"", recs.get(0).timeMs(), true),
            recs.get(0));
        assertEquals(new Rec("error_invalid_test_settings", "\"Sample Idx to be repeated in performance_issue_same "
            + "mode cannot be greater than loaded performance_sample_count. performance_issue_same_index: 7 "
            + "performance_sample_count: 4\"", recs.get(1).timeMs(), true), recs.get(1));
        assertEquals("requested_scenario", recs.get(2).key());
    }

    @Test
    void shouldLogConfigErrorsAsErrorRecords() throws IOException
    {
        final List<Rec> recs = logWith(log -> SettingsLog.logConfigErrors(log,
            List.of(SettingsLoader.MULTIPLE_CONF_FILES, "value needs to be integer or double, line=3")));
        assertEquals(List.of(
            new Rec("error_invalid_config", "\"" + SettingsLoader.MULTIPLE_CONF_FILES + "\"", recs.get(0).timeMs(),
                true),
            new Rec("error_invalid_config", "\"value needs to be integer or double, line=3\"", recs.get(1).timeMs(),
                true)), recs);
    }
}
