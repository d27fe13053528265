package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the checker will demand, checked before anything runs: the checker version and benchmarks, every system
 * description field the version requires (and those that must not be empty), measurements.json's fields, the seeds
 * of LoadGen's mlperf.conf against the checker's, and the user's user.conf lines that the checker would reject
 * (seeds, a shorter minimum duration, a smaller performance sample count, a longer latency bound, fewer queries).
 */
final class Preflight
{
    /** System fields written as JSON integers (the checker's result export calls int() on two of them). */
    static final List<String> INTEGER_FIELDS = List.of("number_of_nodes", "host_processors_per_node",
        "host_processor_core_count", "accelerators_per_node");
    private static final List<String> SYSTEM_TYPES = List.of("datacenter", "edge", "datacenter,edge",
        "edge,datacenter");

    private final SubmissionConfig config;
    private final OfficialTools tools;
    private final boolean rehearsal;
    private final List<String> problems = new ArrayList<>();

    private Preflight(final SubmissionConfig config, final OfficialTools tools, final boolean rehearsal)
    {
        this.config = config;
        this.tools = tools;
        this.rehearsal = rehearsal;
    }

    /**
     * @param config    the configuration.
     * @param tables    the checker's tables per benchmark name.
     * @param tools     the official files.
     * @param rehearsal whether short runs are intended (the minimum duration is not checked then).
     * @return every problem found, each naming the key or file; empty when the flow may start.
     */
    static List<String> check(final SubmissionConfig config, final Map<String, CheckerTables> tables,
        final OfficialTools tools, final boolean rehearsal)
    {
        final Preflight p = new Preflight(config, tools, rehearsal);
        p.system(tables.values().iterator().next());
        final Map<String, String> loadgenSeeds = p.loadgenSeeds();
        for (final SubmissionConfig.Benchmark b : config.benchmarks())
        {
            p.benchmark(b, tables.get(b.name()), loadgenSeeds);
        }
        p.python();
        return List.copyOf(p.problems);
    }

    private void system(final CheckerTables t)
    {
        final ConfigFile c = config.source();
        final Map<String, String> fields = config.systemFields();
        for (final String field : t.systemRequired())
        {
            if (field.equals("division") || field.equals("submitter"))
            {
                continue;
            }
            if (!fields.containsKey(field))
            {
                problems.add(c.name() + ": system." + field + " is missing (checker " + config.checkerVersion()
                    + " requires it in systems/" + config.system() + ".json)");
            }
            else if (t.systemMeaningful().contains(field) && fields.get(field).isBlank())
            {
                problems.add(c.name() + ": system." + field + " is empty (checker " + config.checkerVersion()
                    + " requires a meaningful value)");
            }
        }
        for (final String key : List.of("division", "submitter"))
        {
            if (fields.containsKey(key))
            {
                problems.add(c.name() + ": system." + key + ": leave it out, it is taken from " + key + " = ...");
            }
        }
        final String status = fields.getOrDefault("status", "");
        if (!status.isEmpty() && !t.statuses().contains(status.toLowerCase(Locale.ROOT)))
        {
            problems.add(c.name() + ": system.status '" + status + "' is not one of " + t.statuses());
        }
        final String type = fields.getOrDefault("system_type", "");
        if (!type.isEmpty() && !SYSTEM_TYPES.contains(type))
        {
            problems.add(c.name() + ": system.system_type '" + type + "' is not one of " + SYSTEM_TYPES);
        }
        for (final String field : INTEGER_FIELDS)
        {
            final String value = fields.get(field);
            if (value != null && !value.matches("\\d+"))
            {
                problems.add(c.name() + ": system." + field + " must be a whole number, got '" + value + "'");
            }
        }
    }

    private void benchmark(final SubmissionConfig.Benchmark b, final CheckerTables t,
        final Map<String, String> loadgenSeeds)
    {
        final ConfigFile c = config.source();
        final String p = b.name() + ".";
        if (!t.hasVersion())
        {
            problems.add(c.name() + ": checker_version " + config.checkerVersion() + " is not a version of the checker"
                + " (it has " + String.join(", ", t.versions()) + ")");
            return;
        }
        if (!t.known())
        {
            problems.add(c.name() + ": " + p + "mlperf_model " + b.mlperfModel() + " is not a benchmark of checker "
                + config.checkerVersion() + " (it has " + String.join(", ", t.models()) + ")");
            return;
        }
        if (!config.division().equals("open") && !t.plainModel().equals(t.mlperfModel()))
        {
            problems.add(c.name() + ": the " + config.division() + " division reads no model mapping: benchmark '"
                + b.name() + "' must be named as the checker names " + b.mlperfModel() + " (it reads '" + b.name()
                + "' as '" + t.plainModel() + "')");
        }
        for (final String field : t.measurementFields())
        {
            final String value = b.measurements().get(field);
            if (value == null || value.isBlank())
            {
                problems.add(c.name() + ": " + p + "measurements." + field + " is "
                    + (value == null ? "missing" : "empty") + " (checker " + config.checkerVersion()
                    + " requires it in measurements.json)");
            }
        }
        for (final Map.Entry<String, String> seed : t.seeds().entrySet())
        {
            final String loadgen = loadgenSeeds.get(seed.getKey());
            if (!seed.getValue().equals(loadgen))
            {
                problems.add(tools.loadgen().resolve("mlperf.conf") + ": " + seed.getKey() + " is " + loadgen
                    + " but checker " + config.checkerVersion() + " demands " + seed.getValue()
                    + " (use the LoadGen that belongs to this checker version)");
            }
        }
        if (b.userConf().isPresent())
        {
            userConf(b, t, b.userConf().get());
        }
        final String program = b.accuracyCommand().get(0);
        if (!program.equals("jloadgen") && !program.startsWith("{home}") && !onPath(program))
        {
            problems.add(c.name() + ": " + p + "accuracy_command: '" + program + "' is neither jloadgen nor a program "
                + "on the PATH");
        }
    }

