package org.jloadgen.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;

/**
 * Runs a test through the real engine for the SUT modules' tests, with the issue thread parking instead of spinning
 * (Server waits and completion waits), so that the SUT's own threads keep the cores of a small machine.
 */
public final class ParkingRun
{
    private ParkingRun()
    {
    }

    /**
     * @param sut      the SUT.
     * @param qsl      its sample library.
     * @param settings the test.
     * @param dir      the log folder.
     * @return the result; nothing is printed.
     */
    public static TestResult run(final SystemUnderTest sut, final QuerySampleLibrary qsl, final TestSettings settings,
        final Path dir)
    {
        final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP)
            .serverWait(ServerWaitStrategy.SLEEP).completionTimeoutMs(30_000);
        final LogSettings logs = new LogSettings().outputDirectory(dir).copySummaryToStdout(false);
        return new TestRunner(sut, qsl, settings, logs, engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }
}
