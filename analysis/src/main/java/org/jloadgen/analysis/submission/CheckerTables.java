package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The official checker's own tables for one benchmark, as {@code checker_tables.py} (beside this class) prints them
 * after importing the checker's {@code constants} and {@code configuration}: the compliance tests, seeds, limits,
 * required system and measurement fields and path templates of the checker version. Nothing here is a copy of the
 * checker's lists.
 *
 * @param versions           the checker's versions.
 * @param mlperfModel        the official benchmark the name resolves to.
 * @param plainModel         what the name resolves to without a model mapping (closed and network divisions).
 * @param known              whether the version lists that benchmark.
 * @param models             the version's benchmarks.
 * @param complianceTests    the compliance tests the version requires for it, in the checker's order.
 * @param seeds              seed name to value.
 * @param testDurationMs     the minimum duration of a performance run.
 * @param performanceSamples the minimum performance sample count.
 * @param latencyNs          latency constraint per scenario.
 * @param minQueries         minimum query count per scenario.
 * @param accuracyPatterns   accuracy.txt patterns per scenario.
 * @param systemRequired     the system description's required fields.
 * @param systemMeaningful   those that must not be empty.
 * @param statuses           valid "status" values.
 * @param measurementFields  measurements.json's required fields.
 * @param maxAccuracyLogBytes the largest truncated accuracy log.
 * @param paths              path templates by table name.
 */
record CheckerTables(List<String> versions, String mlperfModel, String plainModel, boolean known,
    List<String> models, List<String> complianceTests, Map<String, String> seeds, long testDurationMs,
    long performanceSamples, Map<String, Long> latencyNs, Map<String, Long> minQueries,
    Map<String, List<String>> accuracyPatterns, List<String> systemRequired, List<String> systemMeaningful,
    List<String> statuses,
    List<String> measurementFields, long maxAccuracyLogBytes, Map<String, String> paths)
{
    private static final String SCRIPT = "checker_tables.py";

    /**
     * Runs the helper against the checker in {@code tools}.
     *
     * @param tools       the official files.
     * @param scratch     a folder for the helper script.
     * @param version     the checker version.
     * @param benchmark   the benchmark's folder name.
     * @param mlperfModel the official benchmark it is mapped to.
     * @return the tables.
     */
    static CheckerTables read(final OfficialTools tools, final Path scratch, final String version,
        final String benchmark, final String mlperfModel)
    {
        try
        {
            Files.createDirectories(scratch);
            final Path script = scratch.resolve(SCRIPT);
            try (InputStream in = CheckerTables.class.getResourceAsStream(SCRIPT))
            {
                if (in == null)
                {
                    throw new IllegalStateException(SCRIPT + " is missing from the class path");
                }
                Files.write(script, in.readAllBytes());
            }
            final Process process = new ProcessBuilder(tools.python(), script.toString(),
                tools.submissionTools().toString(), version, benchmark, mlperfModel).redirectErrorStream(true).start();
            process.getOutputStream().close();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                throw new IllegalArgumentException("cannot read the official checker's tables from "
                    + tools.submissionTools() + " with " + tools.python() + ":\n" + output.strip());
            }
            return parse(output);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + tools.python() + " (python3 is needed for the official "
                + "checker and scripts): " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the checker's tables", ex);
        }
    }

    /**
     * @param output the helper's output.
     * @return the tables.
     */
    static CheckerTables parse(final String output)
    {
        final Map<String, List<String>> single = new HashMap<>();
        final Map<String, String> seeds = new LinkedHashMap<>();
        final Map<String, Long> latency = new LinkedHashMap<>();
        final Map<String, Long> queries = new LinkedHashMap<>();
        final Map<String, List<String>> patterns = new LinkedHashMap<>();
        final Map<String, String> paths = new LinkedHashMap<>();
        for (final String line : output.split("\n"))
        {
            if (line.isBlank())
            {
                continue;
            }
            final List<String> f = Arrays.asList(line.split("\t", -1));
            final List<String> rest = f.subList(1, f.size());
            switch (f.get(0))
            {
                case "seed" -> seeds.put(rest.get(0), rest.get(1));
                case "latency_constraint_ns" -> latency.put(rest.get(0), Long.parseLong(rest.get(1)));
                case "min_queries" -> queries.put(rest.get(0), Long.parseLong(rest.get(1)));
                case "accuracy_patterns" -> patterns.put(rest.get(0), List.copyOf(rest.subList(1, rest.size())));
                case "path" -> paths.put(rest.get(0), rest.get(1));
                default -> single.put(f.get(0), new ArrayList<>(rest.stream().filter(s -> !s.isEmpty()).toList()));
            }
        }
        return new CheckerTables(all(single, "versions"), first(single, "mlperf_model", ""),
            first(single, "mlperf_model_plain", ""),
            first(single, "known", "no").equals("yes"), all(single, "models"), all(single, "compliance_tests"), seeds,
            Long.parseLong(first(single, "test_duration_ms", "600000")),
            Long.parseLong(first(single, "performance_sample_count", "0")), latency, queries, patterns,
            all(single, "system_required"), all(single, "system_meaningful"), all(single, "system_status"),
            all(single, "measurements_required"), Long.parseLong(first(single, "max_accuracy_log_bytes", "10240")),
            paths);
    }

    /**
     * @return whether the helper found the version (it prints only the versions otherwise).
     */
    boolean hasVersion()
    {
        return !paths.isEmpty();
    }

    /**
     * @param table    a path table (e.g. {@code PERFORMANCE_LOG_PATH}).
     * @param division the division.
     * @param submitter the submitter.
     * @param system   the system.
     * @param benchmark the benchmark.
     * @param scenario the scenario.
     * @return the path the checker reads, relative to the tree's root.
     */
    String path(final String table, final String division, final String submitter, final String system,
        final String benchmark, final String scenario)
    {
        final String template = paths.get(table);
        if (template == null)
        {
            throw new IllegalStateException("the checker has no " + table);
        }
        return template.replace("{division}", division).replace("{submitter}", submitter).replace("{system}", system)
            .replace("{benchmark}", benchmark).replace("{scenario}", scenario)
            .replace("{file}", system + "_" + scenario + ".json");
    }

    private static List<String> all(final Map<String, List<String>> single, final String key)
    {
        return List.copyOf(single.getOrDefault(key, List.of()));
    }

    private static String first(final Map<String, List<String>> single, final String key, final String fallback)
    {
        final List<String> values = single.get(key);
        return values == null || values.isEmpty() ? fallback : values.get(0);
    }
}
