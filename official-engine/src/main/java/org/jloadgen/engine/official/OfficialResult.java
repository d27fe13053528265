package org.jloadgen.engine.official;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.api.TestMode;
import org.jloadgen.bindings.LoadGenBridge;

/**
 * What a test under the official LoadGen produced: how it ended, LoadGen's log files, and what they say (the
 * summary's result line and its warning and error counts, which LoadGen counts itself).
 *
 * @param outcome          how the test ended.
 * @param mode             the test mode after the config files and assignments.
 * @param summaryFile      {@code mlperf_log_summary.txt}, or {@code null} when LoadGen wrote none.
 * @param detailFile       {@code mlperf_log_detail.txt}, or {@code null}.
 * @param accuracyFile     {@code mlperf_log_accuracy.json}, or {@code null}.
 * @param traceFile        {@code mlperf_log_trace.json} when tracing was on, else {@code null}.
 * @param performanceValid the summary's {@code Result is : VALID}, {@code null} when it has no result (accuracy
 *                         runs, aborted runs).
 * @param errorCount       LoadGen's error count (its summary's last lines).
 * @param warningCount     LoadGen's warning count.
 * @param failure          why the SUT failed, or {@code null}.
 * @param progress         the bridge's counters at the end.
 */
public record OfficialResult(Outcome outcome, TestMode mode, Path summaryFile, Path detailFile, Path accuracyFile,
    Path traceFile, Boolean performanceValid, int errorCount, int warningCount, String failure,
    LoadGenBridge.Progress progress)
{
    private static final Pattern RESULT = Pattern.compile("(?m)^Result is : (VALID|INVALID)\\s*$");
    private static final Pattern ERRORS = Pattern.compile("(?m)^(\\d+) ERRORS? encountered");
    private static final Pattern WARNINGS = Pattern.compile("(?m)^(\\d+) warnings? encountered");

    /**
     * How the test ended.
     */
    public enum Outcome
    {
        /** LoadGen ran the test to its end. */
        COMPLETED,
        /** The SUT failed; the test ended through LoadGen's AbortTest. */
        ABORTED,
        /** LoadGen could not open its log files and ran nothing. */
        NO_LOGS,
        /** A test already ran in this process (LoadGen runs one per process). */
        ALREADY_RAN,
        /** LoadGen's StartTest threw. */
        INTERNAL_ERROR
    }

    /**
     * @return whether the run is valid: it completed, its performance result is VALID and LoadGen logged no error.
     */
    public boolean valid()
    {
        return outcome == Outcome.COMPLETED && Boolean.TRUE.equals(performanceValid) && errorCount == 0;
    }

    /**
     * @param outcome  how the test ended.
     * @param mode     the test mode.
     * @param files    LoadGen's files.
     * @param failure  why the SUT failed, or {@code null}.
     * @param progress the bridge's counters.
     * @return the result, read from the summary.
     */
    static OfficialResult read(final Outcome outcome, final TestMode mode, final LogFiles files, final String failure,
        final LoadGenBridge.Progress progress)
    {
        Boolean performanceValid = null;
        int errors = 0;
        int warnings = 0;
        if (files.summary() != null && Files.isRegularFile(files.summary()))
        {
            final String summary = readString(files.summary());
            final Matcher result = RESULT.matcher(summary);
            performanceValid = result.find() ? "VALID".equals(result.group(1)) : null;
            errors = count(ERRORS, summary);
            warnings = count(WARNINGS, summary);
        }
        return new OfficialResult(outcome, mode, files.summary(), files.detail(), files.accuracy(), files.trace(),
            performanceValid, errors, warnings, failure, progress);
    }

    /**
     * @return the messages for the console: the failure and the completions the bridge dropped.
     */
    public List<String> messages()
    {
        final List<String> messages = new ArrayList<>();
        if (failure != null)
        {
            messages.add("the test ended early because " + failure + " (LoadGen's logs say so: see the detail log's "
                + "error_runtime records)");
        }
        if (progress.duplicates() > 0)
        {
            messages.add(progress.duplicates() + " completions of samples already complete were dropped (a sample "
                + "completed twice)");
        }
        if (progress.unknown() > 0)
        {
            messages.add(progress.unknown() + " completions of ids that were not outstanding were dropped (never "
                + "issued, or from an earlier series)");
        }
        if (progress.drained() > 0)
        {
            messages.add(progress.drained() + " samples were completed by the bridge on the SUT's behalf after it "
                + "failed, so LoadGen could end");
        }
        return List.copyOf(messages);
    }

    private static int count(final Pattern pattern, final String text)
    {
        final Matcher m = pattern.matcher(text);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static String readString(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
    }
}
