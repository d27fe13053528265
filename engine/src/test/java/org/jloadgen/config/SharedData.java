package org.jloadgen.config;

import java.nio.file.Path;

/**
 * The official reference files in the repository ({@code testdata/official}), for this package's tests: see
 * {@link org.jloadgen.testing.SharedData}.
 */
final class SharedData
{
    private SharedData()
    {
    }

    /**
     * @param relative path below {@code testdata/official}.
     * @return the file.
     */
    static Path data(final String relative)
    {
        return org.jloadgen.testing.SharedData.data(relative);
    }
}
