package org.jloadgen.analysis.submission;

import java.nio.file.Path;

/**
 * The folders of a submission's output ({@code --out}) and, inside the tree, the places the checker version reads
 * (from its path templates).
 * <ul>
 * <li>{@code build/}: the tree as the steps assemble it, accuracy logs untruncated (kept beside the final tree);</li>
 * <li>{@code submission/}: the final tree, truncated by the official script: what the checker reads and what is
 * handed in;</li>
 * <li>{@code work/STEP/}: each step's working folder: its log ({@code step.log}), the runs' own folders, staging;</li>
 * <li>{@code state/}: the step records ({@link Ledger});</li>
 * <li>{@code checker/}: the checker's output, summary CSV, verdict and command line.</li>
 * </ul>
 *
 * @param out    the output folder.
 * @param config the configuration.
 * @param tables the checker's tables (paths are the same for every benchmark).
 */
record Layout(Path out, SubmissionConfig config, CheckerTables tables)
{
    /**
     * @return the tree the steps assemble.
     */
    Path build()
    {
        return out.resolve("build");
    }

    /**
     * @return the final (truncated) tree.
     */
    Path submission()
    {
        return out.resolve("submission");
    }

    /**
     * @return the checker's output folder.
     */
    Path checker()
    {
        return out.resolve("checker");
    }

    /**
     * @param step a step id.
     * @return its working folder.
     */
    Path work(final String step)
    {
        return out.resolve("work").resolve(step);
    }

    /**
     * @param table    a checker path table.
     * @param benchmark the benchmark.
     * @param scenario the scenario.
     * @return the path in the tree, relative to its root.
     */
    String path(final String table, final String benchmark, final String scenario)
    {
        return tables.path(table, config.division(), config.submitter(), config.system(), benchmark, scenario);
    }

    /**
     * @param benchmark the benchmark.
     * @param scenario  the scenario.
     * @return the accuracy run's folder, relative to the tree's root.
     */
    Path accuracy(final String benchmark, final String scenario)
    {
        return Path.of(path("ACCURACY_LOG_PATH", benchmark, scenario)).getParent();
    }

    /**
     * @param benchmark the benchmark.
     * @param scenario  the scenario.
     * @return the performance run's folder ({@code performance/run_1}), relative to the tree's root.
     */
    Path performance(final String benchmark, final String scenario)
    {
        return Path.of(path("PERFORMANCE_LOG_PATH", benchmark, scenario)).getParent();
    }

    /**
     * @param benchmark the benchmark.
     * @param scenario  the scenario.
     * @return the folder the compliance tests' folders go in, relative to the tree's root.
     */
    Path compliance(final String benchmark, final String scenario)
    {
        return Path.of(path("COMPLIANCE_PATH", benchmark, scenario));
    }

    /**
     * @param benchmark the benchmark.
     * @param scenario  the scenario.
     * @return measurements.json, relative to the tree's root (user.conf, mlperf.conf and README.md beside it).
     */
    Path measurements(final String benchmark, final String scenario)
    {
        return Path.of(path("MEASUREMENTS_PATH", benchmark, scenario));
    }

    /**
     * @return the system description, relative to the tree's root.
     */
    Path systemJson()
    {
        return Path.of(path("SYSTEM_PATH", "", ""));
    }

    /**
     * @return the source folder the checker requires, relative to the tree's root.
     */
    Path src()
    {
        return Path.of(path("SRC_PATH", "", ""));
    }

    /**
     * @return the submitter's folder, relative to the tree's root.
     */
    Path submitter()
    {
        return Path.of(config.division(), config.submitter());
    }
}
