package org.jloadgen.sut.network;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.cli.api.ChildJvmCommand;

/**
 * A {@code jloadgen serve} node in a child JVM on the loopback interface, on a free port it writes to a file: the
 * tests' cluster. Closing it kills the process if it still runs.
 */
public final class ServeProcess implements AutoCloseable
{
    /** Exit code of a JVM stopped by SIGTERM (128 + 15), after its shutdown hooks ran. */
    public static final int EXIT_SIGTERM = 143;
    /** How long a node may take to come up (class loading, an ONNX session). */
    static final long START_TIMEOUT_MS = 90_000;

    private final String name;
    private final Process process;
    private final Path log;
    private final int port;

    private ServeProcess(final String name, final Process process, final Path log, final int port)
    {
        this.name = name;
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts {@code jloadgen serve --host 127.0.0.1 --port 0 --name NAME args...} and waits until it listens.
     *
     * @param dir  where the port file and the log go.
     * @param name the node's name.
     * @param args the rest of the command line ({@code --sut ...}).
     * @return the running node.
     * @throws IOException when it cannot start or dies before it listens (the message holds its log).
     */
    public static ServeProcess start(final Path dir, final String name, final String... args) throws IOException
    {
        Files.createDirectories(dir);
        final Path portFile = dir.resolve(name + ".port");
        final Path log = dir.resolve(name + ".log");
        Files.deleteIfExists(portFile);
        final List<String> flags = new ArrayList<>();
        flags.add("-Xmx512m");
        final String cache = System.getProperty("jloadgen.cache.dir");
        if (cache != null)
        {
            flags.add("-Djloadgen.cache.dir=" + cache);
        }
        final List<String> arguments = new ArrayList<>(List.of("serve", "--host", "127.0.0.1", "--port", "0",
            "--port-file", portFile.toString(), "--name", name));
        arguments.addAll(List.of(args));
        final List<String> command = ChildJvmCommand.likeThisJvm().command(flags, "org.jloadgen.cli.Main", arguments);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
            .start();
        // A test JVM that ends early (a failed assertion, a killed build) must not leave nodes behind.
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "kill-" + name));
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (!Files.isRegularFile(portFile))
        {
            if (!process.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                process.destroyForcibly();
                throw new IOException("jloadgen serve " + name + " did not come up: "
                    + Files.readString(log, StandardCharsets.UTF_8));
            }
            try
            {
                Thread.sleep(50);
            }
            catch (final InterruptedException ex)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", ex);
            }
        }
        final int port = Integer.parseInt(Files.readString(portFile, StandardCharsets.UTF_8).strip());
        return new ServeProcess(name, process, log, port);
    }

    /**
     * @return {@code 127.0.0.1:PORT}.
     */
    public String endpoint()
    {
        return "127.0.0.1:" + port;
    }

    /**
     * @return the node's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return what the node printed so far.
     */
    public String log()
    {
        try
        {
            return Files.readString(log, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(no log: " + ex + ")";
        }
    }

    /**
     * Kills the node at once, as a crash would (SIGKILL).
     *
     * @throws InterruptedException if interrupted while it dies.
     */
    public void kill() throws InterruptedException
    {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * Stops the node as an operator would (SIGTERM) and waits for it.
     *
     * @return its exit code, or -1 if it had to be killed.
     * @throws InterruptedException if interrupted while it stops.
     */
    public int terminate() throws InterruptedException
    {
        process.destroy();
        if (process.waitFor(20, TimeUnit.SECONDS))
        {
            return process.exitValue();
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    @Override
    public void close()
    {
        if (process.isAlive())
        {
            try
            {
                kill();
            }
            catch (final InterruptedException ex)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
