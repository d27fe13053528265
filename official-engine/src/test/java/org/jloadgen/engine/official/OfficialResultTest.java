package org.jloadgen.engine.official;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.bindings.LoadGenBridge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a run under the official LoadGen produced is read from LoadGen's own summary: its result line and its
 * warning and error counts; the log files are found as LoadGen names them, with or without the date and time.
 */
class OfficialResultTest
{
    private static final LoadGenBridge.Progress QUIET = new LoadGenBridge.Progress(10, 10, 0, 0, 0, 0, 0, false,
        false);

    @TempDir
    Path dir;

    @Test
    void shouldReadTheResultAndTheCountsOfTheSummary() throws IOException
    {
        Files.writeString(dir.resolve("mlperf_log_summary.txt"), "SUT name : X\nResult is : VALID\n  Min duration "
            + "satisfied : Yes\n\n2 warnings encountered. See detailed log.\n\nNo errors encountered during test.\n");
        Files.writeString(dir.resolve("mlperf_log_detail.txt"), "");
        final OfficialResult result = OfficialResult.read(OfficialResult.Outcome.COMPLETED, TestMode.PERFORMANCE_ONLY,
            LogFiles.find(new LogSettings().outputDirectory(dir)), null, QUIET);

        assertEquals(Boolean.TRUE, result.performanceValid());
        assertEquals(2, result.warningCount());
        assertEquals(0, result.errorCount());
        assertTrue(result.valid());
        assertNull(result.accuracyFile(), "no accuracy log written");
        assertTrue(result.messages().isEmpty());
    }

    @Test
    void shouldBeInvalidWithAnErrorOrWithoutAResult() throws IOException
    {
        Files.writeString(dir.resolve("mlperf_log_summary.txt"), "\nNo warnings encountered during test.\n\n"
            + "1 ERROR encountered. See detailed log.\n");
        final OfficialResult aborted = OfficialResult.read(OfficialResult.Outcome.ABORTED, TestMode.PERFORMANCE_ONLY,
            LogFiles.find(new LogSettings().outputDirectory(dir)), "the SUT threw",
            new LoadGenBridge.Progress(10, 10, 0, 2, 3, 0, 4, true, false));

        assertNull(aborted.performanceValid());
        assertEquals(1, aborted.errorCount());
        assertFalse(aborted.valid());
        assertEquals(4, aborted.messages().size(), aborted.messages().toString());
        assertTrue(aborted.messages().get(0).contains("the SUT threw"), aborted.messages().get(0));
    }

    @Test
    void shouldFindTheNewestFilesWhenNamesCarryTheDateAndTime() throws IOException
    {
        final Path old = Files.writeString(dir.resolve("run_2026-01-01T00:00:00Z_summary-x.txt"), "old");
        Files.setLastModifiedTime(old, FileTime.fromMillis(1_000));
        final Path newest = Files.writeString(dir.resolve("run_2026-01-02T00:00:00Z_summary-x.txt"), "new");
        Files.writeString(dir.resolve("other_summary-x.txt"), "not this prefix");

        final LogFiles files = LogFiles.find(new LogSettings().outputDirectory(dir).prefix("run_").suffix("-x")
            .prefixWithDatetime(true));

        assertEquals(newest, files.summary());
        assertNull(files.detail());
    }
}
