package org.jloadgen.engine;

import java.nio.file.Path;
import java.util.List;

import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.results.PerformanceSummary;

/**
 * What a test produced: the performance summaries (one per reported performance run), the files written and
 * the error and warning counts of the detail log.
 *
 * @param effective       the effective settings of the test.
 * @param performance     the reported performance summaries (empty for AccuracyOnly; FindPeakPerformance
 *                        reports the run at the peak).
 * @param accuracySeries  number of accuracy series run.
 * @param summaryFile     {@code mlperf_log_summary.txt}.
 * @param detailFile      {@code mlperf_log_detail.txt}.
 * @param accuracyFile    {@code mlperf_log_accuracy.json}.
 * @param traceFile       {@code mlperf_log_trace.json}, or {@code null} when tracing was off.
 * @param latencyLogFile  the HdrHistogram interval log, or {@code null}.
 * @param issueLatenessFile the Server issue lateness log, or {@code null}.
 * @param jfrFile         the flight recording, or {@code null}.
 * @param errorCount      error records in the detail log.
 * @param warningCount    warning records in the detail log.
 * @param messages        the issue-loop stop messages and errors, in order, for the console.
 * @param abortReason     why the engine cut the test short (an abort such as an interrupt, a SUT that failed or
 *                        stopped completing), or {@code null} when it ran to its end.
 */
public record TestResult(
    EffectiveSettings effective,
    List<PerformanceSummary> performance,
    int accuracySeries,
    Path summaryFile,
    Path detailFile,
    Path accuracyFile,
    Path traceFile,
    Path latencyLogFile,
    Path issueLatenessFile,
    Path jfrFile,
    int errorCount,
    int warningCount,
    List<String> messages,
    String abortReason)
{
    /**
     * @return whether the test was cut short ({@link #abortReason()}).
     */
    public boolean aborted()
    {
        return abortReason != null;
    }

    /**
     * @return whether the last reported performance run is VALID and no error was logged.
     */
    public boolean valid()
    {
        return !performance.isEmpty() && performance.get(performance.size() - 1).valid() && errorCount == 0;
    }
}
