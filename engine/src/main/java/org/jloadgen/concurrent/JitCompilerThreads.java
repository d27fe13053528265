package org.jloadgen.concurrent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.bindings.NativeLibrary;
import org.jloadgen.bindings.ThreadScheduling;

/**
 * The JVM's JIT compiler threads, lowered to {@code SCHED_IDLE} while a measured series runs and put back after it
 * ({@code JitThreadPolicy}, resolved by {@code issue.JitThreads}). They are not Java threads, so they are found by name
 * under {@code /proc/self/task} (the kernel keeps 15 characters: {@code C2 CompilerThre}) and set by kernel thread id.
 * <p>
 * Why: on a 2-CPU machine a Server run with one worker thread had C1 and C2 compiling for 200 ms of its 5 s (a
 * deoptimised method, the log threads' code, the SUT's classes), in slices of up to 18 ms, and the issue thread or the
 * worker, woken onto the CPU a compilation held, waited for it: waits of 1-7 ms, the run's p99.9 ({@code ftrace} of
 * {@code sched_switch}; benchmarks/README.md, "Where the worker case's tail came from").
 */
public final class JitCompilerThreads
{
    /** Where the threads of this process are listed. */
    public static final Path TASKS = Path.of("/proc/self/task");
    /** {@link #canRaiseBack()}'s answer, once probed. */
    private static Boolean raiseBack;

    private JitCompilerThreads()
    {
    }

    /**
     * @return the kernel thread ids of this JVM's compiler threads; empty where they cannot be listed.
     */
    public static List<Long> find()
    {
        try
        {
            return find(TASKS);
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return List.of();
        }
    }

    /**
     * @param tasks a {@code /proc/PID/task} folder.
     * @return the ids of the threads there whose name is a JIT compiler thread's.
     * @throws IOException if the folder cannot be listed.
     */
    static List<Long> find(final Path tasks) throws IOException
    {
        return find(tasks, false);
    }

    /**
     * @param tasks        a {@code /proc/PID/task} folder.
     * @param ordinaryOnly only those at {@code SCHED_OTHER} (field 41 of their {@code stat}).
     * @return the ids of the threads there whose name is a JIT compiler thread's.
     * @throws IOException if the folder cannot be listed.
     */
    private static List<Long> find(final Path tasks, final boolean ordinaryOnly) throws IOException
    {
        final List<Long> ids = new ArrayList<>();
        try (Stream<Path> entries = Files.list(tasks))
        {
            for (final Path task : (Iterable<Path>)entries::iterator)
            {
                try
                {
                    if (isCompilerThread(Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip())
                        && (!ordinaryOnly || policyField(Files.readString(task.resolve("stat"),
                        StandardCharsets.UTF_8)) == ThreadScheduling.SCHED_OTHER))
                    {
                        ids.add(Long.parseLong(task.getFileName().toString()));
                    }
                }
                catch (final NoSuchFileException ex)
                {
                    continue; // the thread ended while the folder was listed
                }
            }
        }
        ids.sort(null);
        return ids;
    }

    /**
     * @param stat a {@code /proc/PID/task/TID/stat} line.
     * @return its policy field (41), read after the name's closing parenthesis (a name may hold spaces).
     */
    static int policyField(final String stat)
    {
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
        return Integer.parseInt(fields[41 - 3]);
    }

    /**
     * @param comm a thread's name as the kernel keeps it.
     * @return whether it names a JIT compiler thread: HotSpot's C1 and C2 ({@code C2 CompilerThread0}), Graal's
     *         ({@code JVMCI CompilerThread0}, {@code JVMCI-native CompilerThread0}).
     */
    static boolean isCompilerThread(final String comm)
    {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")
            || comm.startsWith("JVMCI") && comm.contains("Co");
    }

    /**
     * Lowers the compiler threads that run at {@code SCHED_OTHER} to {@code SCHED_IDLE}.
     *
     * @return them, to put back with {@link Lowered#close()}.
     */
    public static Lowered lower()
    {
        // The policies are read from /proc, not through the bindings: their memory-segment calls, made right before the
        // clock starts, deoptimised JDK methods the issue path shares (-Xlog:deoptimization).
        final List<Long> lowered = new ArrayList<>();
        if (NativeLibrary.isAvailable())
        {
            final List<Long> ordinary;
            try
            {
                ordinary = find(TASKS, true);
            }
            catch (final IOException | RuntimeException ex)
            {
                return Lowered.NONE;
            }
            for (final long tid : ordinary)
            {
                if (ThreadScheduling.trySetPolicy(tid, ThreadScheduling.SCHED_IDLE))
                {
                    lowered.add(tid);
                }
            }
        }
        return new Lowered(lowered);
    }

    /**
     * Compiler threads lowered by {@link #lower()}.
     *
     * @param ids their kernel thread ids.
     */
    public record Lowered(List<Long> ids) implements AutoCloseable
    {
        /** Nothing lowered. */
        public static final Lowered NONE = new Lowered(List.of());

        /**
         * @param ids their kernel thread ids.
         */
        public Lowered
        {
            ids = List.copyOf(ids);
        }

        /**
         * Puts them back to {@code SCHED_OTHER} where the process may; a thread that ended is skipped.
         */
        @Override
        public void close()
        {
            for (final long tid : ids)
            {
                ThreadScheduling.trySetPolicy(tid, ThreadScheduling.SCHED_OTHER);
            }
        }
    }

    /**
     * @return whether this process may raise a thread from {@code SCHED_IDLE} back to {@code SCHED_OTHER} (root,
     *         {@code CAP_SYS_NICE}, or an {@code RLIMIT_NICE} of at least 20): tried once, on a thread of its own.
     */
    public static synchronized boolean canRaiseBack()
    {
        // Not a class initialiser: the probe thread's lambda would wait for the initialisation that waits for it.
        if (raiseBack == null)
        {
            raiseBack = probeRaiseBack();
        }
        return raiseBack;
    }

    private static boolean probeRaiseBack()
    {
        if (!NativeLibrary.isAvailable())
        {
            return false;
        }
        final boolean[] allowed = new boolean[1];
        final Thread probe = new Thread(() -> allowed[0] = ThreadScheduling.tryRunOnlyWhenIdle()
            && ThreadScheduling.trySetPolicy(ThreadScheduling.CALLING_THREAD, ThreadScheduling.SCHED_OTHER),
            "jloadgen-policy-probe");
        probe.setDaemon(true);
        probe.start();
        try
        {
            probe.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
        return allowed[0];
    }
}
