package org.jloadgen.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the official MLPerf Python tools (the submission log parser, the compliance verification scripts) with
 * {@code python3}, as a submitter does. {@code .ci/run} installs python3 and numpy; elsewhere the tests that need
 * them are skipped when they are missing.
 */
public final class OfficialPython
{
    private OfficialPython()
    {
    }

    /**
     * What a script printed.
     *
     * @param exitCode its exit code.
     * @param output   standard output and error.
     */
    public record Result(int exitCode, String output)
    {
    }

    /**
     * Skips the calling test without python3 and numpy.
     */
    public static void assumeAvailable()
    {
        final Result probe = run(Path.of("."), "-c", "import numpy");
        Assumptions.assumeTrue(probe.exitCode() == 0, "python3 with numpy is not installed: " + probe.output());
    }

    /**
     * @param workingDir where to run.
     * @param args       arguments of python3.
     * @return what it printed.
     */
    public static Result run(final Path workingDir, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("python3"));
        command.addAll(List.of(args));
        try
        {
            final Process process = new ProcessBuilder(command).directory(workingDir.toFile())
                .redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                fail("python3 " + String.join(" ", args) + " did not end");
            }
            return new Result(process.exitValue(), output);
        }
        catch (final IOException ex)
        {
            return new Result(-1, "cannot run python3: " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /**
     * Reads a detail log with the submission checker's own parser ({@code tools/submission/log_parser.py}).
     *
     * @param detail a {@code mlperf_log_detail.txt}.
     * @param keys   keys whose values to print.
     * @return the parser's output: {@code messages N errors E warnings W} and a {@code key=value} line per key.
     */
    public static Result parseDetailLog(final Path detail, final String... keys)
    {
        final Path tools = OfficialLoadGenFixture.mlperfInference().resolve("tools").resolve("submission");
        final StringBuilder script = new StringBuilder()
            .append("import sys; sys.path.insert(0, sys.argv[1]); from log_parser import MLPerfLog; ")
            .append("log = MLPerfLog(sys.argv[2]); ")
            .append("print('messages', log.num_messages(), 'errors', log.num_errors(), ")
            .append("'warnings', log.num_warnings()); ")
            .append("[print(k + '=' + str(log[k])) for k in sys.argv[3:]]");
        final List<String> args = new ArrayList<>(List.of("-c", script.toString(), tools.toString(),
            detail.toAbsolutePath().toString()));
        args.addAll(List.of(keys));
        return run(detail.getParent(), args.toArray(String[]::new));
    }
}
