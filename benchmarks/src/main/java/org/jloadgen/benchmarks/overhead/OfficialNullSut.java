package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official LoadGen's C++ null SUT ({@code benchmarks/official/null_sut.cc}, linked with LoadGen 6.0.17 built from
 * {@code ../shared/mlperf-inference/loadgen}), which the side-by-side comparison runs against JLoadGen's null SUTs.
 * Either given ({@code --official-null-sut}) or built by {@code scripts/build-official-loadgen} from the project this
 * class was loaded from (the script reuses an unchanged build at once).
 */
public final class OfficialNullSut
{
    /** The build script, relative to the project root. */
    static final String BUILD_SCRIPT = "scripts/build-official-loadgen";
    private static final long BUILD_TIME_LIMIT_MIN = 20;

    private OfficialNullSut()
    {
    }

    /**
     * @param given the binary the user named, or {@code null} to build it.
     * @return the binary.
     * @throws IllegalArgumentException naming the path if a given binary is not executable, or what the build
     *                                  script said if it failed.
     */
    public static Path locate(final Path given)
    {
        if (given != null)
        {
            if (!Files.isExecutable(given))
            {
                throw new IllegalArgumentException("--official-null-sut " + given + " is not an executable file");
            }
            return given;
        }
        return build(projectRoot());
    }

    /**
     * Runs the build script of a project and reads the binary from its {@code build.properties}.
     *
     * @param root the project root (holds {@value #BUILD_SCRIPT}).
     * @return the binary.
     * @throws IllegalArgumentException with the script's own message if it fails.
     */
    static Path build(final Path root)
    {
        final Path script = root.resolve(BUILD_SCRIPT);
        if (!Files.isExecutable(script))
        {
            throw new IllegalArgumentException("cannot build the official LoadGen: no " + script
                + " (give the null SUT binary with --official-null-sut)");
        }
        try
        {
            final Path log = Files.createTempFile("jloadgen-official-build-", ".txt");
            try
            {
                final Process process = new ProcessBuilder(List.of(script.toString(), "--quiet"))
                    .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                if (!process.waitFor(BUILD_TIME_LIMIT_MIN, TimeUnit.MINUTES))
                {
                    process.destroyForcibly();
                    throw new IllegalArgumentException(script + " ran longer than " + BUILD_TIME_LIMIT_MIN
                        + " minutes");
                }
                final List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
                if (process.exitValue() != 0 || output.isEmpty())
                {
                    throw new IllegalArgumentException(script + " failed (exit " + process.exitValue() + "): "
                        + String.join("\n", output) + "\n(give the null SUT binary with --official-null-sut)");
                }
                return nullSutOf(Path.of(output.get(output.size() - 1).strip()).resolve("build.properties"));
            }
            finally
            {
                Files.deleteIfExists(log);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + script, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the official LoadGen", ex);
        }
    }

    /**
     * @param properties a {@code build.properties} written by the build script.
     * @return its {@code null_sut} binary.
     * @throws IllegalArgumentException naming the file if the key is missing or the binary is not executable.
     */
    static Path nullSutOf(final Path properties) throws IOException
    {
        for (final String line : Files.readAllLines(properties, StandardCharsets.UTF_8))
        {
            if (line.startsWith("null_sut="))
            {
                final Path binary = Path.of(line.substring("null_sut=".length()).strip());
                if (!Files.isExecutable(binary))
                {
                    throw new IllegalArgumentException(properties + ": null_sut " + binary + " is not executable");
                }
                return binary;
            }
        }
        throw new IllegalArgumentException(properties + " has no null_sut= line");
    }

    /**
     * @return the project this class was loaded from: {@code benchmarks/target/<jar or classes>} three levels up.
     */
    static Path projectRoot()
    {
        try
        {
            final Path code = Path.of(OfficialNullSut.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
            return code.toAbsolutePath().getParent().getParent().getParent();
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException("cannot find the project root from the class path", ex);
        }
    }
}
