package org.jloadgen.api;

import java.nio.file.Path;

/**
 * Where and how the engine writes its logs: LoadGen's {@code LogOutputSettings} plus {@code enable_trace}
 * (spec §1.7; loadgen/test_settings.h, LogSettings). File names are
 * {@code outdir/prefix[datetime_]{summary,detail,accuracy,trace}suffix.{txt,json}}. Unlike LoadGen, the Chrome trace is
 * off by default: it is large on long runs.
 */
public final class LogSettings
{
    private Path outputDirectory = Path.of(".");
    private String prefix = "mlperf_log_";
    private String suffix = "";
    private boolean prefixWithDatetime = false;
    private boolean copyDetailToStdout = false;
    private boolean copySummaryToStdout = false;
    private boolean enableTrace = false;

    /**
     * @return a copy of these settings.
     */
    public LogSettings copy()
    {
        final LogSettings c = new LogSettings();
        c.outputDirectory = outputDirectory;
        c.prefix = prefix;
        c.suffix = suffix;
        c.prefixWithDatetime = prefixWithDatetime;
        c.copyDetailToStdout = copyDetailToStdout;
        c.copySummaryToStdout = copySummaryToStdout;
        c.enableTrace = enableTrace;
        return c;
    }

    /**
     * @return directory the log files are written to (created if missing).
     */
    public Path outputDirectory()
    {
        return outputDirectory;
    }

    /**
     * @param value directory the log files are written to.
     * @return this.
     */
    public LogSettings outputDirectory(final Path value)
    {
        this.outputDirectory = value;
        return this;
    }

    /**
     * @return file name prefix, {@code "mlperf_log_"} by default.
     */
    public String prefix()
    {
        return prefix;
    }

    /**
     * @param value file name prefix.
     * @return this.
     */
    public LogSettings prefix(final String value)
    {
        this.prefix = value;
        return this;
    }

    /**
     * @return file name suffix placed before the extension.
     */
    public String suffix()
    {
        return suffix;
    }

    /**
     * @param value file name suffix placed before the extension.
     * @return this.
     */
    public LogSettings suffix(final String value)
    {
        this.suffix = value;
        return this;
    }

    /**
     * @return whether the test date and time follow the prefix.
     */
    public boolean prefixWithDatetime()
    {
        return prefixWithDatetime;
    }

    /**
     * @param value whether the test date and time follow the prefix.
     * @return this.
     */
    public LogSettings prefixWithDatetime(final boolean value)
    {
        this.prefixWithDatetime = value;
        return this;
    }

    /**
     * @return whether the detail log is also printed to standard output.
     */
    public boolean copyDetailToStdout()
    {
        return copyDetailToStdout;
    }

    /**
     * @param value whether the detail log is also printed to standard output.
     * @return this.
     */
    public LogSettings copyDetailToStdout(final boolean value)
    {
        this.copyDetailToStdout = value;
        return this;
    }

    /**
     * @return whether the summary is also printed to standard output.
     */
    public boolean copySummaryToStdout()
    {
        return copySummaryToStdout;
    }

    /**
     * @param value whether the summary is also printed to standard output.
     * @return this.
     */
    public LogSettings copySummaryToStdout(final boolean value)
    {
        this.copySummaryToStdout = value;
        return this;
    }

    /**
     * @return whether {@code mlperf_log_trace.json} (Chrome trace format) is written.
     */
    public boolean enableTrace()
    {
        return enableTrace;
    }

    /**
     * @param value whether {@code mlperf_log_trace.json} (Chrome trace format) is written.
     * @return this.
     */
    public LogSettings enableTrace(final boolean value)
    {
        this.enableTrace = value;
        return this;
    }
}
