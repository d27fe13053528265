package org.jloadgen.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.engine.official.OfficialLoadGenBuild;
import org.junit.jupiter.api.Assumptions;

/**
 * The official LoadGen build the bridge tests run against: built by {@code scripts/build-official-loadgen} from
 * {@code ../shared/mlperf-inference/loadgen} (the Maven build of {@code native} already did, so this returns at
 * once). Tests are skipped only where no LoadGen source exists at all; where it exists, a failing build fails them.
 */
public final class OfficialLoadGenFixture
{
    private static OfficialLoadGenBuild build;

    private OfficialLoadGenFixture()
    {
    }

    /**
     * @return the LoadGen source the tests use.
     */
    public static Path loadgenSource()
    {
        final String env = System.getenv(OfficialLoadGenBuild.LOADGEN_DIR_ENV);
        return env != null && !env.isBlank() ? Path.of(env)
            : SharedData.dir().resolve("mlperf-inference").resolve("loadgen");
    }

    /**
     * @return the build; skips the calling test when there is no LoadGen source.
     */
    public static synchronized OfficialLoadGenBuild build()
    {
        Assumptions.assumeTrue(Files.isRegularFile(loadgenSource().resolve("loadgen.h")),
            () -> SharedData.missing(loadgenSource()));
        if (build == null)
        {
            final ByteArrayOutputStream progress = new ByteArrayOutputStream();
            build = OfficialLoadGenBuild.locate(null, new PrintStream(progress, true, StandardCharsets.UTF_8));
        }
        return build;
    }

    /**
     * @return the official MLPerf tools folder ({@code ../shared/mlperf-inference}, or the parent of
     *         {@code $LOADGEN_DIR}); skips the calling test where there is none.
     */
    public static Path mlperfInference()
    {
        return SharedData.mlperfInference();
    }
}
