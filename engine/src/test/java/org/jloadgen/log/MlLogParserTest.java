package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.TestScenario;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link MlLogParser} on every official example detail log, and its strictness on malformed lines.
 */
class MlLogParserTest
{
    private static final String GOOD = ":::MLLOG {\"key\": \"k\", \"value\": 1, \"time_ms\": 0.000001, "
        + "\"namespace\": \"mlperf::logging\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": {\"is_error\": false, "
        + "\"is_warning\": false, \"file\": \"f\", \"line_no\": 1, \"pid\": 2, \"tid\": 3}}";

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Server, 99, 0", "Offline, 92, 1", "SingleStream, 1454, 1360", "MultiStream, 884, 783",
        "Accuracy-SingleStream, 73, 0"})
    void shouldParseEveryOfficialDetailLog(final String name, final int lines, final int warnings)
    {
        final MlLogParser log = MlLogParser.parse(SharedData.data("example-logs/" + name + "/mlperf_log_detail.txt"));
        assertEquals(lines, log.records().size());
        assertEquals(warnings, log.warningCount());
        assertEquals(0, log.errorCount());
        assertEquals("NullInlineSUT", log.value("sut_name"));
        assertEquals("6.0.17 @ NA", log.value("loadgen_version"));
        assertInstanceOf(Map.class, log.value("loadgen_file_sha1"));
        assertInstanceOf(List.class, log.value("loaded_qsl_set"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Server", "Offline", "SingleStream", "MultiStream"})
    void shouldFindEveryCheckerKeyInTheOfficialPerformanceLogs(final String name)
    {
        MlLogParser.parse(SharedData.data("example-logs/" + name + "/mlperf_log_detail.txt"))
            .requireCheckerKeys(TestScenario.fromLogName(name), false, false);
    }

    @Test
    void shouldReportMissingAndMistypedCheckerKeys()
    {
        final MlLogParser accuracy = MlLogParser.parse(
            SharedData.data("example-logs/Accuracy-SingleStream/mlperf_log_detail.txt"));
        final AssertionError error = assertThrows(AssertionError.class,
            () -> accuracy.requireCheckerKeys(TestScenario.SINGLE_STREAM, false, false));
        assertTrue(error.getMessage().contains("result_validity: missing"), error.getMessage());

        final MlLogParser server = MlLogParser.parse(SharedData.data("example-logs/Server/mlperf_log_detail.txt"));
        final AssertionError wrongScenario = assertThrows(AssertionError.class,
            () -> server.requireCheckerKeys(TestScenario.OFFLINE, false, false));
        assertTrue(wrongScenario.getMessage().contains("result_samples_per_second: missing"));
        assertTrue(wrongScenario.getMessage().contains("effective_scenario: expected Offline"));

        final MlLogParser typed = MlLogParser.parse(GOOD.replace("\"k\"", "\"sut_name\"") + "\n");
        final AssertionError mistyped = assertThrows(AssertionError.class,
            () -> typed.requireCheckerKeys(TestScenario.SERVER, false, false));
        assertTrue(mistyped.getMessage().contains("sut_name: expected STRING, got 1"), mistyped.getMessage());
    }

    @Test
    void shouldKeepTheFirstOccurrenceOfADuplicateKey()
    {
        final MlLogParser log = MlLogParser.parse(GOOD + "\n" + GOOD.replace("\"value\": 1", "\"value\": 2") + "\n");
        assertEquals(1L, log.value("k"));
        assertEquals(2, log.records().size());
        assertNull(log.first("absent"));
        assertThrows(IllegalArgumentException.class, () -> log.value("absent"));
    }

    @Test
    void shouldTypeValuesAsJsonDoes()
    {
        final MlLogParser.Record r = MlLogParser.parseLine(GOOD.replace("\"value\": 1",
            "\"value\": {\"a\": [1, -2.5e+3, true, null, \"x\\u0041\\n\"], \"b\": 18446744073709551615}"), 1);
        @SuppressWarnings("unchecked")
        final Map<String, Object> value = (Map<String, Object>)r.value();
        assertEquals(List.of(1L, -2500.0, true, "xA\n"), ((List<?>)value.get("a")).stream()
            .filter(v -> v != null).toList());
        assertEquals(new BigInteger("18446744073709551615"), value.get("b"));
        assertEquals("0.000001", r.timeMs());
        assertEquals(3L, r.metadata().get("tid"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "MLLOG {\"key\": \"k\"}",
        ":::MLLOG {\"key\": \"k\", \"value\": NaN, \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false}}",
        ":::MLLOG {\"key\": \"k\", \"value\": inf, \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false}}",
        ":::MLLOG {\"key\": \"k\", \"value\": 1, \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false},}",
        ":::MLLOG {\"key\": \"k\", \"value\": \"unterminated, \"time_ms\": 1}",
        ":::MLLOG {\"key\": \"k\", \"value\": 01, \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false}}",
        ":::MLLOG {\"key\": \"k\", \"value\": 1, \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": \"no\", \"is_warning\": false}}",
        ":::MLLOG {\"key\": \"k\", \"value\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false}}",
        ":::MLLOG {\"key\": \"k\", \"value\": \"a\tb\", \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false}} trailing",
        ":::MLLOG {\"key\": \"k\", \"value\": 1e999, \"time_ms\": 1, \"namespace\": \"n\", \"event_type\": \"e\", "
            + "\"metadata\": {\"is_error\": false, \"is_warning\": false}}",
    })
    void shouldRejectMalformedLines(final String line)
    {
        assertThrows(IllegalArgumentException.class, () -> MlLogParser.parseLine(line, 7));
    }

    @Test
    void shouldRejectAnEmptyLogAndBlankLines()
    {
        assertThrows(IllegalArgumentException.class, () -> MlLogParser.parse(""));
        assertThrows(IllegalArgumentException.class, () -> MlLogParser.parse(GOOD + "\n\n" + GOOD + "\n"));
    }

    @Test
    void shouldCountErrorRecords()
    {
        final String error = GOOD.replace("\"is_error\": false", "\"is_error\": true");
        final MlLogParser log = MlLogParser.parse(GOOD + "\n" + error + "\n" + error);
        assertEquals(2, log.errorCount());
        assertTrue(log.records().get(1).isError());
    }
}
