package org.jloadgen.benchmarks.overhead;

import java.nio.file.Path;
import java.util.List;

import org.jloadgen.log.DetailLogValues;

/**
 * One repeat of one configuration, run in its own JVM.
 *
 * @param configuration the configuration.
 * @param repeat      repeat number, from 1.
 * @param command     the child's command line.
 * @param runDir      where its logs are.
 * @param exitCode    the child's exit status (-1 if it was killed after the time limit).
 * @param wallNs      whole-process wall time: from starting the child to its exit.
 * @param peakRssKib  the child's peak resident set size ({@code VmHWM}), or -1 if unknown.
 * @param detail      the values of its detail log, or {@code null} if it wrote none.
 * @param busyBefore  machine-wide CPU use in the second before the run (other processes), or NaN if unknown.
 * @param otherCpu    CPU used by other processes while the run ran, as a fraction of the machine (all CPUs over
 *                    the run's wall time), or NaN if unknown.
 */
public record RunResult(
    Configuration configuration,
    int repeat,
    List<String> command,
    Path runDir,
    int exitCode,
    long wallNs,
    long peakRssKib,
    DetailLogValues detail,
    double busyBefore,
    double otherCpu)
{
    /**
     * @return whole-process wall time divided by the configuration's {@code min_duration}.
     */
    public double wallPerMinDuration()
    {
        return wallNs / 1e6 / configuration.minDurationMs();
    }

    /**
     * @return whether the run finished VALID with no error in its log.
     */
    public boolean valid()
    {
        return detail != null && detail.valid();
    }

    /**
     * @param key a detail-log key with a numeric value.
     * @return the value.
     * @throws IllegalStateException naming the run if the log lacks it.
     */
    public double number(final String key)
    {
        if (detail == null)
        {
            throw new IllegalStateException(this + " wrote no detail log");
        }
        return detail.number(key).orElseThrow(() -> new IllegalStateException(
            "the detail log of " + configuration.id() + " run " + repeat + " (" + runDir + ") has no " + key));
    }

    /**
     * @return one line on why the run is not VALID, or an empty string.
     */
    public String problem()
    {
        if (detail == null)
        {
            return "no detail log (exit " + exitCode + ")";
        }
        if (!detail.errors().isEmpty())
        {
            return detail.errors().get(0);
        }
        if (detail.has("result_validity") && !detail.text("result_validity").equals("VALID"))
        {
            return "INVALID: " + (detail.has("result_invalid_reason") ? detail.text("result_invalid_reason").trim()
                : "no reason logged");
        }
        return "";
    }

    @Override
    public String toString()
    {
        return configuration.id() + " #" + repeat;
    }
}
