package org.jloadgen.bindings;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bridge library for the bindings tests: {@code scripts/build-official-loadgen} builds it from
 * {@code ../shared/mlperf-inference/loadgen} (the native module's build already did, so this returns at once). The
 * tests are skipped only where no LoadGen source exists.
 */
public final class OfficialBridgeBuild
{
    private static Properties build;

    private OfficialBridgeBuild()
    {
    }

    /**
     * @return the project root ({@code jloadgen.home}, set by surefire).
     */
    public static Path home()
    {
        return Path.of(System.getProperty("jloadgen.home", "..")).toAbsolutePath().normalize();
    }

    /**
     * @return the LoadGen source folder the build uses.
     */
    public static Path loadgenSource()
    {
        final String env = System.getenv("LOADGEN_DIR");
        return env != null && !env.isBlank() ? Path.of(env)
            : home().resolve("../shared/mlperf-inference/loadgen").normalize();
    }

    /**
     * @return the build's {@code build.properties}; skips the test without a LoadGen source.
     */
    public static synchronized Properties properties()
    {
        Assumptions.assumeTrue(Files.isRegularFile(loadgenSource().resolve("loadgen.h")),
            () -> "needs the official mlcommons/inference 6.0.17 sources, not at " + loadgenSource()
                + ": set LOADGEN_DIR to the loadgen folder of a checkout (or put it at ../shared/mlperf-inference)");
        if (build == null)
        {
            try
            {
                final Process process = new ProcessBuilder(home().resolve("scripts/build-official-loadgen").toString(),
                    "--quiet").redirectError(ProcessBuilder.Redirect.INHERIT).start();
                final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                assertTrue(process.waitFor(15, TimeUnit.MINUTES), "build-official-loadgen did not finish");
                assertEquals(0, process.exitValue(), "build-official-loadgen failed");
                final Properties p = new Properties();
                try (InputStream in = Files.newInputStream(Path.of(out).resolve("build.properties")))
                {
                    p.load(in);
                }
                build = p;
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("cannot build the official LoadGen: " + ex, ex);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
        return build;
    }

    /**
     * @return {@code libjlg_loadgen_bridge.so}, opened in this JVM (no test is started: LoadGen's state stays clean).
     */
    public static Path openLibrary()
    {
        final Path library = Path.of(properties().getProperty("bridge.library"));
        LoadGenBridge.open(library);
        return library;
    }
}
