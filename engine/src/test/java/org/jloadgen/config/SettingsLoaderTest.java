package org.jloadgen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsLoaderTest
{
    private static final long SCHEDULE_SEED = Long.parseUnsignedLong("16159082839903944936");
    private static final String MULTIPLE_CONF_FILES_MESSAGE = "%s: a second user.conf for one test: LoadGen logs "
        + "\"Multiple conf files are used. This is not valid for official submission.\" as an error and the "
        + "submission checker rejects the log";

    @TempDir
    Path dir;

    private final List<ConfigDiagnostic> diagnostics = new ArrayList<>();

    private Path write(final String name, final String text) throws IOException
    {
        final Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private SettingsLoader strict()
    {
        return new SettingsLoader(SettingsLoader.Strictness.STRICT, diagnostics::add);
    }

    private SettingsLoader lenient()
    {
        return new SettingsLoader(SettingsLoader.Strictness.LENIENT, diagnostics::add);
    }

    @Test
    void shouldApplyBuiltinDefaultsWithoutUserConf()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE);
        assertEquals(List.of(), strict().load("resnet50", TestScenario.OFFLINE, null, s));
        assertEquals(24576, s.minQueryCount());
        assertEquals(1024, s.performanceSampleCountOverride());
        assertEquals(SCHEDULE_SEED, s.scheduleRngSeed());
        assertTrue(diagnostics.isEmpty());
    }

    @Test
    void shouldApplyDefaultsThenUserConf()
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.OFFLINE);
        strict().load("bert", TestScenario.OFFLINE, SharedData.data("user.conf.bert-example"), s);
        assertEquals(32.0, s.offlineExpectedQps());
        assertEquals(10833, s.minQueryCount());
        assertEquals(10833, s.performanceSampleCountOverride());
        assertEquals(600_000, s.minDurationMs());
    }

    @Test
    void shouldLetUserConfOverrideDefaultsButNotSeeds() throws IOException
    {
        final Path user = write("user.conf", "resnet50.Offline.min_query_count = 100\n*.*.qsl_rng_seed = 5\n");
        final TestSettings s = new TestSettings();
        strict().loadUserConf(user, "resnet50", TestScenario.OFFLINE, s);
        assertEquals(100, s.minQueryCount());
        assertEquals(2085463073848966840L, s.qslRngSeed());
        assertEquals(1, diagnostics.size());
        assertEquals(ConfigDiagnostic.Severity.WARNING, diagnostics.get(0).severity());
        assertEquals(user + ":2: key '*.*.qsl_rng_seed': 'qsl_rng_seed' can only be set by mlperf.conf: LoadGen "
            + "ignores it in user.conf", diagnostics.get(0).toString());
    }

    @Test
    void shouldReplaceBuiltinDefaultsWithOfficialMlperfConf() throws IOException
    {
        final Path mlperf = write("mlperf.conf", "*.*.min_query_count = 77\n");
        final TestSettings s = new TestSettings();
        strict().mlperfConf(mlperf).load("resnet50", TestScenario.OFFLINE, null, s);
        assertEquals(77, s.minQueryCount());
        assertEquals(10_000, s.minDurationMs(), "the built-in defaults are not applied");
        assertEquals(0, s.qslRngSeed());

        final TestSettings official = new TestSettings();
        strict().mlperfConf(SharedData.data("mlperf.conf"))
            .load("resnet50", TestScenario.OFFLINE, SharedData.data("user.conf.bert-example"), official);
        assertEquals(24576, official.minQueryCount());
        assertEquals(32.0, official.offlineExpectedQps());
    }

    @Test
    void shouldReportSecondUserConfInLenientModeAndStillApplyIt() throws IOException
    {
        final Path first = write("a.conf", "*.*.min_query_count = 11\n");
        final Path second = write("b.conf", "*.*.max_query_count = 22\n");
        final SettingsLoader loader = lenient();
        final TestSettings s = new TestSettings();
        assertEquals(List.of(), loader.loadUserConf(first, "resnet50", TestScenario.SERVER, s));
        s.minDurationMs(5);
        assertEquals(List.of(SettingsLoader.MULTIPLE_CONF_FILES),
            loader.loadUserConf(second, "resnet50", TestScenario.SERVER, s));
        assertEquals(22, s.maxQueryCount());
        assertEquals(5, s.minDurationMs(), "the defaults are not applied again");
        assertEquals(11, s.minQueryCount());

        // The count belongs to the loader, not the process.
        assertEquals(List.of(), lenient().loadUserConf(second, "resnet50", TestScenario.SERVER, new TestSettings()));
    }

    @Test
    void shouldRejectSecondUserConfInStrictMode() throws IOException
    {
        final Path first = write("a.conf", "*.*.min_query_count = 11\n");
        final SettingsLoader loader = strict();
        loader.loadUserConf(first, "m", TestScenario.SERVER, new TestSettings());
        final TestSettings s = new TestSettings();
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> loader.loadUserConf(first, "m", TestScenario.SERVER, s));
        assertEquals(MULTIPLE_CONF_FILES_MESSAGE.formatted(first), ex.getMessage());
        assertEquals(100, s.minQueryCount());
    }

    @Test
    void shouldThrowEveryErrorInStrictModeAndChangeNothing() throws IOException
    {
        final Path user = write("user.conf", "*.*.min_query_count = 5\n*.*.mode = 2 # perf\n*.*.min_duration =10\n");
        final TestSettings s = new TestSettings();
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> strict().loadUserConf(user, "resnet50", TestScenario.OFFLINE, s));
        assertEquals(2, ex.diagnostics().size());
        assertEquals(user + ":2: key '*.*.mode': value '#' is not a complete C integer (strtoul base 0) or double "
            + "(strtod); comments must be on their own line\n" + user + ":3: key '*.*.min_duration': expected ' = ' "
            + "after the key (spaces around '=' are required), found '=10'", ex.getMessage());
        assertEquals(100, s.minQueryCount(), "not even the defaults are applied");
        assertEquals(0, s.qslRngSeed());
    }

    @Test
    void shouldReturnLoadGenMessagesInLenientModeAndApplyNoKeyOfTheBadFile() throws IOException
    {
        final Path user = write("user.conf", "*.*.max_query_count = 5\n\n*.*.mode = two\n");
        final TestSettings s = new TestSettings();
        assertEquals(List.of("value needs to be integer or double, line=3"),
            lenient().loadUserConf(user, "resnet50", TestScenario.OFFLINE, s));
        assertEquals(0, s.maxQueryCount());
        assertEquals(24576, s.minQueryCount(), "LoadGen applies mlperf.conf before reading the bad user.conf");
    }

    @Test
    void shouldNameFileLineKeyAndValueOfAnAuditConfigErrorWhileLoggingLoadGensWords() throws IOException
    {
        final Path audit = write("audit.config", "# TEST01\n*.*.mode = two\n");
        final TestSettings s = new TestSettings();
        assertEquals(List.of("value needs to be integer or double, line=2"),
            lenient().applyAudit(audit, TestScenario.OFFLINE, s), "the detail log gets LoadGen's words");
        assertEquals(List.of(audit + ":2: key '*.*.mode': value 'two' is not a complete C integer (strtoul base 0) "
            + "or double (strtod)"), diagnostics.stream().map(ConfigDiagnostic::toString).toList(),
            "the console gets the file, line, key and value");
    }

    @Test
    void shouldSayABinaryFileIsNotTextAndListOnlyAFewErrors() throws IOException
    {
        // An ELF header, then bytes with a line break now and then: one "line" error each, were it text.
        final byte[] binary = new byte[4096];
        for (int i = 0; i < binary.length; i++)
        {
            binary[i] = (byte)(i % 7 == 0 ? '\n' : i % 7 == 3 ? ' ' : 'A' + i % 26);
        }
        System.arraycopy(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}, 0, binary, 0, 8);
        final Path ls = dir.resolve("ls");
        Files.write(ls, binary);
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> strict().loadUserConf(ls, "m", TestScenario.OFFLINE, new TestSettings()));
        assertEquals(ls + ": not a text file (a NUL byte at offset 7); a config file holds 'key = value' lines",
            ex.getMessage());

        final List<ConfigDiagnostic> many = new ArrayList<>();
        for (int line = 1; line <= 40; line++)
        {
            many.add(ConfigDiagnostic.error("u.conf", line, "k\u0000\u001b[31m", "bad", "bad"));
        }
        final String message = new ConfigException(many).getMessage();
        assertEquals(ConfigException.MAX_LISTED + 1, message.lines().count(), message);
        assertTrue(message.endsWith("\n... and 35 more errors"), message);
        assertTrue(message.startsWith("u.conf:1: key 'k\\x00\\x1b[31m': bad\n"), "control characters escaped: "
            + message);
    }

    @Test
    void shouldReportMissingUserConf()
    {
        final Path missing = dir.resolve("missing.conf");
        final TestSettings s = new TestSettings();
        assertEquals(List.of("can't open file " + missing),
            lenient().loadUserConf(missing, "resnet50", TestScenario.OFFLINE, s));
        assertEquals(24576, s.minQueryCount());

        final TestSettings untouched = new TestSettings();
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> strict().loadUserConf(missing, "resnet50", TestScenario.OFFLINE, untouched));
        assertTrue(ex.getMessage().startsWith(missing + ": can't open file"), ex.getMessage());
        assertEquals(100, untouched.minQueryCount());
    }

    @Test
    void shouldHandleInvalidModeByStrictness() throws IOException
    {
        final Path user = write("user.conf", "*.*.mode = 7\n*.*.max_query_count = 9\n");
        final TestSettings lenientSettings = new TestSettings();
        assertEquals(List.of("Invalid value passed to Mode key in config."),
            lenient().loadUserConf(user, "m", TestScenario.SERVER, lenientSettings));
        assertEquals(9, lenientSettings.maxQueryCount());
        assertEquals(TestMode.PERFORMANCE_ONLY, lenientSettings.mode());

        final TestSettings strictSettings = new TestSettings();
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> strict().loadUserConf(user, "m", TestScenario.SERVER, strictSettings));
        assertEquals(user + ":1: key '*.*.mode': mode must be 0 (SubmissionRun), 1 (AccuracyOnly), 2 "
            + "(PerformanceOnly) or 3 (FindPeakPerformance), not '7'", ex.getMessage());
        assertEquals(0, strictSettings.maxQueryCount());
    }

    @Test
    void shouldApplyAuditConfigWithWildcardModel()
    {
        final TestSettings s = new TestSettings();
        final SettingsLoader loader = strict();
        loader.load("stable-diffusion-xl", TestScenario.OFFLINE, null, s);
        final Path test04 = SharedData.data("audit/TEST04/audit.config");
        assertEquals(List.of(), loader.applyAudit(test04, TestScenario.OFFLINE, s));
        assertTrue(s.performanceIssueSame());
        assertEquals(3, s.performanceIssueSameIndex());
        assertEquals(5000, s.minQueryCount(), "stable-diffusion-xl.Offline.min_query_count = 500 is ignored");
        assertEquals(3, diagnostics.size());
        assertTrue(diagnostics.stream().allMatch(d -> d.severity() == ConfigDiagnostic.Severity.NOTE));
        assertEquals(List.of(21, 22, 23), diagnostics.stream().map(ConfigDiagnostic::line).toList());
    }

    @Test
    void shouldNotLetAuditConfigChangeSeeds() throws IOException
    {
        final Path audit = write("audit.config", "*.*.schedule_rng_seed = 1\n*.*.accuracy_log_rng_seed = 2\n");
        final TestSettings s = new TestSettings();
        final SettingsLoader loader = lenient();
        loader.load("resnet50", TestScenario.SERVER, null, s);
        assertEquals(List.of(), loader.applyAudit(audit, TestScenario.SERVER, s));
        assertEquals(SCHEDULE_SEED, s.scheduleRngSeed());
        assertEquals(2, s.accuracyLogRngSeed());
        assertEquals(1, diagnostics.size());
        assertEquals(1, diagnostics.get(0).line());
    }

    @Test
    void shouldWarnAboutTyposButStillLoad() throws IOException
    {
        final Path user = write("user.conf", "*.Server.target_qps = 100\n*.Server.target_qsp = 200\n");
        final TestSettings s = new TestSettings();
        strict().loadUserConf(user, "resnet50", TestScenario.SERVER, s);
        assertEquals(100.0, s.serverTargetQps());
        assertEquals(List.of(user + ":2: key '*.Server.target_qsp': no setting reads 'target_qsp' (did you mean "
            + "target_qps?): LoadGen ignores it"), diagnostics.stream().map(ConfigDiagnostic::toString).toList());
    }
}
