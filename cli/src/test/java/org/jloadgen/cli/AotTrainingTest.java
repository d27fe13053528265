package org.jloadgen.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.cli.api.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AotTrainingTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunEveryScenarioToItsEnd() throws IOException
    {
        final List<Integer> exits = AotTraining.run(dir, true);
        assertEquals(5, exits.size());
        assertTrue(exits.stream().allMatch(AotTraining::ranToItsEnd), "exit codes " + exits);
        for (final String scenario : List.of("Offline", "SingleStream", "MultiStream", "Server"))
        {
            assertTrue(Files.readString(dir.resolve("test-" + List.of("Offline", "SingleStream", "MultiStream",
                "Server").indexOf(scenario)).resolve("mlperf_log_summary.txt")).contains("Scenario : " + scenario),
                scenario);
        }
    }

    @Test
    void shouldShortenEveryTestForACacheOfClassesOnly() throws IOException
    {
        final List<Integer> exits = AotTraining.run(dir, false);
        assertTrue(exits.stream().allMatch(AotTraining::ranToItsEnd), "exit codes " + exits);
        for (int i = 0; i < exits.size(); i++)
        {
            final String detail = Files.readString(dir.resolve("test-" + i).resolve("mlperf_log_detail.txt"));
            // The shortened duration took the place of the test's own.
            assertTrue(detail.contains("\"effective_min_duration_ms\", \"value\": 50,"), "test " + i);
        }
    }

    @Test
    void shouldTellAFailedTestFromAnInvalidOne()
    {
        assertTrue(AotTraining.ranToItsEnd(ExitCodes.VALID));
        assertTrue(AotTraining.ranToItsEnd(ExitCodes.INVALID));
        assertFalse(AotTraining.ranToItsEnd(ExitCodes.USAGE));
        assertFalse(AotTraining.ranToItsEnd(ExitCodes.FAILURE));
    }
}
