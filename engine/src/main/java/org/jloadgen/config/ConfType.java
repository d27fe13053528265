package org.jloadgen.config;

/**
 * The three kinds of config file, with LoadGen's {@code conf_type} numbers (spec §2.3;
 * loadgen/test_settings_internal.cc, TestSettings::FromConfig). The kind decides which keys a file may set: the RNG
 * seeds, {@code accuracy_log_probability} and the {@code test05} keys are read from mlperf.conf only.
 */
public enum ConfType
{
    /** The official defaults, mlperf.conf ({@code conf_type 0}). */
    MLPERF(0, "mlperf.conf"),
    /** The submitter's settings, user.conf ({@code conf_type 1}). */
    USER(1, "user.conf"),
    /** Compliance-test overrides, audit.config ({@code conf_type 2}), read with model {@code "*"}. */
    AUDIT(2, "audit.config");

    private final int code;
    private final String fileName;

    ConfType(final int code, final String fileName)
    {
        this.code = code;
        this.fileName = fileName;
    }

    /**
     * @return LoadGen's {@code conf_type} value.
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the usual file name of this kind, for messages.
     */
    public String fileName()
    {
        return fileName;
    }
}
