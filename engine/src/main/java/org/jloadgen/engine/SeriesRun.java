package org.jloadgen.engine;

import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.results.PerformanceSummary;

/**
 * A finished performance series with the settings it ran at.
 *
 * @param settings its effective settings.
 * @param summary  its results.
 */
record SeriesRun(EffectiveSettings settings, PerformanceSummary summary)
{
}
