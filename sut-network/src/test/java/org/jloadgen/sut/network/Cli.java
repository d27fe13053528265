package org.jloadgen.sut.network;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import org.jloadgen.cli.Main;

import picocli.CommandLine;

/**
 * Runs {@code jloadgen} in this JVM and captures what it prints.
 *
 * @param exitCode the exit code.
 * @param out      standard output.
 * @param err      standard error and picocli's error writer.
 */
public record Cli(int exitCode, String out, String err)
{
    /**
     * @param args the command line.
     * @return exit code and output.
     */
    public static Cli run(final String... args)
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
            return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
                + picocliErr);
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Override
    public String toString()
    {
        return "exit " + exitCode + "\n--- out\n" + out + "\n--- err\n" + err;
    }
}
