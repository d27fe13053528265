package org.jloadgen.analysis.submission;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the official MLPerf Inference files are: the checker and truncation script ({@code tools/submission}), the
 * compliance tests ({@code compliance}) and LoadGen ({@code loadgen}, its {@code mlperf.conf}), all unmodified,
 * and the Python that runs them.
 *
 * @param root   the {@code mlperf-inference} folder.
 * @param python the Python 3 executable.
 */
record OfficialTools(Path root, String python)
{
    /** Environment variable naming the mlperf-inference folder. */
    static final String ENV = "MLPERF_INFERENCE_DIR";

    /**
     * @param given  {@code --mlperf-inference}, or {@code null}.
     * @param home   the JLoadGen folder.
     * @param python the Python executable.
     * @return the tools, checked to exist.
     */
    static OfficialTools locate(final Path given, final Path home, final String python)
    {
        final Path root;
        final String from;
        if (given != null)
        {
            root = given.toAbsolutePath().normalize();
            from = "--mlperf-inference";
        }
        else if (System.getenv(ENV) != null && !System.getenv(ENV).isEmpty())
        {
            root = Path.of(System.getenv(ENV)).toAbsolutePath().normalize();
            from = ENV;
        }
        else
        {
            root = home.resolve("../shared/mlperf-inference").toAbsolutePath().normalize();
            from = "the default (../shared/mlperf-inference beside the JLoadGen folder)";
        }
        final OfficialTools tools = new OfficialTools(root, python);
        for (final Path needed : new Path[] {tools.submissionTools().resolve("submission_checker/main.py"),
            tools.submissionTools().resolve("truncate_accuracy_log.py"), tools.compliance(),
            tools.loadgen().resolve("mlperf.conf")})
        {
            if (!Files.exists(needed))
            {
                throw new IllegalArgumentException("the official MLPerf Inference files are not at " + root + " (from "
                    + from + "): " + needed + " is missing; give --mlperf-inference DIR or set " + ENV);
            }
        }
        return tools;
    }

    /**
     * @return {@code tools/submission}.
     */
    Path submissionTools()
    {
        return root.resolve("tools/submission");
    }

    /**
     * @return {@code compliance}.
     */
    Path compliance()
    {
        return root.resolve("compliance");
    }

    /**
     * @return {@code loadgen}.
     */
    Path loadgen()
    {
        return root.resolve("loadgen");
    }
}
