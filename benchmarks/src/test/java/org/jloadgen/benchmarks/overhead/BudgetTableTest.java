package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.TestScenario;
import org.jloadgen.log.DetailLogValues;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BudgetTableTest
{
    private static Map<String, String> sets(final Configuration c)
    {
        final Map<String, String> sets = new LinkedHashMap<>();
        final List<String> args = c.arguments();
        for (int i = 0; i < args.size(); i++)
        {
            if (args.get(i).equals("--set"))
            {
                final String[] kv = args.get(i + 1).split("=", 2);
                sets.put(kv[0], kv[1]);
            }
        }
        return sets;
    }

    @ParameterizedTest
    @CsvSource({
        "server-10k, Server",
        "singlestream-8m, SingleStream",
        "multistream, MultiStream",
        "offline-3.3m, Offline"})
    void shouldUseTheSettingsOfTheOfficialExampleRuns(final String id, final String scenario)
    {
        // The LoadGen column comes from LoadGen's null-SUT runs: the same requested settings, field by field.
        final DetailLogValues official = DetailLogValues.read(
            SharedData.data("example-logs/" + scenario + "/mlperf_log_detail.txt"));
        final Configuration c = BudgetTable.configuration(id);
        assertEquals(TestScenario.fromLogName(scenario), c.scenario());
        final Map<String, String> sets = sets(c);
        assertTrue(sets.size() >= 3, sets.toString());
        for (final Map.Entry<String, String> e : sets.entrySet())
        {
            assertEquals(Double.parseDouble(official.text("requested_" + e.getKey())),
                Double.parseDouble(e.getValue()), e.getKey());
        }
        assertEquals(official.number("requested_min_duration_ms").getAsDouble(), c.minDurationMs());
        assertTrue(c.arguments().containsAll(List.of("run", "--scenario", scenario)));
    }

    @Test
    void shouldGenerateEightMillionQueriesInTheLoadGenSingleStreamConfiguration()
    {
        final DetailLogValues official = DetailLogValues.read(
            SharedData.data("example-logs/SingleStream/mlperf_log_detail.txt"));
        assertEquals(8_000_001, official.number("generated_query_count").getAsDouble());
        assertEquals("2500", sets(BudgetTable.configuration(BudgetTable.SINGLE_STREAM_8M))
            .get("single_stream_expected_latency_ns"));
    }

    @Test
    void shouldSizeTheFullSingleStreamRunFromTheMeasuredRate()
    {
        // At 5.9M queries/s a 10 s run issues 59M queries; the generator must make 1.5 times that.
        final long expectedNs = OverheadRunner.expectedLatencyFor(5.9e6);
        assertEquals(225, expectedNs);
        assertTrue(2 * 10e9 / expectedNs >= 1.5 * 5.9e6 * 10);
        assertEquals("225", sets(BudgetTable.singleStreamFull(expectedNs)).get("single_stream_expected_latency_ns"));
        assertEquals(1, OverheadRunner.expectedLatencyFor(1e12));
    }

    @Test
    void shouldHaveAConfigurationForEveryFigureAndEveryId()
    {
        final List<String> ids = new ArrayList<>(BudgetTable.ALL_IDS);
        for (final Figure f : BudgetTable.figures())
        {
            assertTrue(ids.contains(f.configId()), f.label());
        }
        for (final String id : ids)
        {
            if (!id.equals(BudgetTable.SERVER_PEAK) && !id.equals(BudgetTable.SINGLE_STREAM_FULL))
            {
                assertEquals(id, BudgetTable.configuration(id).id());
            }
        }
        assertEquals("server_target_qps=2500000",
            BudgetTable.serverAt(2.5e6).arguments().stream().filter(a -> a.startsWith("server_target_qps"))
                .findFirst().orElseThrow());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> BudgetTable.configuration("nope"));
        assertTrue(ex.getMessage().contains("nope"));
    }

    @Test
    void shouldRunTinyBaselinesOfOneHundredQueries()
    {
        final Configuration tiny = BudgetTable.tiny(TestScenario.OFFLINE);
        assertEquals("tiny-offline", tiny.id());
        assertEquals(Map.of("min_duration_ms", "0", "min_query_count", "100"), sets(tiny));
    }
}
