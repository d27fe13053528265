package org.jloadgen.sut.cpu;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestSettings;
import org.jloadgen.cli.Main;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;

import picocli.CommandLine;

/**
 * Runs the real engine and the real command line for the tests.
 */
final class Runs
{
    private Runs()
    {
    }

    /**
     * @return the embedded model's descriptor, extracted into the test cache.
     */
    static ModelDescriptor fashion()
    {
        return FashionMnist.prepare(FashionMnist.defaultCacheDir());
    }

    /**
     * Runs a test through {@link TestRunner}, with the issue thread parking instead of spinning so that the SUT's
     * workers keep the cores.
     *
     * @param sut      the SUT.
     * @param settings the settings.
     * @param dir      the log folder.
     * @return the result.
     */
    static TestResult engine(final CpuSut sut, final TestSettings settings, final Path dir)
    {
        final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP)
            .serverWait(ServerWaitStrategy.SLEEP).completionTimeoutMs(30_000);
        final LogSettings logs = new LogSettings().outputDirectory(dir).copySummaryToStdout(false);
        return new TestRunner(sut, sut.library(), settings, logs, engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    /**
     * What a command printed.
     *
     * @param exitCode the exit code.
     * @param out      standard output.
     * @param err      standard error and picocli's error writer.
     */
    record Cli(int exitCode, String out, String err)
    {
    }

    /**
     * Runs {@code jloadgen args...} in this JVM, capturing its output.
     *
     * @param args the arguments.
     * @return exit code and output.
     */
    static Cli cli(final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final StringWriter picocliErr = new StringWriter();
        try
        {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final CommandLine cl = Main.commandLine();
            cl.setErr(new PrintWriter(picocliErr, true));
            final int code = cl.execute(args);
            return new Cli(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8) + picocliErr);
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
