package org.jloadgen.benchmarks.overhead;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestScenario;

/**
 * One configuration the overhead runner runs: a {@code jloadgen run} command line against the null SUT (or the
 * one-worker null SUT), with the settings of the official LoadGen's example null-SUT runs
 * ({@code shared/data/example-logs}), or the command line of a native program (the C++ null SUT under the official
 * LoadGen, for the side-by-side comparison).
 *
 * @param id          short name, used by {@code --only}.
 * @param description what it is, for the table's notes.
 * @param scenario    the scenario.
 * @param minDurationMs its {@code min_duration_ms} (for wall time / min_duration).
 * @param arguments   the {@code jloadgen} arguments, or the program's (without {@code --out}).
 * @param executable  the native program, or {@code null} for {@code jloadgen} in a child JVM.
 */
public record Configuration(String id, String description, TestScenario scenario, long minDurationMs,
    List<String> arguments, Path executable)
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
        return new Configuration(id, description, scenario, minDurationMs, args, null);
    }

    /**
     * @param id            short name.
     * @param description   what it is.
     * @param scenario      the scenario.
     * @param minDurationMs {@code min_duration_ms}.
     * @param executable    the C++ null SUT ({@code benchmarks/official}), which takes {@code --scenario},
     *                      {@code --set}, {@code --quiet}, {@code --no-audit-config}, {@code --out} and
     *                      {@code --report} as {@code jloadgen run} and the overhead child do.
     * @param extra         its own options, e.g. {@code --completion worker}.
     * @param sets          {@code FIELD=VALUE} settings, each passed with {@code --set}.
     * @return the configuration of a quiet performance run of the C++ null SUT.
     */
    public static Configuration cppNullSut(final String id, final String description, final TestScenario scenario,
        final long minDurationMs, final Path executable, final List<String> extra, final String... sets)
    {
        final List<String> args = new ArrayList<>(List.of("--scenario", scenario.logName(), "--quiet",
            "--no-audit-config"));
        args.addAll(extra);
        args.add("--set");
        args.add("min_duration_ms=" + minDurationMs);
        for (final String s : sets)
        {
            args.add("--set");
            args.add(s);
        }
        return new Configuration(id, description, scenario, minDurationMs, args, executable);
    }

    /**
     * @param extra more arguments.
     * @return this configuration with {@code extra} appended.
     */
    public Configuration with(final List<String> extra)
    {
        final List<String> args = new ArrayList<>(arguments);
        args.addAll(extra);
        return new Configuration(id, description, scenario, minDurationMs, args, executable);
    }

    /**
     * @return the arguments as one shell-like line.
     */
    public String commandLine()
    {
        return (executable == null ? "jloadgen" : executable.getFileName().toString()) + " " + String.join(" ",
            arguments);
    }
}
