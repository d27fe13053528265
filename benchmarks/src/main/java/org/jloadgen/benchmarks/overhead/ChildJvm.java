package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.cli.api.ChildJvmCommand;
import org.jloadgen.log.DetailLogValues;

/**
 * Starts one {@code jloadgen} command in a fresh JVM ({@link OverheadChild}) and collects what the overhead runner
 * needs: the whole-process wall time, the peak RSS, the exit code and the detail log. The command line comes from
 * {@link ChildJvmCommand}, as the CLI tests' children's do.
 */
public final class ChildJvm
{
    private final ChildJvmCommand launcher;
    private final List<String> jvmFlags;
    private final long timeLimitMs;

    /**
     * @param javaBinary  the {@code java} launcher.
     * @param classPath   JLoadGen's class path.
     * @param jvmFlags    flags after {@link JvmFlags#REQUIRED} (GC, heap, ...).
     * @param timeLimitMs a child still running after this long is killed and its run reported as failed.
     */
    public ChildJvm(final Path javaBinary, final String classPath, final List<String> jvmFlags,
        final long timeLimitMs)
    {
        this.launcher = new ChildJvmCommand(javaBinary, classPath);
        this.jvmFlags = List.copyOf(jvmFlags);
        this.timeLimitMs = timeLimitMs;
    }

    /**
     * @param jvmFlags flags after {@link JvmFlags#REQUIRED}.
     * @param timeLimitMs per-child time limit.
     * @return children of the same JDK and class path as this JVM.
     */
    public static ChildJvm likeThisJvm(final List<String> jvmFlags, final long timeLimitMs)
    {
        final ChildJvmCommand thisJvm = ChildJvmCommand.likeThisJvm();
        return new ChildJvm(thisJvm.javaBinary(), thisJvm.classPath(), withStartupCache(jvmFlags), timeLimitMs);
    }

    /**
     * @return the flags, after the launcher's JVM start-up cache ({@code -XX:AOTCache}) when this JVM was started with
     *         one ({@code -Djloadgen.aotCache}, set by the {@code jloadgen} launcher): children start as
     *         {@code jloadgen} processes do.
     */
    static List<String> withStartupCache(final List<String> jvmFlags)
    {
        final String cache = System.getProperty("jloadgen.aotCache");
        if (cache == null || !Files.isRegularFile(Path.of(cache)))
        {
            return jvmFlags;
        }
        final List<String> flags = new ArrayList<>(List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off,cds=off"));
        flags.addAll(jvmFlags);
        return flags;
    }

    /**
     * @return the flags after {@link JvmFlags#REQUIRED}.
     */
    public List<String> jvmFlags()
    {
        return jvmFlags;
    }

    /**
     * @param runDir    directory for the report and the child's output (created).
     * @param arguments the jloadgen command line, e.g. {@code run --sut null --scenario Server ...}.
     * @return the full command.
     */
    public List<String> command(final Path runDir, final List<String> arguments)
    {
        final List<String> flags = new ArrayList<>(jvmFlags);
        flags.add("-D" + OverheadChild.REPORT_PROP_NAME + "=" + runDir.resolve("child-report.txt"));
        return launcher.command(flags, OverheadChild.class.getName(), arguments);
    }

    /**
     * @param runDir        directory for the report and the child's output.
     * @param configuration what to run.
     * @param arguments     its arguments, {@code --out} included.
     * @return the command: {@code jloadgen} in a fresh JVM, or the configuration's native program, which writes
     *         the same report ({@code --report}).
     */
    List<String> command(final Path runDir, final Configuration configuration, final List<String> arguments)
    {
        if (configuration.executable() == null)
        {
            return command(runDir, arguments);
        }
        final List<String> command = new ArrayList<>();
        command.add(configuration.executable().toString());
        command.addAll(arguments);
        command.add("--report");
        command.add(runDir.resolve("child-report.txt").toString());
        return command;
    }

    /**
     * Runs one repeat; the child's log files go to {@code runDir} ({@code --out} is appended to the arguments).
     *
     * @param configuration what to run.
     * @param repeat        repeat number.
     * @param runDir        directory of this run (created).
     * @param busyBefore    machine-wide CPU use just before, for the result.
     * @return what the run produced.
     * @throws UncheckedIOException if the child cannot be started or its report not read.
     */
    public RunResult run(final Configuration configuration, final int repeat, final Path runDir,
        final double busyBefore)
    {
        final String configId = configuration.id();
        final List<String> args = new ArrayList<>(configuration.arguments());
        args.add("--out");
        args.add(runDir.toString());
        final List<String> command = command(runDir, configuration, args);
        try
        {
            Files.createDirectories(runDir);
            final ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(runDir.resolve("stdout.txt").toFile())
                .redirectError(runDir.resolve("stderr.txt").toFile());
            final long[] cpuBefore = CpuLoad.snapshot();
            final long startNs = System.nanoTime();
            final Process process = builder.start();
            int exitCode;
            try
            {
                if (process.waitFor(timeLimitMs, TimeUnit.MILLISECONDS))
                {
                    exitCode = process.exitValue();
                }
                else
                {
                    process.destroyForcibly().waitFor();
                    exitCode = -1;
                }
            }
            catch (final InterruptedException ex)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + configId + " #" + repeat + " ran", ex);
            }
            final long wallNs = System.nanoTime() - startNs;
            final long[] cpuAfter = CpuLoad.snapshot();
            return new RunResult(configuration, repeat, command, runDir, exitCode, wallNs,
                readReport(runDir, "vmhwm_kib="), readDetail(runDir.resolve("mlperf_log_detail.txt")), busyBefore,
                otherCpu(cpuBefore, cpuAfter, readReport(runDir, "cpu_ticks=")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + configId + " #" + repeat + ": " + String.join(" ", command),
                ex);
        }
    }

    /**
     * @param file a child's detail log.
     * @return its values, or {@code null} if the child wrote none or was killed in the middle of a line.
     */
    static DetailLogValues readDetail(final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        try
        {
            return DetailLogValues.read(file);
        }
        catch (final IllegalArgumentException | UncheckedIOException ex)
        {
            return null;
        }
    }

    /**
     * @param before     machine {busy, total} jiffies before the child started.
     * @param after      the same after it exited.
     * @param childTicks the child's own CPU ticks.
     * @return the CPU other processes used meanwhile, as a fraction of the machine, or NaN if unknown.
     */
    static double otherCpu(final long[] before, final long[] after, final long childTicks)
    {
        if (before == null || after == null || childTicks < 0 || after[1] <= before[1])
        {
            return Double.NaN;
        }
        return Math.max(0, (double)(after[0] - before[0] - childTicks) / (after[1] - before[1]));
    }

    private static long readReport(final Path runDir, final String key) throws IOException
    {
        final Path report = runDir.resolve("child-report.txt");
        if (!Files.isRegularFile(report))
        {
            return -1;
        }
        for (final String line : Files.readAllLines(report, StandardCharsets.UTF_8))
        {
            if (line.startsWith(key))
            {
                return Long.parseLong(line.substring(key.length()).trim());
            }
        }
        return -1;
    }
}
