package org.jloadgen.api;

/**
 * LoadGen test modes with the numbers the {@code mode} config key uses (spec §2.1; loadgen/test_settings.h, TestMode).
 */
public enum TestMode
{
    SUBMISSION_RUN(0, "SubmissionRun"),
    ACCURACY_ONLY(1, "AccuracyOnly"),
    PERFORMANCE_ONLY(2, "PerformanceOnly"),
    FIND_PEAK_PERFORMANCE(3, "FindPeakPerformance");

    private final int code;
    private final String logName;

    TestMode(final int code, final String logName)
    {
        this.code = code;
        this.logName = logName;
    }

    /**
     * @return the value of the {@code mode} config key for this mode.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the string LoadGen writes in logs.
     */
    public String logName()
    {
        return logName;
    }

    /**
     * @param code a {@code mode} config value.
     * @return the mode, or {@code null} if the code is not 0..3.
     */
    public static TestMode fromCode(final long code)
    {
        for (final TestMode m : values())
        {
            if (m.code == code)
            {
                return m;
            }
        }
        return null;
    }

    /**
     * @param name a log name such as {@code "PerformanceOnly"}.
     * @return the mode.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static TestMode fromLogName(final String name)
    {
        for (final TestMode m : values())
        {
            if (m.logName.equals(name))
            {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + name
            + "' (expected SubmissionRun, AccuracyOnly, PerformanceOnly or FindPeakPerformance)");
    }

    @Override
    public String toString()
    {
        return logName;
    }
}
