package org.jloadgen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.clib.CNumbers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The official files of {@code shared/data} parse unchanged, without warnings, and set what they should; the
 * built-in defaults are equivalent to the official mlperf.conf.
 */
class OfficialFilesTest
{
    private static final long OFFICIAL_QSL_SEED = 2085463073848966840L;
    private static final long OFFICIAL_SAMPLE_SEED = 2747215439041700203L;
    private static final long OFFICIAL_SCHEDULE_SEED = Long.parseUnsignedLong("16159082839903944936");

    private static ConfigFile official(final String name)
    {
        final ConfigFile f = ConfigFile.read(SharedData.data(name));
        assertFalse(f.hasErrors(), () -> f.errors().toString());
        return f;
    }

    private static TestSettings applied(final ConfigFile f, final String model, final TestScenario scenario,
        final ConfType type, final TestSettings start)
    {
        final TestSettings s = start.copy().scenario(scenario);
        final List<ConfigDiagnostic> errors = f.applyTo(s, model, scenario, type);
        assertTrue(errors.isEmpty(), errors::toString);
        return s;
    }

    @Test
    void shouldParseOfficialFilesWithoutErrorsOrWarnings()
    {
        assertTrue(official("mlperf.conf").check(ConfType.MLPERF).isEmpty(),
            () -> official("mlperf.conf").check(ConfType.MLPERF).toString());
        assertTrue(official("user.conf.bert-example").check(ConfType.USER).isEmpty());
        for (final String test : List.of("TEST01-resnet50", "TEST04", "TEST06"))
        {
            final List<ConfigDiagnostic> found = official("audit/" + test + "/audit.config").check(ConfType.AUDIT);
            assertTrue(found.stream().allMatch(d -> d.severity() == ConfigDiagnostic.Severity.NOTE), found::toString);
        }
        assertTrue(ConfigFile.builtinMlperfConf().check(ConfType.MLPERF).isEmpty(),
            () -> ConfigFile.builtinMlperfConf().check(ConfType.MLPERF).toString());
        assertFalse(ConfigFile.builtinMlperfConf().hasErrors());
    }

    @Test
    void shouldSetResnet50FromOfficialMlperfConf()
    {
        final ConfigFile f = official("mlperf.conf");
        final TestSettings offline = applied(f, "resnet50", TestScenario.OFFLINE, ConfType.MLPERF, new TestSettings());
        assertEquals(24576, offline.minQueryCount());
        assertEquals(1024, offline.performanceSampleCountOverride());
        assertEquals(600_000, offline.minDurationMs());
        assertEquals(1.0, offline.offlineExpectedQps());
        assertEquals(OFFICIAL_QSL_SEED, offline.qslRngSeed());
        assertEquals(OFFICIAL_SAMPLE_SEED, offline.sampleIndexRngSeed());
        assertEquals(OFFICIAL_SCHEDULE_SEED, offline.scheduleRngSeed());
        assertEquals(Long.parseUnsignedLong("11403566307062068064"), offline.test05SampleIndexRngSeed());
        assertFalse(offline.sampleConcatenatePermutation());

        final TestSettings server = applied(f, "resnet50", TestScenario.SERVER, ConfType.MLPERF, new TestSettings());
        assertEquals(15_000_000L, server.serverTargetLatencyNs());
        assertEquals(0.99, server.serverTargetLatencyPercentile());
        assertEquals(100, server.minQueryCount(), "no Server min_query_count in mlperf.conf");

        final TestSettings multi = applied(f, "resnet50", TestScenario.MULTI_STREAM, ConfType.MLPERF,
            new TestSettings());
        assertEquals(662, multi.minQueryCount());
        assertEquals(8, multi.multiStreamSamplesPerQuery());
        assertEquals(80_000_000.0, multi.multiStreamExpectedLatencyNs());
        assertEquals(10_000_000.0, multi.singleStreamExpectedLatencyNs());
    }