    /**
     * The user's user.conf lines that apply to this benchmark and would break a check.
     */
    private void userConf(final SubmissionConfig.Benchmark b, final CheckerTables t, final Path file)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot read: " + ex.getMessage(), ex);
        }
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).replaceAll("#.*", "").strip();
            final int eq = line.indexOf('=');
            if (line.isEmpty() || eq < 0)
            {
                continue;
            }
            final String[] key = line.substring(0, eq).strip().split("\\.");
            final String value = line.substring(eq + 1).strip();
            if (key.length != 3 || !(key[0].equals("*") || key[0].equals(b.loadgenModel())))
            {
                continue;
            }
            final String where = file + ":" + (i + 1) + ": " + line.substring(0, eq).strip();
            final String name = key[2];
            if (name.contains("seed"))
            {
                problems.add(where + ": seeds come from mlperf.conf; the checker rejects any other");
            }
            else if (name.equals("mode"))
            {
                problems.add(where + ": the tool sets the mode of each run; remove this line");
            }
            for (final String scenario : b.scenarios())
            {
                if (!(key[1].equals("*") || key[1].equals(scenario)))
                {
                    continue;
                }
                final double v = parse(value);
                if (name.equals("min_duration") && !rehearsal && v < t.testDurationMs())
                {
                    problems.add(where + ": " + value + " ms is under the checker's " + t.testDurationMs() + " ms");
                }
                if (name.equals("performance_sample_count_override") && v > 0 && v < t.performanceSamples())
                {
                    problems.add(where + ": " + value + " is under the checker's performance sample count "
                        + t.performanceSamples() + " for " + t.mlperfModel());
                }
                final Long bound = t.latencyNs().get(scenario);
                if (name.equals("target_latency") && bound != null && v * 1e6 > bound)
                {
                    problems.add(where + ": " + value + " ms is above the checker's " + scenario + " bound of "
                        + bound / 1e6 + " ms for " + t.mlperfModel());
                }
                final Long queries = t.minQueries().get(scenario);
                if (name.equals("min_query_count") && queries != null && scenario.equals("Offline") && v < queries)
                {
                    problems.add(where + ": " + value + " is under the checker's " + queries + " queries");
                }
            }
        }
    }

    private static double parse(final String value)
    {
        try
        {
            return Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN;
        }
    }

    /**
     * @return the {@code *.*.*_seed} lines of LoadGen's mlperf.conf.
     */
    private Map<String, String> loadgenSeeds()
    {
        final Path conf = tools.loadgen().resolve("mlperf.conf");
        final Map<String, String> seeds = new LinkedHashMap<>();
        try
        {
            for (final String raw : Files.readAllLines(conf, StandardCharsets.UTF_8))
            {
                final String line = raw.replaceAll("#.*", "").strip();
                final int eq = line.indexOf('=');
                if (eq > 0 && line.startsWith("*.*.") && line.substring(0, eq).strip().endsWith("_seed"))
                {
                    seeds.put(line.substring("*.*.".length(), eq).strip(), line.substring(eq + 1).strip());
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(conf + ": cannot read: " + ex.getMessage(), ex);
        }
        return seeds;
    }

    /**
     * The checker imports yaml, the compliance scripts numpy.
     */
    private void python()
    {
        try
        {
            final Process process = new ProcessBuilder(tools.python(), "-c", "import numpy, yaml")
                .redirectErrorStream(true).start();
            process.getOutputStream().close();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                problems.add(tools.python() + " lacks a module the official scripts import (the checker needs yaml, "
                    + "the compliance scripts numpy; Debian: apt-get install python3-yaml python3-numpy): "
                    + output.strip().lines().reduce((a, z) -> z).orElse(""));
            }
        }
        catch (final IOException ex)
        {
            problems.add("cannot run " + tools.python() + ": " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean onPath(final String program)
    {
        if (program.contains("/"))
        {
            return Files.isExecutable(Path.of(program));
        }
        final String path = System.getenv("PATH");
        if (path == null)
        {
            return false;
        }
        for (final String dir : path.split(":"))
        {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program)))
            {
                return true;
            }
        }
        return false;
    }
}
