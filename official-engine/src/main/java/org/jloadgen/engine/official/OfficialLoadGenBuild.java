package org.jloadgen.engine.official;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The official LoadGen build the bridge runs against: {@code scripts/build-official-loadgen} builds LoadGen from
 * the given source (with position-independent code), the bridge library and the C++ null SUT into
 * {@code target/official-loadgen}, once per source (a second call returns at once), and names them in
 * {@code build.properties}.
 *
 * @param loadgenDir    the LoadGen source folder.
 * @param version       LoadGen's version (its VERSION.txt).
 * @param bridgeLibrary {@code libjlg_loadgen_bridge.so}.
 * @param nullSut       the C++ null SUT ({@code official_null_sut}).
 * @param directory     the build folder.
 */
public record OfficialLoadGenBuild(Path loadgenDir, String version, Path bridgeLibrary, Path nullSut, Path directory)
{
    /** System property: the project's root folder (the launcher and the test runs set it). */
    public static final String HOME_PROP_NAME = "jloadgen.home";
    /** Environment variable naming the LoadGen source folder (as {@code --loadgen-dir}). */
    public static final String LOADGEN_DIR_ENV = "LOADGEN_DIR";
    /** The build script, relative to the project root. */
    public static final String SCRIPT = "scripts/build-official-loadgen";

    private static final long BUILD_TIMEOUT_MINUTES = 15;

    /**
     * Builds (on first use) or finds the build for a LoadGen source.
     *
     * @param loadgenDir the LoadGen source, or {@code null} for {@value #LOADGEN_DIR_ENV}, else the project's
     *                   default ({@code ../shared/mlperf-inference/loadgen}).
     * @param progress   where the build's progress lines go.
     * @return the build.
     * @throws OfficialEngineUnavailableException saying what to set, when there is no LoadGen source or the build
     *                                            fails.
     */
    public static OfficialLoadGenBuild locate(final Path loadgenDir, final PrintStream progress)
    {
        final Path home = projectHome();
        final List<String> command = new ArrayList<>(List.of(home.resolve(SCRIPT).toString()));
        if (loadgenDir != null)
        {
            command.add("--loadgen-dir");
            command.add(loadgenDir.toString());
        }
        final String output;
        final int exit;
        try
        {
            // The script's standard output is the build folder; its messages (standard error) go to progress.
            final Process process = new ProcessBuilder(command).directory(home.toFile()).start();
            final Thread messages = Thread.ofPlatform().daemon().start(() -> copyQuietly(process.getErrorStream(),
                progress));
            try (InputStream out = process.getInputStream())
            {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            if (!process.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES))
            {
                process.destroyForcibly();
                throw new OfficialEngineUnavailableException("the official LoadGen build did not finish in "
                    + BUILD_TIMEOUT_MINUTES + " minutes (" + String.join(" ", command) + ")");
            }
            messages.join(TimeUnit.SECONDS.toMillis(10));
            exit = process.exitValue();
        }
        catch (final IOException ex)
        {
            throw new OfficialEngineUnavailableException("cannot run " + home.resolve(SCRIPT) + ": " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new OfficialEngineUnavailableException("interrupted while building the official LoadGen");
        }
        if (exit != 0)
        {
            throw new OfficialEngineUnavailableException(exit == 2
                ? "--engine official needs the official LoadGen source: set --loadgen-dir DIR or " + LOADGEN_DIR_ENV
                    + " to the loadgen folder of an mlcommons/inference checkout (default: "
                    + home.resolve("../shared/mlperf-inference/loadgen").normalize() + ")"
                : "the official LoadGen could not be built (" + SCRIPT + " exited with " + exit + "; see above)");
        }
        final String[] lines = output.split("\n");
        return read(Path.of(lines[lines.length - 1].strip()));
    }

    /**
     * @param directory a build folder the script printed.
     * @return its build.
     */
    public static OfficialLoadGenBuild read(final Path directory)
    {
        final Properties p = new Properties();
        final Path file = directory.resolve("build.properties");
        try (InputStream in = Files.newInputStream(file))
        {
            p.load(in);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
        return new OfficialLoadGenBuild(Path.of(require(p, "loadgen.dir", file)), require(p, "loadgen.version", file),
            Path.of(require(p, "bridge.library", file)), Path.of(require(p, "null_sut", file)), directory);
    }

    /**
     * @return the project's root: {@value #HOME_PROP_NAME}, else the first folder upwards from these classes or the
     *         working directory that holds {@value #SCRIPT}.
     * @throws OfficialEngineUnavailableException when none is found.
     */
    public static Path projectHome()
    {
        final String configured = System.getProperty(HOME_PROP_NAME);
        if (configured != null && !configured.isBlank())
        {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        final List<Path> starts = new ArrayList<>();
        final CodeSource source = OfficialLoadGenBuild.class.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null)
        {
            try
            {
                starts.add(Path.of(source.getLocation().toURI()));
            }
            catch (final URISyntaxException | IllegalArgumentException ex)
            {
                // Not a file: only the working directory is left.
            }
        }
        starts.add(Path.of(System.getProperty("user.dir", ".")));
        for (final Path start : starts)
        {
            for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent())
            {
                if (Files.isExecutable(dir.resolve(SCRIPT)))
                {
                    return dir;
                }
            }
        }
        throw new OfficialEngineUnavailableException("cannot find the JLoadGen project (" + SCRIPT + ") to build the "
            + "official LoadGen bridge; run from the project or set -D" + HOME_PROP_NAME + "=DIR");
    }

    private static String require(final Properties p, final String key, final Path file)
    {
        final String value = p.getProperty(key);
        if (value == null || value.isBlank())
        {
            throw new IllegalStateException(file + " has no " + key);
        }
        return value.strip();
    }

    private static void copyQuietly(final InputStream in, final PrintStream out)
    {
        try
        {
            in.transferTo(out);
        }
        catch (final IOException ex)
        {
            // The exit status says whether the build worked.
        }
    }
}
