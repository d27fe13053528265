package org.jloadgen.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the official reference files live: the system property {@code jloadgen.shared.dir} (set by surefire), else
 * {@code ../shared} beside the repository root, found from the working directory (the module or the root).
 */
public final class SharedData
{
    private SharedData()
    {
    }

    /**
     * @return the shared directory.
     * @throws IllegalStateException if it cannot be found.
     */
    public static Path dir()
    {
        final String property = System.getProperty("jloadgen.shared.dir");
        if (property != null && Files.isDirectory(Path.of(property, "data")))
        {
            return Path.of(property).normalize();
        }
        Path at = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && at != null; i++)
        {
            final Path candidate = at.resolve("../shared").normalize();
            if (Files.isDirectory(candidate.resolve("data")))
            {
                return candidate;
            }
            at = at.getParent();
        }
        throw new IllegalStateException("shared reference data not found: set -Djloadgen.shared.dir");
    }

    /**
     * @param relative a path under {@code shared/data}, e.g. {@code example-logs/Server/mlperf_log_detail.txt}.
     * @return the file.
     */
    public static Path data(final String relative)
    {
        return dir().resolve("data").resolve(relative);
    }
}
