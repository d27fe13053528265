package org.jloadgen.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.cli.api.ChildJvmCommand;
import org.jloadgen.engine.official.OfficialLoadGenBuild;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs {@code jloadgen ...} ({@code org.jloadgen.cli.Main}) in a child JVM with this JVM's class path: LoadGen keeps
 * process-wide state, so each test under the official LoadGen needs a process of its own, as the CLI gives it.
 */
public final class ChildCli
{
    private ChildCli()
    {
    }

    /**
     * What the child printed.
     *
     * @param exitCode its exit code.
     * @param out      standard output.
     * @param err      standard error.
     */
    public record Result(int exitCode, String out, String err)
    {
        /**
         * @return both outputs, for assertion messages.
         */
        public String both()
        {
            return "exit " + exitCode + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    /**
     * @param workingDir     the child's working directory (where LoadGen looks for audit.config).
     * @param timeoutSeconds kill it after this long, and fail.
     * @param args           the {@code jloadgen} arguments.
     * @return what it printed.
     */
    public static Result run(final Path workingDir, final long timeoutSeconds, final String... args)
    {
        return run(workingDir, timeoutSeconds, List.of(), args);
    }

    /**
     * @param workingDir     the child's working directory (where LoadGen looks for audit.config).
     * @param timeoutSeconds kill it after this long, and fail.
     * @param jvmFlags       extra JVM flags (logging, system properties), after the usual ones.
     * @param args           the {@code jloadgen} arguments.
     * @return what it printed.
     */
    public static Result run(final Path workingDir, final long timeoutSeconds, final List<String> jvmFlags,
        final String... args)
    {
        final List<String> flags = new ArrayList<>(List.of("-XX:+UseSerialGC", "-Xmx512m",
            "-D" + OfficialLoadGenBuild.HOME_PROP_NAME + "=" + OfficialLoadGenBuild.projectHome()));
        for (final String property : List.of("jloadgen.cache.dir", "jloadgen.shared.dir"))
        {
            if (System.getProperty(property) != null)
            {
                flags.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        flags.addAll(jvmFlags);
        final List<String> command = ChildJvmCommand.likeThisJvm().command(flags, "org.jloadgen.cli.Main",
            List.of(args));
        try
        {
            Files.createDirectories(workingDir);
            final Path out = Files.createTempFile(workingDir, "child", ".out");
            final Path err = Files.createTempFile(workingDir, "child", ".err");
            final Process process = new ProcessBuilder(command).directory(workingDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                fail("jloadgen " + String.join(" ", args) + " did not end within " + timeoutSeconds + " s\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
            }
            final Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return result;
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot run a child JVM: " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
