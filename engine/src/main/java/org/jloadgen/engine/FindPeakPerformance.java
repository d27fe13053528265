package org.jloadgen.engine;

import static org.jloadgen.clib.CFormat.stdToString;

import java.util.function.Consumer;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.log.DetailLog;
import org.jloadgen.schedule.LoadableSet;

/**
 * FindPeakPerformance (spec §3.7; loadgen/loadgen.cc, FindPeakPerformanceMode): from the requested Server target,
 * multiply the target by {@code 1 + server_find_peak_qps_boundary_step_size} until the latency constraint fails, then
 * bisect between the last passing and the first failing target to {@code server_find_peak_qps_decimals_of_precision},
 * and report the run at the peak. Logs LoadGen's messages, number formats included. An aborted search stops at once and
 * reports the series it stopped in.
 */
final class FindPeakPerformance
{
    private final SeriesRunner series;
    private final DetailLog detail;
    private final Consumer<SeriesRun> report;
    private final Consumer<String> step;

    /**
     * @param series runs the series.
     * @param detail the detail log.
     * @param report reports the run at the peak (or the failing first run).
     * @param step   shows which step of the search runs (a progress display).
     */
    FindPeakPerformance(final SeriesRunner series, final DetailLog detail, final Consumer<SeriesRun> report,
        final Consumer<String> step)
    {
        this.series = series;
        this.detail = detail;
        this.report = report;
        this.step = step;
    }

    /**
     * @param base the test's effective settings.
     */
    void run(final EffectiveSettings base)
    {
        if (base.scenario != TestScenario.SERVER)
        {
            detail.error("error_invalid_config", "Finding peak performance is only supported in Server scenarios.");
            return;
        }
        detail.log("generic_message", "Starting FindPeakPerformance mode");
        step.accept("FindPeakPerformance: initial lower bound " + stdToString(base.targetQps) + " QPS");
        final SeriesRun first = series.loadRunUnload(base, series.performanceSet(base), TestMode.PERFORMANCE_ONLY);
        if (series.aborted())
        {
            // An aborted search reports the series it stopped in, whose summary says why.
            report.accept(first);
            return;
        }
        if (!first.summary().perfConstraintsMet())
        {
            detail.error("error_runtime", "FindPeakPerformance: Initial lower bound does not satisfy performance "
                + "constraints, msg: " + first.summary().perfConstraintsRecommendation());
            report.accept(first);
            return;
        }

        SeriesRun lower = first;
        SeriesRun upper;
        while (true)
        {
            final EffectiveSettings u = lower.settings().withTargetQps(
                lower.settings().targetQps * (1 + base.serverFindPeakQpsBoundaryStepSize));
            detail.log("generic_message", "FindBoundaries: Checking fields [" + stdToString(lower.settings().targetQps)
                + ", " + stdToString(u.targetQps) + ")");
            step.accept("FindPeakPerformance: boundaries, testing " + stdToString(u.targetQps) + " QPS");
            upper = series.loadRunUnload(u, series.performanceSet(u), TestMode.PERFORMANCE_ONLY);
            if (series.aborted())
            {
                report.accept(upper);
                return;
            }
            if (!upper.summary().perfConstraintsMet())
            {
                break;
            }
            lower = upper;
        }
        detail.log("generic_message", "FindPeakPerformance: Found boundaries: ["
            + stdToString(lower.settings().targetQps) + ", " + stdToString(upper.settings().targetQps) + ")");

        // The binary search keeps the upper bound's first loadable set loaded throughout, as LoadGen does.
        final LoadableSet set = series.performanceSet(upper.settings());
        series.load(set);
        try
        {
            final double scale = Math.pow(10, base.serverFindPeakQpsDecimalsOfPrecision);
            while (Math.floor(lower.settings().targetQps * scale) + 1 < Math.floor(upper.settings().targetQps * scale))
            {
                final double lo = lower.settings().targetQps;
                final double hi = upper.settings().targetQps;
                final EffectiveSettings mid = base.withTargetQps(lo + (hi - lo) / 2);
                detail.log("generic_message", "FindPeakPerformanceBinarySearch: Testing the mid value of bounds ["
                    + stdToString(lo) + ", " + stdToString(hi) + "): " + stdToString(mid.targetQps));
                step.accept("FindPeakPerformance: binary search [" + stdToString(lo) + ", " + stdToString(hi)
                    + "), testing " + stdToString(mid.targetQps) + " QPS");
                final SeriesRun m = series.run(mid, set, TestMode.PERFORMANCE_ONLY);
                if (series.aborted())
                {
                    report.accept(m);
                    return;
                }
                if (m.summary().perfConstraintsMet())
                {
                    lower = m;
                }
                else
                {
                    upper = m;
                }
            }
            detail.log("generic_message", "FindPeakPerformance: Found peak performance field: "
                + stdToString(lower.settings().targetQps));
            report.accept(lower);
        }
        finally
        {
            series.unload(set);
        }
    }
}
