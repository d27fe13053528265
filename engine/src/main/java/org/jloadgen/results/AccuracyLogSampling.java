package org.jloadgen.results;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.config.EffectiveSettings;

/**
 * Which completed samples a series copies into the accuracy log: LoadGen's probability (spec §9.2; loadgen/loadgen.cc,
 * IssueQueries) and selection rule (spec §4.6; loadgen/loadgen.cc, ResponseDelegateDetailed::SampleComplete), as pure
 * functions. The engine draws the per-sample values and the per-series offset with LoadGen's generators and calls
 * {@link #selected} on the completion path (no allocation, two additions and a comparison).
 */
public final class AccuracyLogSampling
{
    private AccuracyLogSampling()
    {
    }

    /**
     * {@code accuracy_log_prob} of a performance series: {@code accuracy_log_probability}, or, when
     * {@code accuracy_log_sampling_target > 0}, {@code target / expected_samples} with
     * {@code expected_samples = max((uint64)(target_qps * min_duration_ms / 1000) * (Offline ? 1 : spq),
     * Offline ? min_sample_count : min_query_count * spq)}.
     *
     * @param settings effective settings of the series.
     * @return the probability; {@code +Infinity} (log every sample) when the expected count is 0, as LoadGen's
     *         division gives.
     */
    public static double probability(final EffectiveSettings settings)
    {
        if (settings.accuracyLogSamplingTarget == 0)
        {
            return settings.accuracyLogProbability;
        }
        final boolean offline = settings.scenario == TestScenario.OFFLINE;
        // double product and quotient, then truncated to uint64, as LoadGen's implicit conversion does.
        long expected = toUnsigned(settings.targetQps * (double)settings.minDurationMs / 1000.0);
        long minimum = settings.minQueryCount * settings.samplesPerQuery;
        if (!offline)
        {
            expected *= settings.samplesPerQuery;
        }
        else
        {
            minimum = settings.minSampleCount;
        }
        if (Long.compareUnsigned(expected, minimum) < 0)
        {
            expected = minimum;
        }
        return unsignedToDouble(settings.accuracyLogSamplingTarget) / unsignedToDouble(expected);
    }

    /**
     * LoadGen's per-sample value after the series offset: {@code (value + offset < 1) ? value + offset :
     * value + offset - 1}.
     *
     * @param accuracyLogValue the sample's draw from the default-seeded generator, in [0, 1).
     * @param offset           the series' draw from {@code mt19937(accuracy_log_rng_seed)}, in [0, 1).
     * @return the shifted value.
     */
    public static double shiftedValue(final double accuracyLogValue, final double offset)
    {
        return accuracyLogValue + offset < 1.0 ? accuracyLogValue + offset : accuracyLogValue + offset - 1.0;
    }

    /**
     * The selection rule: every sample in an accuracy series; in a performance series those whose shifted value is
     * at most the probability.
     *
     * @param seriesMode       mode of the series (AccuracyOnly or PerformanceOnly).
     * @param accuracyLogValue the sample's draw.
     * @param offset           the series offset.
     * @param probability      {@link #probability(EffectiveSettings)}.
     * @return whether the sample's response is copied into the accuracy log.
     */
    public static boolean selected(final TestMode seriesMode, final double accuracyLogValue, final double offset,
        final double probability)
    {
        return seriesMode == TestMode.ACCURACY_ONLY || shiftedValue(accuracyLogValue, offset) <= probability;
    }

    /** C++ double to uint64 conversion for the values that occur (non-negative, below 2^64). */
    private static long toUnsigned(final double value)
    {
        if (!(value > 0.0))
        {
            return 0;
        }
        if (value >= 0x1p63)
        {
            return (long)(value - 0x1p63) ^ Long.MIN_VALUE;
        }
        return (long)value;
    }

    private static double unsignedToDouble(final long value)
    {
        if (value >= 0)
        {
            return value;
        }
        // Halve (keeping the low bit for correct rounding), convert, double.
        return ((value >>> 1) | (value & 1L)) * 2.0;
    }
}
