package org.jloadgen.engine.official;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.bindings.LoadGenBridge;
import org.jloadgen.config.ConfigException;
import org.jloadgen.config.SettingsFields;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Settings go to the official LoadGen the official way: files through its FromConfig (after JLoadGen's strict
 * reading of them, which names a broken line), {@code --set} onto its TestSettings fields by name and type. No test
 * runs here (that needs a process of its own), so the library is opened in this JVM.
 */
class OfficialSettingsTest
{
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @BeforeAll
    static void open()
    {
        LoadGenBridge.open(OfficialLoadGenFixture.build().bridgeLibrary());
    }

    private OfficialSettings settings(final TestScenario scenario, final String model, final Path mlperfConf,
        final Path userConf, final Path audit, final boolean lenient, final String... assignments)
    {
        return new OfficialSettings(scenario, TestMode.PERFORMANCE_ONLY, model, mlperfConf, userConf, audit,
            List.of(assignments), lenient);
    }

    private LoadGenBridge.Settings toLoadGen(final OfficialSettings settings)
    {
        return settings.toLoadGen(new LogSettings().outputDirectory(dir), errStream);
    }

    @Test
    void shouldSetEveryJLoadGenSettingsFieldOnLoadGensTestSettingsWithItsType()
    {
        final TestSettings defaults = new TestSettings();
        for (final SettingsFields.Field field : SettingsFields.all())
        {
            if (field.type() == SettingsFields.Type.SCENARIO || field.type() == SettingsFields.Type.MODE)
            {
                continue;
            }
            try (LoadGenBridge.Settings loadgen = toLoadGen(settings(TestScenario.SERVER, null, null, null, null,
                false, field.name() + "=" + field.get(defaults))))
            {
                final String expected = field.get(defaults);
                switch (field.type())
                {
                    case DOUBLE -> assertEquals(Double.parseDouble(expected), loadgen.getDouble(field.name()),
                        field.name());
                    case BOOLEAN -> assertEquals(Boolean.parseBoolean(expected) ? 1L : 0L,
                        loadgen.getUnsigned(field.name()), field.name());
                    default -> assertEquals(expected, Long.toUnsignedString(loadgen.getUnsigned(field.name())),
                        field.name());
                }
            }
        }
    }

    @Test
    void shouldApplyAssignmentsAfterTheConfigFiles() throws IOException
    {
        final Path user = Files.writeString(dir.resolve("user.conf"), "*.Server.target_qps = 300\n");
        try (LoadGenBridge.Settings loadgen = toLoadGen(settings(TestScenario.SERVER, "resnet50", null, user, null,
            false, "server_target_qps=2500.5", "min_duration_ms=1234", "server_coalesce_queries=1",
            "schedule_rng_seed=18446744073709551615", "mode=AccuracyOnly")))
        {
            assertEquals(2500.5, loadgen.getDouble("server_target_qps"));
            assertEquals(1234L, loadgen.getUnsigned("min_duration_ms"));
            assertEquals(1L, loadgen.getUnsigned("server_coalesce_queries"));
            assertEquals(-1L, loadgen.getUnsigned("schedule_rng_seed"));
            assertEquals(TestMode.ACCURACY_ONLY.code(), loadgen.mode());
            assertEquals(15_000_000L, loadgen.getUnsigned("server_target_latency_ns"),
                "resnet50's Server target latency from LoadGen's built-in mlperf.conf");
        }
    }

    @Test
    void shouldApplyTheBuiltInMlperfConfForAModelAndAcceptOnlyAnIdenticalConfigFile() throws IOException
    {
        final Path official = OfficialLoadGenFixture.loadgenSource().resolve("mlperf.conf");
        try (LoadGenBridge.Settings loadgen = toLoadGen(settings(TestScenario.OFFLINE, "resnet50", official, null, null,
            false)))
        {
            assertEquals(1024L, loadgen.getUnsigned("performance_sample_count_override"));
            assertEquals(600_000L, loadgen.getUnsigned("min_duration_ms"));
        }
        final Path other = Files.writeString(dir.resolve("mlperf.conf"), Files.readString(official) + "\n# edited\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> toLoadGen(settings(TestScenario.OFFLINE, "resnet50", other, null, null, false)));
        assertTrue(ex.getMessage().contains("is not the mlperf.conf compiled into this LoadGen"), ex.getMessage());
    }

    @Test
    void shouldStopOnABrokenUserConfNamingTheLineUnlessLenient() throws IOException
    {
        final Path broken = Files.writeString(dir.resolve("user.conf"), "*.Server.target_qps = 300\n"
            + "*.Server.min_duration = soon\n");
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> toLoadGen(settings(TestScenario.SERVER, null, null, broken, null, false)));
        assertTrue(ex.getMessage().contains("user.conf") && ex.getMessage().contains("2"), ex.getMessage());

        try (LoadGenBridge.Settings loadgen = toLoadGen(settings(TestScenario.SERVER, null, null, broken, null, true)))
        {
            assertEquals(1.0, loadgen.getDouble("server_target_qps"), "LoadGen skips a broken file whole");
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("LoadGen's FromConfig rejected " + broken),
                err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldCheckTheAuditConfigLoadGenWillRead() throws IOException
    {
        final Path audit = Files.writeString(dir.resolve("audit.config"),
            "*.*.mode = 2\n*.*.accuracy_log_rng_seed = soon\n");
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> toLoadGen(settings(TestScenario.SERVER, null, null, null, audit, false)));
        assertTrue(ex.getMessage().contains("audit.config"), ex.getMessage());
    }

    @Test
    void shouldRejectBadAssignmentsNamingTheField()
    {
        final IllegalArgumentException scenario = assertThrows(IllegalArgumentException.class,
            () -> toLoadGen(settings(TestScenario.SERVER, null, null, null, null, false, "scenario=Offline")));
        assertTrue(scenario.getMessage().contains("use --scenario"), scenario.getMessage());
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> toLoadGen(settings(TestScenario.SERVER, null, null, null, null, false, "server_target_qpz=1")));
        assertTrue(unknown.getMessage().contains("server_target_qpz"), unknown.getMessage());
        final IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
            () -> toLoadGen(settings(TestScenario.SERVER, null, null, null, null, false, "min_duration_ms=-5")));
        assertTrue(value.getMessage().contains("min_duration_ms"), value.getMessage());
    }
}
