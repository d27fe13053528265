package org.jloadgen.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the official reference files ({@code shared/data}): the {@code jloadgen.shared.dir} system property
 * that surefire sets, else {@code ../shared} next to the repository root.
 */
final class SharedData
{
    private SharedData()
    {
    }

    /**
     * @param relative path below {@code shared/data}.
     * @return the file.
     */
    static Path data(final String relative)
    {
        return dir().resolve("data").resolve(relative);
    }

    /**
     * @return the shared directory.
     */
    static Path dir()
    {
        final String property = System.getProperty("jloadgen.shared.dir");
        if (property != null && Files.isDirectory(Path.of(property)))
        {
            return Path.of(property);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null)
        {
            if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("engine")))
            {
                return p.resolveSibling("shared");
            }
            p = p.getParent();
        }
        throw new IllegalStateException("cannot find the shared directory; set -Djloadgen.shared.dir");
    }
}
