package org.jloadgen.benchmarks.overhead;

import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestScenario;

/**
 * One configuration the overhead runner runs: a {@code jloadgen run} command line against the null SUT (or the
 * one-worker null SUT), with the settings of the official LoadGen's example null-SUT runs
 * ({@code shared/data/example-logs}).
 *
 * @param id          short name, used by {@code --only}.
 * @param description what it is, for the table's notes.
 * @param scenario    the scenario.
 * @param minDurationMs its {@code min_duration_ms} (for wall time / min_duration).
 * @param arguments   the {@code jloadgen} arguments (without {@code --out}).
 */
public record Configuration(String id, String description, TestScenario scenario, long minDurationMs,
    List<String> arguments)
{
    /**
     * Validates and copies.
     */
    public Configuration
    {
        arguments = List.copyOf(arguments);
    }

    /**
     * @param id            short name.
     * @param description   what it is.
     * @param scenario      the scenario.
     * @param minDurationMs {@code min_duration_ms}.
     * @param sut           SUT name for {@code --sut}.
     * @param sets          {@code FIELD=VALUE} settings, each passed with {@code --set}.
     * @return the configuration of a quiet performance run that ignores any audit.config in the working directory.
     */
    public static Configuration of(final String id, final String description, final TestScenario scenario,
        final long minDurationMs, final String sut, final String... sets)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--sut", sut, "--scenario", scenario.logName(),
            "--quiet", "--no-audit-config"));
        args.add("--set");
        args.add("min_duration_ms=" + minDurationMs);
        for (final String s : sets)
        {
            args.add("--set");
            args.add(s);
        }
        return new Configuration(id, description, scenario, minDurationMs, args);
    }

    /**
     * @param extra more arguments.
     * @return this configuration with {@code extra} appended.
     */
    public Configuration with(final List<String> extra)
    {
        final List<String> args = new ArrayList<>(arguments);
        args.addAll(extra);
        return new Configuration(id, description, scenario, minDurationMs, args);
    }

    /**
     * @return the arguments as one shell-like line.
     */
    public String commandLine()
    {
        return "jloadgen " + String.join(" ", arguments);
    }
}
