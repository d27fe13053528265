package org.jloadgen.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

import org.jloadgen.cli.Main;

/**
 * Runs {@code jloadgen} in-process, with every command installed on the test class path, and captures what it
 * printed.
 *
 * @param exitCode the exit code.
 * @param out      standard output.
 * @param err      standard error.
 */
public record CommandLineRun(int exitCode, String out, String err)
{
    /**
     * @param args the command line after {@code jloadgen}.
     * @return what happened.
     */
    public static CommandLineRun jloadgen(final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final var cl = Main.commandLine();
            cl.setOut(new PrintWriter(System.out, true));
            cl.setErr(new PrintWriter(System.err, true));
            final int code = cl.execute(args);
            System.out.flush();
            return new CommandLineRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
