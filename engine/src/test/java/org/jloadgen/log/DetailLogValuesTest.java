package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;

class DetailLogValuesTest
{
    private static DetailLogValues official(final String scenario)
    {
        return DetailLogValues.read(SharedData.data("example-logs/" + scenario + "/mlperf_log_detail.txt"));
    }

    @Test
    void shouldReadTheOfficialServerLog()
    {
        final DetailLogValues log = official("Server");
        assertEquals(1988278, log.number("result_99.00_percentile_latency_ns").getAsDouble());
        assertEquals(10020.3, log.number("result_completed_samples_per_sec").getAsDouble());
        assertEquals(100204, log.number("generated_query_count").getAsDouble());
        assertEquals("VALID", log.text("result_validity"));
        assertEquals("NullInlineSUT", log.text("sut_name"));
        assertTrue(log.errors().isEmpty());
        assertTrue(log.valid());
    }

    @Test
    void shouldReadTheOfficialOfflineAndMultiStreamLogs()
    {
        final DetailLogValues offline = official("Offline");
        assertEquals(6.66384e7, offline.number("result_samples_per_second").getAsDouble());
        assertEquals(3300000, offline.number("generated_samples_per_query").getAsDouble());
        assertFalse(offline.valid(), "LoadGen's 3.3M-sample Offline run misses min_duration");
        final DetailLogValues multi = official("MultiStream");
        assertEquals(1372, multi.number("result_99.00_percentile_per_query_latency_ns").getAsDouble());
        // power_begin 22:52:24.192, power_end 22:52:29.192.
        assertEquals(5.0, multi.powerWindowSeconds().getAsDouble(), 1e-9);
    }

    @Test
    void shouldReportAMissingKeyAsEmptyOrByName()
    {
        final DetailLogValues log = official("SingleStream");
        assertTrue(log.number("result_samples_per_second").isEmpty());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> log.text("no_such_key"));
        assertTrue(ex.getMessage().contains("no_such_key"));
    }

    @Test
    void shouldCollectErrorsAndMakeTheRunInvalid()
    {
        final DetailLogValues log = DetailLogValues.parse(List.of(
            ":::MLLOG {\"key\": \"result_validity\", \"value\": \"VALID\", \"time_ms\": 1.0, \"namespace\": \"x\", "
                + "\"event_type\": \"POINT_IN_TIME\", \"metadata\": {\"is_error\": false, \"is_warning\": false}}",
            ":::MLLOG {\"key\": \"error_runtime\", \"value\": \"Ending early: Ran out, of \\\"queries\\\"\", "
                + "\"time_ms\": 2.0, \"namespace\": \"x\", \"event_type\": \"POINT_IN_TIME\", "
                + "\"metadata\": {\"is_error\": true, \"is_warning\": false}}",
            ":::MLLOG {\"key\": \"result_validity\", \"value\": \"INVALID\", \"time_ms\": 3.0, \"namespace\": \"x\", "
                + "\"event_type\": \"POINT_IN_TIME\", \"metadata\": {\"is_error\": false, \"is_warning\": false}}"),
            "test");
        assertEquals(List.of("error_runtime: Ending early: Ran out, of \"queries\""), log.errors());
        assertEquals("VALID", log.text("result_validity"), "the first record of a key wins");
        assertFalse(log.valid());
    }

    @Test
    void shouldRejectALineThatIsNotARecordNamingTheLine()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> DetailLogValues.parse(List.of("", "garbage"), "some.txt"));
        assertTrue(ex.getMessage().startsWith("some.txt:2: not an MLLOG record"), ex.getMessage());
    }

    @Test
    void shouldRejectANonNumericValueAsked()
    {
        final DetailLogValues log = official("Server");
        assertThrows(IllegalArgumentException.class, () -> log.number("result_validity"));
    }
}
