package org.jloadgen.api;

/**
 * The four MLPerf scenarios, with LoadGen's numeric codes and log strings (spec §2.1; loadgen/test_settings.h,
 * TestScenario, and ToString in test_settings_internal.cc).
 */
public enum TestScenario
{
    SINGLE_STREAM(0, "SingleStream"),
    MULTI_STREAM(1, "MultiStream"),
    SERVER(2, "Server"),
    OFFLINE(3, "Offline");

    private final int code;
    private final String logName;

    TestScenario(final int code, final String logName)
    {
        this.code = code;
        this.logName = logName;
    }

    /**
     * @return LoadGen's enum value.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the string LoadGen writes in logs and uses as the scenario part of config keys.
     */
    public String logName()
    {
        return logName;
    }

    /**
     * @param name a log name such as {@code "Server"}.
     * @return the scenario.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static TestScenario fromLogName(final String name)
    {
        for (final TestScenario s : values())
        {
            if (s.logName.equals(name))
            {
                return s;
            }
        }
        throw new IllegalArgumentException(
            "unknown scenario '" + name + "' (expected SingleStream, MultiStream, Server or Offline)");
    }

    @Override
    public String toString()
    {
        return logName;
    }
}
