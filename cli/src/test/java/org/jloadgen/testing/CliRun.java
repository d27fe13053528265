package org.jloadgen.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import org.jloadgen.cli.Main;

import picocli.CommandLine;

/**
 * Runs {@code jloadgen args...} in the test's JVM, as the launcher would, capturing what it prints: for the SUT
 * modules' command-line tests.
 *
 * @param exitCode the exit code.
 * @param out      standard output.
 * @param err      standard error and picocli's error writer.
 */
public record CliRun(int exitCode, String out, String err)
{
    /**
     * @param args the arguments.
     * @return exit code and output.
     */
    public static CliRun of(final String... args)
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
            return new CliRun(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8) + picocliErr);
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
