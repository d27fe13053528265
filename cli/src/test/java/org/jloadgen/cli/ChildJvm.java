package org.jloadgen.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.cli.api.ChildJvmCommand;

/**
 * {@code jloadgen} in a child JVM on the test class path, for what only a whole process shows: signals, a kill, the
 * exit status and what reaches its console. Both output streams are collected as they come.
 */
final class ChildJvm implements AutoCloseable
{
    private final Process process;
    private final StringBuffer out = new StringBuffer();
    private final StringBuffer err = new StringBuffer();
    private final Thread outReader;
    private final Thread errReader;

    private ChildJvm(final Process process)
    {
        this.process = process;
        this.outReader = drain(process.getInputStream(), out);
        this.errReader = drain(process.getErrorStream(), err);
    }

    /**
     * @param workDir the child's working directory.
     * @param args    {@code jloadgen} arguments.
     * @return the started child.
     */
    static ChildJvm jloadgen(final Path workDir, final String... args)
    {
        // A build started as a background job (`./scripts/test &`, nohup) runs with SIGINT ignored, which every
        // child inherits, and a JVM started that way never sees Ctrl-C: GNU env gives the child the default
        // disposition back, so the interrupt tests test the CLI, not how the build was started.
        final List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT"));
        command.addAll(ChildJvmCommand.likeThisJvm().command(List.of(), Main.class.getName(), List.of(args)));
        try
        {
            return new ChildJvm(new ProcessBuilder(command).directory(workDir.toFile()).start());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static Thread drain(final InputStream in, final StringBuffer into)
    {
        return Thread.ofPlatform().daemon().start(() ->
        {
            final byte[] buffer = new byte[4096];
            try
            {
                int n;
                while ((n = in.read(buffer)) > 0)
                {
                    into.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            }
            catch (final IOException ex)
            {
                // The child died: what was read is what there is.
            }
        });
    }

    /**
     * Waits until standard output contains {@code text}.
     *
     * @param text      what to wait for.
     * @param timeoutMs how long at most.
     * @throws AssertionError if it does not appear in time, or the child ends first.
     */
    void awaitOutput(final String text, final long timeoutMs) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000;
        while (out.indexOf(text) < 0)
        {
            if (!process.isAlive())
            {
                outReader.join(1_000);
                if (out.indexOf(text) >= 0)
                {
                    return;
                }
                throw new AssertionError("the child ended (" + process.exitValue() + ") before printing '" + text
                    + "'\nout:\n" + out + "\nerr:\n" + err);
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("no '" + text + "' in " + timeoutMs + " ms\nout:\n" + out + "\nerr:\n" + err);
            }
            Thread.sleep(10);
        }
    }

    /**
     * @param signal {@code INT}, {@code TERM}...
     */
    void signal(final String signal) throws IOException, InterruptedException
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0)
        {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /**
     * Kills the child at once (SIGKILL) and waits for it.
     */
    void kill() throws InterruptedException
    {
        process.destroyForcibly().waitFor();
    }

    /**
     * @param timeoutMs how long at most.
     * @return the exit status.
     * @throws AssertionError if the child is still running after the timeout (it is then killed).
     */
    int awaitExit(final long timeoutMs) throws InterruptedException
    {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
        {
            process.destroyForcibly().waitFor();
            throw new AssertionError("still running after " + timeoutMs + " ms\nout:\n" + out + "\nerr:\n" + err);
        }
        outReader.join(5_000);
        errReader.join(5_000);
        return process.exitValue();
    }

    String out()
    {
        return out.toString();
    }

    String err()
    {
        return err.toString();
    }

    @Override
    public void close()
    {
        if (process.isAlive())
        {
            process.destroyForcibly();
        }
    }
}
