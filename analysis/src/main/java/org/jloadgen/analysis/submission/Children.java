package org.jloadgen.analysis.submission;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.cli.api.ChildJvmCommand;

/**
 * Runs each step's programs as child processes: {@code jloadgen ...} on the same Java, class path and JVM options
 * as this process (each official LoadGen run needs a process of its own: LoadGen keeps process-wide state), and the
 * official Python scripts. Output goes to a log file per step. A signal to this process stops the child in flight
 * ({@link #stop()}), so Ctrl-C loses only the run in progress.
 */
final class Children
{
    /**
     * A finished child.
     *
     * @param exitCode its exit code.
     * @param output   what it printed (standard output and error).
     */
    record Result(int exitCode, String output)
    {
    }

    private final Path home;
    private final String python;
    private volatile Process current;
    private volatile boolean stopped;

    /**
     * @param home   the JLoadGen folder ({@code {home}} in commands).
     * @param python the Python executable.
     */
    Children(final Path home, final String python)
    {
        this.home = home;
        this.python = python;
    }

    /**
     * @param args {@code jloadgen} arguments.
     * @return the command line that runs them in a child JVM like this one.
     */
    List<String> jloadgen(final List<String> args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String option : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (option.startsWith("--enable-native-access") || option.startsWith("--add-exports")
                || option.startsWith("-Djloadgen.") || option.startsWith("-Xmx") || option.startsWith("-XX:+Use"))
            {
                command.add(option);
            }
        }
        if (command.stream().noneMatch(o -> o.startsWith("--enable-native-access")))
        {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        if (command.stream().noneMatch(o -> o.startsWith("-Djloadgen.home=")))
        {
            command.add("-Djloadgen.home=" + home);
        }
        // The class path in an argument file keeps the command line short (ChildJvmCommand says why).
        command.add("@" + ChildJvmCommand.classPathFile(System.getProperty("java.class.path")));
        command.add("org.jloadgen.cli.Main");
        command.addAll(args);
        return command;
    }

    /**
     * @param words a configured command: {@code jloadgen ...}, or a program and its arguments; {@code {home}}
     *              replaced.
     * @return the command line to start.
     */
    List<String> command(final List<String> words)
    {
        final List<String> expanded = new ArrayList<>();
        for (final String word : words)
        {
            expanded.add(word.replace("{home}", home.toString()));
        }
        return expanded.get(0).equals("jloadgen") ? jloadgen(expanded.subList(1, expanded.size())) : expanded;
    }

    /**
     * @param args a Python script and its arguments.
     * @return the command line.
     */
    List<String> python(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of(python));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Runs a command to its end.
     *
     * @param command the command line.
     * @param workDir its working directory.
     * @param log     where its output is appended (the command line first).
     * @return its exit code and output.
     * @throws StoppedException when {@link #stop()} was called before or while it ran.
     */
    Result run(final List<String> command, final Path workDir, final Path log)
    {
        if (stopped)
        {
            throw new StoppedException();
        }
        try
        {
            Files.createDirectories(workDir);
            Files.createDirectories(log.getParent());
            Files.writeString(log, "$ (cd " + workDir + " && " + String.join(" ", command) + ")\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            final Path output = Files.createTempFile(log.getParent(), ".child", ".out");
            final Process process = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            current = process;
            if (stopped)
            {
                stopProcess(process);
            }
            final int exit = process.waitFor();
            current = null;
            final String text = Files.readString(output, StandardCharsets.UTF_8);
            Files.writeString(log, text + "(exit " + exit + ")\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            Files.delete(output);
            if (stopped)
            {
                throw new StoppedException();
            }
            return new Result(exit, text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + command.get(0) + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new StoppedException();
        }
    }

    /**
     * Stops the child in flight (SIGTERM, then SIGKILL after 10 s) and every later {@link #run}.
     */
    void stop()
    {
        stopped = true;
        final Process process = current;
        if (process != null)
        {
            stopProcess(process);
        }
    }

    private static void stopProcess(final Process process)
    {
        process.destroy();
        try
        {
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Thrown out of {@link #run} after {@link #stop()}.
     */
    static final class StoppedException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        StoppedException()
        {
            super("stopped by a signal", null, false, false);
        }
    }
}