    @Test
    void shouldSetModelSpecificValuesFromOfficialMlperfConf()
    {
        final ConfigFile f = official("mlperf.conf");
        final TestSettings llama = applied(f, "llama2-70b", TestScenario.SERVER, ConfType.MLPERF, new TestSettings());
        assertTrue(llama.useTokenLatencies());
        assertTrue(llama.sampleConcatenatePermutation());
        assertEquals(0, llama.serverTargetLatencyNs());
        assertEquals(2_000_000_000L, llama.serverTtftLatencyNs());
        assertEquals(200_000_000L, llama.serverTpotLatencyNs());
        assertEquals(24576, llama.performanceSampleCountOverride());

        final TestSettings interactive = applied(f, "llama2-70b-interactive", TestScenario.SERVER, ConfType.MLPERF,
            new TestSettings());
        assertEquals(450_000_000L, interactive.serverTtftLatencyNs());
        assertEquals(40_000_000L, interactive.serverTpotLatencyNs());

        final TestSettings gptj = applied(f, "gptj", TestScenario.OFFLINE, ConfType.MLPERF, new TestSettings());
        assertTrue(gptj.inferTokenLatencies());
        assertEquals(69, gptj.tokenLatencyScalingFactor());
        assertEquals(20_000_000_000L, gptj.serverTargetLatencyNs());
        assertEquals(13368, gptj.minQueryCount());

        final TestSettings pp = applied(f, "pointpainting", TestScenario.SINGLE_STREAM, ConfType.MLPERF,
            new TestSettings());
        assertEquals(99.9 * 0.01, pp.singleStreamTargetLatencyPercentile());

        final TestSettings unet = applied(f, "3d-unet", TestScenario.OFFLINE, ConfType.MLPERF, new TestSettings());
        assertEquals(0, unet.performanceSampleCountOverride());
        assertTrue(unet.sampleConcatenatePermutation());
        assertEquals(43, unet.minQueryCount());

        final TestSettings oss = applied(f, "gpt-oss-120b", TestScenario.OFFLINE, ConfType.MLPERF, new TestSettings());
        assertEquals(4395, oss.accuracySampleCountOverride());
        assertEquals(6396, oss.performanceSampleCountOverride());
    }

    @Test
    void shouldApplyBertExampleUserConf()
    {
        final ConfigFile f = official("user.conf.bert-example");
        final TestSettings s = applied(f, "bert", TestScenario.OFFLINE, ConfType.USER, new TestSettings());
        assertEquals(32.0, s.offlineExpectedQps());
        assertEquals(1.0, s.serverTargetQps());
        assertEquals(10_000_000.0, s.singleStreamExpectedLatencyNs());
        assertEquals(80_000_000.0, s.multiStreamExpectedLatencyNs());
    }

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldApplyTest04AuditConfigForEveryScenarioIgnoringModelLines(final TestScenario scenario)
    {
        final TestSettings start = applied(official("mlperf.conf"), "stable-diffusion-xl", scenario, ConfType.MLPERF,
            new TestSettings());
        final TestSettings s = applied(official("audit/TEST04/audit.config"), "*", scenario, ConfType.AUDIT, start);
        assertEquals(TestMode.PERFORMANCE_ONLY, s.mode());
        assertFalse(s.performanceIssueUnique());
        assertTrue(s.performanceIssueSame());
        assertEquals(3, s.performanceIssueSameIndex());
        // stable-diffusion-xl.Offline.min_query_count = 500 is ignored: LoadGen reads audit.config as model "*".
        assertEquals(start.minQueryCount(), s.minQueryCount());
        assertEquals(OFFICIAL_SCHEDULE_SEED, s.scheduleRngSeed());
    }

