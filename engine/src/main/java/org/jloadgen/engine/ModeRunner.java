package org.jloadgen.engine;

import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.log.DetailLog;
import org.jloadgen.log.ResultsLog;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.schedule.LoadableSet;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.ReplayQueries;

/**
 * Runs a test's mode (spec §3.9; loadgen/loadgen.cc, RunPerformanceMode, RunAccuracyMode): PerformanceOnly (generated,
 * or a replayed trace), AccuracyOnly (every accuracy set), SubmissionRun (both) or FindPeakPerformance, and reports
 * each performance result to the detail log and the summary.
 */
final class ModeRunner
{
    private final SeriesRunner series;
    private final TestLogs logs;
    private final DetailLog detail;
    private final long qslTotalCount;
    private final ReplayQueries replay;
    private final RunStatus status;
    private final List<PerformanceSummary> reported = new ArrayList<>();
    private int accuracySeries;

    /**
     * @param series        runs the series.
     * @param logs          the test's open logs.
     * @param qslTotalCount the sample library's total sample count.
     * @param replay        recorded queries to replay instead of a generated performance run, or {@code null}.
     * @param status        where the step is shown.
     */
    ModeRunner(final SeriesRunner series, final TestLogs logs, final long qslTotalCount, final ReplayQueries replay,
        final RunStatus status)
    {
        this.series = series;
        this.logs = logs;
        this.detail = logs.detail();
        this.qslTotalCount = qslTotalCount;
        this.replay = replay;
        this.status = status;
    }

    /**
     * @param effective the test's effective settings.
     */
    void run(final EffectiveSettings effective)
    {
        switch (effective.mode)
        {
            case PERFORMANCE_ONLY ->
            {
                if (replay != null)
                {
                    runReplay(effective);
                }
                else
                {
                    runPerformance(effective);
                }
            }
            case ACCURACY_ONLY -> runAccuracy(effective);
            case SUBMISSION_RUN ->
            {
                runAccuracy(effective);
                if (!series.aborted())
                {
                    runPerformance(effective);
                }
            }
            case FIND_PEAK_PERFORMANCE -> new FindPeakPerformance(series, detail, this::report, status::step)
                .run(effective);
            default -> throw new IllegalStateException("unknown mode " + effective.mode);
        }
    }

    /**
     * @return the reported performance summaries, in order.
     */
    List<PerformanceSummary> reported()
    {
        return List.copyOf(reported);
    }

    /**
     * @return number of accuracy series run.
     */
    int accuracySeries()
    {
        return accuracySeries;
    }

    private void runPerformance(final EffectiveSettings settings)
    {
        detail.log("generic_message", "Starting performance mode");
        status.step("performance run");
        report(series.loadRunUnload(settings, series.performanceSet(settings), TestMode.PERFORMANCE_ONLY));
    }

    private void runReplay(final EffectiveSettings settings)
    {
        detail.log("generic_message", "Starting performance mode");
        status.step("replaying " + replay.source().substring(replay.source().lastIndexOf('/') + 1));
        detail.log("generic_message", "Replaying " + replay.queryCount() + " queries (" + replay.sampleCount()
            + " samples) from " + replay.source());
        final LoadableSet set = replay.loadableSet();
        series.load(set);
        try
        {
            report(series.runReplay(settings, replay, set));
        }
        finally
        {
            series.unload(set);
        }
    }

    private void runAccuracy(final EffectiveSettings settings)
    {
        detail.log("generic_message", "Starting accuracy mode");
        final List<LoadableSet> sets = LoadableSets.generate(settings.accuracySampleCount, qslTotalCount,
            settings.performanceSampleCount, settings.scenario, settings.samplesPerQuery, settings.qslRngSeed);
        for (final LoadableSet set : sets)
        {
            if (series.aborted())
            {
                return;
            }
            status.step("accuracy set " + (accuracySeries + 1) + "/" + sets.size());
            series.loadRunUnload(settings, set, TestMode.ACCURACY_ONLY);
            accuracySeries++;
        }
    }

    private void report(final SeriesRun run)
    {
        ResultsLog.logResults(detail, run.summary());
        logs.files().summaryWriter().append(run.summary());
        reported.add(run.summary());
    }
}
