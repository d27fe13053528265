package org.jloadgen.engine;

import java.io.PrintStream;
import java.nio.file.Path;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestSettings;
import org.jloadgen.log.DetailLog;

/**
 * The logs of a test that could not start (for example the SUT's model failed to load): the version and date
 * records, the reason as an {@code error_runtime} record, and a summary whose trailer counts it, so whoever reads
 * the output directory sees why nothing ran.
 */
public final class StartFailureLog
{
    private StartFailureLog()
    {
    }

    /**
     * @param logSettings where the logs go.
     * @param requested   the requested settings.
     * @param reason      why the test could not start.
     * @param console     where a summary copy goes, if requested.
     * @return the summary file.
     */
    public static Path write(final LogSettings logSettings, final TestSettings requested, final String reason,
        final PrintStream console)
    {
        final String testDatetime = RunFiles.testDatetimeNow();
        // Only LoadGen's files: no series runs, so there is nothing for the histogram logs or a recording to hold.
        final RunFiles files = RunFiles.open(logSettings, testDatetime,
            new EngineOptions().latencyHistogram(false).issueLateness(false), requested.scenario(),
            requested.useTokenLatencies(), console);
        final DetailLog log = new DetailLog(files.detail(), logSettings.copyDetailToStdout() ? console : null,
            System::nanoTime);
        try
        {
            log.stamp();
            log.log("loadgen_version", VersionInfo.version() + " @ NA");
            log.log("test_datetime", testDatetime);
            log.unstamp();
            log.error("error_runtime", reason);
        }
        finally
        {
            files.close(log);
            log.close();
        }
        return files.summary();
    }
}