    @Test
    void shouldApplyTest01AndTest06AuditConfigs()
    {
        final TestSettings t1 = applied(official("audit/TEST01-resnet50/audit.config"), "*", TestScenario.OFFLINE,
            ConfType.AUDIT, new TestSettings().mode(TestMode.SUBMISSION_RUN));
        assertEquals(TestMode.PERFORMANCE_ONLY, t1.mode());
        assertEquals(720381539243781796L, t1.accuracyLogRngSeed());
        assertEquals(4096, t1.accuracyLogSamplingTarget());

        final TestSettings start = applied(official("mlperf.conf"), "llama2-70b", TestScenario.SERVER, ConfType.MLPERF,
            new TestSettings());
        final TestSettings t6 = applied(official("audit/TEST06/audit.config"), "*", TestScenario.SERVER,
            ConfType.AUDIT, start);
        assertEquals(TestMode.PERFORMANCE_ONLY, t6.mode());
        assertEquals(100, t6.accuracyLogSamplingTarget());
        assertEquals(100, t6.minQueryCount());
        assertEquals(0, t6.minDurationMs());
        assertFalse(t6.sampleConcatenatePermutation());
        assertEquals(OFFICIAL_QSL_SEED, t6.qslRngSeed());
    }

    /** Every model the official file names, one it does not, and the audit wildcard. */
    private static List<String> officialModels()
    {
        final TreeSet<String> models = new TreeSet<>();
        for (final String key : official("mlperf.conf").entries().keySet())
        {
            models.add(key.substring(0, key.indexOf('.')));
        }
        models.add("some-future-model");
        return new ArrayList<>(models);
    }

    /** Every field set away from its default, with both token switches on so the conditional keys are read. */
    private static TestSettings perturbed()
    {
        final TestSettings s = new TestSettings();
        for (final SettingsFields.Field f : SettingsFields.all())
        {
            switch (f.type())
            {
                case DOUBLE -> f.set(s, "7.25");
                case UNSIGNED_LONG, INT -> f.set(s, "7");
                case BOOLEAN -> f.set(s, "true");
                case MODE -> f.set(s, "AccuracyOnly");
                case SCENARIO -> f.set(s, "Server");
                default -> throw new IllegalStateException(f.toString());
            }
        }
        return s;
    }

    private static Map<String, Object> effective(final TestSettings s) throws IllegalAccessException
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        final EffectiveSettings e = new EffectiveSettings(s, 50_000, 1024);
        for (final Field f : EffectiveSettings.class.getFields())
        {
            if (!Modifier.isStatic(f.getModifiers()))
            {
                m.put(f.getName(), f.get(e));
            }
        }
        return m;
    }

    @Test
    void shouldGiveSameSettingsFromBuiltinDefaultsAsFromOfficialMlperfConf() throws IllegalAccessException
    {
        final ConfigFile officialFile = official("mlperf.conf");
        final ConfigFile builtin = ConfigFile.builtinMlperfConf();
        int compared = 0;
        for (final TestSettings start : List.of(new TestSettings(), perturbed()))
        {
            for (final String model : officialModels())
            {
                for (final TestScenario scenario : TestScenario.values())
                {
                    final TestSettings a = applied(officialFile, model, scenario, ConfType.MLPERF, start);
                    final TestSettings b = applied(builtin, model, scenario, ConfType.MLPERF, start);
                    final String where = model + " " + scenario;
                    assertEquals(SettingsFields.snapshot(a), SettingsFields.snapshot(b), where);
                    assertEquals(effective(a), effective(b), where);
                    compared++;
                }
            }
        }
        assertTrue(compared > 200, "compared " + compared);
    }

    @Test
    void shouldDefineEveryOfficialKeyThatLoadGenReadsInBuiltinDefaults()
    {
        // The same keys resolve for each model/scenario, but the built-in file groups them its own way; this
        // checks that nothing read from the official file is missing from ours.
        final ConfigFile builtin = ConfigFile.builtinMlperfConf();
        for (final ConfigFile.Entry e : official("mlperf.conf").entries().values())
        {
            final String key = e.key();
            final String name = key.substring(key.lastIndexOf('.') + 1);
            if (ConfigKeys.scenariosRead(name) == null || key.endsWith("Offline.target_latency_percentile"))
            {
                continue;
            }
            final ConfigFile.Entry ours = builtin.entries().get(key);
            assertTrue(ours != null, "built-in defaults lack " + key);
            assertEquals(CNumbers.strtod(e.value()), CNumbers.strtod(ours.value()), key);
            assertEquals(CNumbers.strtoull(e.value()), CNumbers.strtoull(ours.value()), key);
        }
    }
}
