package org.jloadgen;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;

/**
 * The entry points of LoadGen's API (spec §1.5; loadgen/loadgen.h, StartTest) for programs that embed JLoadGen:
 * {@code StartTest} and {@code AbortTest}. {@link #startTest} blocks and runs the whole test on the calling thread (the
 * issue thread), writing LoadGen's log files; {@link #abortTest} stops it from any thread.
 * <pre>{@code
 * TestResult r = LoadGen.startTest(mySut, myQsl,
 *     new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(5000),
 *     new LogSettings().outputDirectory(Path.of("logs")));
 * }</pre>
 */
public final class LoadGen
{
    private static final AtomicReference<TestRunner> RUNNING = new AtomicReference<>();

    private LoadGen()
    {
    }

    /**
     * Runs a test with default engine options and LoadGen's audit.config lookup ({@code audit.config} in the
     * working directory, applied if it exists).
     *
     * @param sut         the system under test.
     * @param qsl         its sample library.
     * @param settings    the test settings.
     * @param logSettings where the logs go.
     * @return what the test produced.
     */
    public static TestResult startTest(final SystemUnderTest sut, final QuerySampleLibrary qsl,
        final TestSettings settings, final LogSettings logSettings)
    {
        return startTest(sut, qsl, settings, logSettings, new EngineOptions(), Path.of("audit.config"));
    }

    /**
     * Runs a test.
     *
     * @param sut         the system under test.
     * @param qsl         its sample library.
     * @param settings    the test settings.
     * @param logSettings where the logs go.
     * @param options     JLoadGen's engine options.
     * @param auditConfig the audit.config to apply if it exists, or {@code null}.
     * @return what the test produced.
     * @throws IllegalStateException if a test started through this class is already running.
     */
    public static TestResult startTest(final SystemUnderTest sut, final QuerySampleLibrary qsl,
        final TestSettings settings, final LogSettings logSettings, final EngineOptions options,
        final Path auditConfig)
    {
        final TestRunner runner = new TestRunner(sut, qsl, settings, logSettings, options, auditConfig, List.of(),
            System.out);
        if (!RUNNING.compareAndSet(null, runner))
        {
            throw new IllegalStateException("a test is already running; LoadGen runs one test at a time");
        }
        try
        {
            return runner.run();
        }
        finally
        {
            RUNNING.set(null);
        }
    }

    /**
     * Stops the running test after the query being issued; its logs are completed and say the run was aborted.
     * Does nothing if no test is running.
     *
     * @param reason what to log.
     * @return whether a test was running.
     */
    public static boolean abortTest(final String reason)
    {
        final TestRunner runner = RUNNING.get();
        if (runner == null)
        {
            return false;
        }
        runner.abort(reason);
        return true;
    }
}
