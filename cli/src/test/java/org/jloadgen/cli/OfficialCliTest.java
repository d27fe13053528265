package org.jloadgen.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jloadgen run --engine official}'s usage errors stop before LoadGen runs (exit 2) and say what to set.
 * Whole runs need a process each and are tested through child JVMs (engine.official).
 */
class OfficialCliTest
{
    @TempDir
    Path dir;

    @Test
    void shouldSayWhatToSetWithoutALoadGenSource()
    {
        final CliTest.Outcome outcome = CliTest.jloadgen("run", "--engine", "official", "--loadgen-dir",
            dir.resolve("no-loadgen-here").toString(), "--sut", "null", "--out", dir.toString());

        assertEquals(ExitCodes.USAGE, outcome.exitCode(), outcome.err());
        assertTrue(outcome.err().contains("--engine official needs the official LoadGen source: set --loadgen-dir DIR "
            + "or LOADGEN_DIR"), outcome.err());
        assertTrue(outcome.err().contains("no LoadGen source at '" + dir.resolve("no-loadgen-here") + "'"),
            outcome.err());
    }

    @Test
    void shouldRejectOptionsOfJLoadGensOwnEngine()
    {
        final CliTest.Outcome outcome = CliTest.jloadgen("run", "--engine", "official", "--server-wait", "YIELD",
            "--sut", "null", "--out", dir.toString());

        assertEquals(ExitCodes.USAGE, outcome.exitCode(), outcome.err());
        assertTrue(outcome.err().contains("--server-wait tunes JLoadGen's engine; it has no meaning with --engine "
            + "official"), outcome.err());
    }

    @Test
    void shouldRejectAnUnknownEngine()
    {
        final CliTest.Outcome outcome = CliTest.jloadgen("run", "--engine", "c++", "--sut", "null");

        assertEquals(ExitCodes.USAGE, outcome.exitCode(), outcome.err());
        assertTrue(outcome.err().contains("--engine must be jloadgen or official, got 'c++'"), outcome.err());
    }

    @Test
    void shouldStopOnAnMlperfConfThatIsNotLoadGensOwn() throws IOException
    {
        OfficialLoadGenFixture.build();
        final Path conf = Files.writeString(dir.resolve("mlperf.conf"), "*.Server.target_qps = 10\n");

        final CliTest.Outcome outcome = CliTest.jloadgen("run", "--engine", "official", "--config", conf.toString(),
            "--model", "resnet50", "--sut", "null", "--out", dir.resolve("logs").toString(), "--no-audit-config");

        assertEquals(ExitCodes.USAGE, outcome.exitCode(), outcome.err());
        assertTrue(outcome.err().contains("--config " + conf + " is not the mlperf.conf compiled into this LoadGen"),
            outcome.err());
        assertTrue(!Files.exists(dir.resolve("logs").resolve("mlperf_log_detail.txt")), "LoadGen did not run");
    }
}
