package org.jloadgen.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.cli.api.ExitCodes;

/**
 * The workload the {@code jloadgen} launcher records its JVM start-up cache with (JDK 25's AOT cache,
 * {@code -XX:AOTCacheOutput}): short null-SUT tests of every scenario, run in this one process as {@code jloadgen run}
 * runs them, into a temporary folder that is deleted afterwards. The cache then holds the classes these runs load and
 * link, so that a later {@code jloadgen} process starts sooner. Not a command: the launcher runs it once per build (and
 * again when the class path or the JDK changes).
 * <p>
 * By default the cache holds classes only, and the tests run with a 1 ms engine warm-up and short durations: loading
 * and linking needs each path taken once, not compiled (about 4 s to record). With {@code --profiles}
 * ({@code JLOADGEN_AOT_CACHE=profiles}) they run as long as a user's short tests, and the cache keeps the method
 * profiles they gathered too, so that the engine's warm-up compiles sooner; those profiles cost the measured loops
 * (MultiStream 8.8M to 6.4M queries/s, benchmarks/README.md), hence not the default.
 */
public final class AotTraining
{
    /** The tests, each as {@code jloadgen run} arguments; together about as long as one short Offline run. */
    private static final List<List<String>> TESTS = List.of(
        List.of("--sut", "null", "--scenario", "Offline", "--set", "offline_expected_qps=300000",
            "--set", "min_duration_ms=1000"),
        List.of("--sut", "null", "--scenario", "SingleStream", "--set", "single_stream_expected_latency_ns=2500",
            "--set", "min_duration_ms=500"),
        List.of("--sut", "null", "--scenario", "MultiStream", "--set", "multi_stream_expected_latency_ns=20000",
            "--set", "min_duration_ms=500"),
        List.of("--sut", "null-worker", "--scenario", "Server", "--set", "server_target_qps=20000",
            "--set", "min_duration_ms=500"),
        List.of("--sut", "null", "--scenario", "Server", "--set", "server_target_qps=200000",
            "--set", "min_duration_ms=300"));
    /** For a cache of classes only: each test shortened, its engine warm-up down to one round or so. */
    private static final List<String> CLASSES_ONLY = List.of("--jit-warmup-ms", "1", "--set", "min_duration_ms=50");

    private AotTraining()
    {
    }

    /**
     * Runs the training tests; exits 0 when each ran to its end (VALID or not), 1 otherwise.
     *
     * @param args {@code --profiles} for the full-length tests whose method profiles the cache keeps; none for a
     *             cache of classes only.
     * @throws IOException if the temporary folder cannot be created.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path dir = Files.createTempDirectory("jloadgen-aot-training");
        final List<Integer> exits;
        try
        {
            exits = run(dir, List.of(args).contains("--profiles"));
        }
        finally
        {
            delete(dir);
        }
        System.exit(exits.stream().allMatch(AotTraining::ranToItsEnd) ? 0 : 1);
    }

    /**
     * Runs the training tests, each into a folder of its own under {@code dir}.
     *
     * @param dir      where the tests write their logs.
     * @param profiles whether the tests run full length (for method profiles) or shortened (for classes only).
     * @return each test's exit code, in order.
     */
    static List<Integer> run(final Path dir, final boolean profiles)
    {
        final List<Integer> exits = new ArrayList<>();
        for (int i = 0; i < TESTS.size(); i++)
        {
            final List<String> command = new ArrayList<>(List.of("run", "--quiet", "--no-audit-config",
                "--out", dir.resolve("test-" + i).toString()));
            command.addAll(TESTS.get(i));
            if (!profiles)
            {
                // The later --set wins: LoadGen's settings apply in order.
                command.addAll(CLASSES_ONLY);
            }
            exits.add(Main.commandLine().execute(command.toArray(String[]::new)));
        }
        return exits;
    }

    /**
     * @param exit a test's exit code.
     * @return whether the test ran to its end, VALID or INVALID.
     */
    static boolean ranToItsEnd(final int exit)
    {
        return exit == ExitCodes.VALID || exit == ExitCodes.INVALID;
    }

    private static void delete(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("could not delete the training folder " + dir, ex);
        }
    }
}
