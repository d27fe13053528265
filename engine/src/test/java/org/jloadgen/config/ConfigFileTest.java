package org.jloadgen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigFileTest
{
    private static ConfigFile parse(final String text)
    {
        return ConfigFile.parse("test.conf", text);
    }

    private static List<String> texts(final List<ConfigDiagnostic> diagnostics)
    {
        return diagnostics.stream().map(ConfigDiagnostic::toString).toList();
    }

    @Test
    void shouldParseKeysValuesAndCommentLines()
    {
        final ConfigFile f = parse("# comment\n\n  resnet50.Offline.min_query_count   =   24576  \n"
            + "*.*.qsl_rng_seed = 16159082839903944936\n   # indented comment = 5\n");
        assertFalse(f.hasErrors());
        assertTrue(f.warnings().isEmpty());
        assertEquals(2, f.entries().size());
        assertEquals(new ConfigFile.Entry("resnet50.Offline.min_query_count", "24576", 3),
            f.entries().get("resnet50.Offline.min_query_count"));
        assertEquals("16159082839903944936", f.entries().get("*.*.qsl_rng_seed").value());
    }

    @Test
    void shouldTreatHashOnlyAsWholeTokenComment()
    {
        // "#foo" is a key, so "#foo = 1" is an ordinary (unread) assignment.
        final ConfigFile f = parse("#foo = 1\n");
        assertFalse(f.hasErrors());
        assertEquals("1", f.entries().get("#foo").value());
    }

    @Test
    void shouldRejectTrailingCommentAfterValue()
    {
        final ConfigFile f = parse("*.*.min_duration = 5 # five ms\n");
        assertTrue(f.hasErrors());
        final ConfigDiagnostic d = f.errors().get(0);
        assertEquals(1, d.line());
        assertEquals("*.*.min_duration", d.key());
        assertEquals("value needs to be integer or double, line=1", d.loadGenMessage());
        assertTrue(d.toString().startsWith("test.conf:1: key '*.*.min_duration': value '#' is not"), d.toString());
    }

    @Test
    void shouldAcceptHashAfterKeyOrEqualsAsEndOfLineAndWarn()
    {
        final ConfigFile f = parse("*.*.mode # no value\n*.*.mode =\n");
        assertFalse(f.hasErrors());
        assertTrue(f.entries().isEmpty());
        assertEquals(List.of(
            "test.conf:1: key '*.*.mode': no value: LoadGen ignores this line",
            "test.conf:2: key '*.*.mode': no value: LoadGen ignores this line"), texts(f.warnings()));
    }

    @Test
    void shouldRejectKeySpaceEqualsGluedToValue()
    {
        final ConfigFile f = parse("\n*.*.min_duration =5\n");
        assertEquals(1, f.errors().size());
        assertEquals("expected 'key=value', line=2", f.errors().get(0).loadGenMessage());
        assertEquals("test.conf:2: key '*.*.min_duration': expected ' = ' after the key (spaces around '=' are "
            + "required), found '=5'", f.errors().get(0).toString());
    }

    @Test
    void shouldRejectKeyGluedToEqualsWithSpacedValue()
    {
        final ConfigFile f = parse("*.*.min_duration= 5\n");
        assertEquals("expected 'key=value', line=1", f.errors().get(0).loadGenMessage());
    }

    @Test
    void shouldIgnoreSingleTokenAssignmentWithWarning()
    {
        final ConfigFile f = parse("*.*.min_duration=5\n");
        assertFalse(f.hasErrors());
        assertTrue(f.entries().isEmpty());
        assertEquals(List.of("test.conf:1: key '*.*.min_duration=5': '*.*.min_duration=5' is a single token: "
            + "LoadGen needs spaces around '=' and ignores this line"), texts(f.warnings()));
    }

    @Test
    void shouldKeepLastOfSeveralValuesOnOneLine()
    {
        final ConfigFile f = parse("*.*.min_query_count = 5 6 0x10\n");
        assertFalse(f.hasErrors());
        assertEquals("0x10", f.entries().get("*.*.min_query_count").value());
        assertEquals(List.of("test.conf:1: key '*.*.min_query_count': 3 values on one line: LoadGen keeps the "
            + "last one ('0x10')"), texts(f.warnings()));
    }

    @Test
    void shouldRejectNonNumericValues()
    {
        final ConfigFile f = parse("a.b.c = 1\n*.*.mode = two\n*.*.min_duration = 10ms\n*.*.x = 1 2 y\n");
        assertEquals(List.of(2, 3, 4), f.errors().stream().map(ConfigDiagnostic::line).toList());
        assertEquals(List.of("value needs to be integer or double, line=2",
            "value needs to be integer or double, line=3", "value needs to be integer or double, line=4"),
            f.errors().stream().map(ConfigDiagnostic::loadGenMessage).toList());
    }

    @Test
    void shouldAcceptEveryCNumberForm()
    {
        final ConfigFile f = parse("a.b.c = 0x1A\na.b.d = 017\na.b.e = 09\na.b.f = 1e-3\na.b.g = .5\n"
            + "a.b.h = inf\na.b.i = nan(x)\na.b.j = 0x1.8p1\na.b.k = -2\na.b.l = +3.\n");
        assertFalse(f.hasErrors(), () -> texts(f.errors()).toString());
        assertEquals(10, f.entries().size());
    }

    @Test
    void shouldLetLaterIdenticalKeysOverwrite()
    {
        final ConfigFile f = parse("*.*.min_query_count = 1\nresnet50.*.min_query_count = 2\n"
            + "*.*.min_query_count = 3\n");
        assertEquals(new ConfigFile.Entry("*.*.min_query_count", "3", 3), f.entries().get("*.*.min_query_count"));
        assertEquals(List.of("*.*.min_query_count", "resnet50.*.min_query_count"), List.copyOf(f.entries().keySet()));
    }

    @Test
    void shouldHandleCrLfTabsAndMissingFinalNewline()
    {
        final ConfigFile f = parse("*.*.min_query_count\t=\t7\r\n\u000B*.*.max_query_count = 9");
        assertFalse(f.hasErrors());
        assertEquals("7", f.entries().get("*.*.min_query_count").value());
        assertEquals(new ConfigFile.Entry("*.*.max_query_count", "9", 2), f.entries().get("*.*.max_query_count"));
    }

    @Test
    void shouldLookUpInLoadGenOrder()
    {
        final ConfigFile f = parse("*.*.k = 4\nm.*.k = 3\n*.Server.k = 2\nm.Server.k = 1\n");
        assertEquals("1", f.lookup("m", "Server", "k").value());
        assertEquals("2", f.lookup("other", "Server", "k").value());
        assertEquals("3", f.lookup("m", "Offline", "k").value());
        assertEquals("4", f.lookup("other", "Offline", "k").value());
        assertNull(f.lookup("m", "Server", "missing"));
        // No partial matching of model names.
        assertEquals("4", f.lookup("m2", "Offline", "k").value());
    }

    @Test
    void shouldReportMissingFileWithLoadGenMessage(@TempDir final Path dir)
    {
        final Path missing = dir.resolve("nope.conf");
        final ConfigFile f = ConfigFile.read(missing);
        assertTrue(f.hasErrors());
        assertEquals("can't open file " + missing, f.errors().get(0).loadGenMessage());
        assertTrue(f.errors().get(0).toString().startsWith(missing + ": can't open file"));
    }

    @Test
    void shouldReadFileAndNameItInDiagnostics(@TempDir final Path dir) throws IOException
    {
        final Path p = dir.resolve("user.conf");
        Files.writeString(p, "*.Server.target_qps = 100\n*.Server.target_qsp = 1\n");
        final ConfigFile f = ConfigFile.read(p);
        assertEquals(p.toString(), f.source());
        assertEquals(List.of(p + ":2: key '*.Server.target_qsp': no setting reads 'target_qsp' "
            + "(did you mean target_qps?): LoadGen ignores it"), texts(f.check(ConfType.USER)));
    }

    @Test
    void shouldApplyNothingFromFileWithAnyError()
    {
        final TestSettings s = new TestSettings();
        final ConfigFile f = parse("*.*.min_query_count = 5\n*.*.max_query_count = 5 # oops\n");
        final List<ConfigDiagnostic> errors = f.applyTo(s, "m", TestScenario.SERVER, ConfType.USER);
        assertEquals(1, errors.size());
        assertEquals(100, s.minQueryCount());
    }

    @Test
    void shouldWarnAboutKeysNothingReads()
    {
        final ConfigFile f = parse("justakey = 1\nm.k = 1\n*.Serverr.target_qps = 1\n*.*.min_query_cnt = 1\n"
            + "*.Offline.target_latency = 1\n*.Offline.samples_per_query = 1\n*.*.qsl_rng_seed = 1\n"
            + "*.*.accuracy_log_probability = 1\n*.*.test05 = 1\nm.Server.min_query_count = 1\n");
        assertEquals(List.of(
            "test.conf:1: key 'justakey': not of the form model.scenario.key: LoadGen never reads it",
            "test.conf:2: key 'm.k': not of the form model.scenario.key: LoadGen never reads it",
            "test.conf:3: key '*.Serverr.target_qps': unknown scenario 'Serverr' (expected *, SingleStream, "
                + "MultiStream, Server or Offline): LoadGen never reads it",
            "test.conf:4: key '*.*.min_query_cnt': no setting reads 'min_query_cnt' (did you mean "
                + "min_query_count or max_query_count?): LoadGen ignores it",
            "test.conf:5: key '*.Offline.target_latency': 'target_latency' is only read for SingleStream, "
                + "MultiStream and Server: LoadGen ignores it for Offline",
            "test.conf:6: key '*.Offline.samples_per_query': 'samples_per_query' is only read for MultiStream: "
                + "LoadGen ignores it for Offline",
            "test.conf:7: key '*.*.qsl_rng_seed': 'qsl_rng_seed' can only be set by mlperf.conf: LoadGen "
                + "ignores it in user.conf",
            "test.conf:8: key '*.*.accuracy_log_probability': 'accuracy_log_probability' can only be set by "
                + "mlperf.conf: LoadGen ignores it in user.conf",
            "test.conf:9: key '*.*.test05': 'test05' can only be set by mlperf.conf: LoadGen ignores it in "
                + "user.conf"), texts(f.check(ConfType.USER)));
        // The same seed lines are fine in mlperf.conf.
        assertEquals(6, f.check(ConfType.MLPERF).size());
    }

    @Test
    void shouldNotWarnAboutKeysOfficialFilesCarryButNobodyReads()
    {
        final ConfigFile f = parse("*.Server.target_duration = 0\n*.Offline.target_latency_percentile = 90\n"
            + "*.*.test07_accuracy_threshold = 0.9\n*.*.test09_min_output_tokens = 10\n");
        assertTrue(f.check(ConfType.MLPERF).isEmpty());
        assertTrue(f.check(ConfType.AUDIT).isEmpty());
        // A typo of a test05 key is still reported.
        assertEquals(1, parse("*.*.test05_qsl_rng_sed = 1\n").check(ConfType.MLPERF).size());
    }

    @Test
    void shouldNoteModelSpecificLinesInAuditConfig()
    {
        final List<ConfigDiagnostic> found = parse("*.*.mode = 2\nresnet50.Offline.min_query_count = 5\n")
            .check(ConfType.AUDIT);
        assertEquals(1, found.size());
        assertEquals(ConfigDiagnostic.Severity.NOTE, found.get(0).severity());
        assertEquals(2, found.get(0).line());
    }
}
