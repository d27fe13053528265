package org.jloadgen.systemtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code jloadgen} launcher's JVM start-up cache (JDK 25's AOT cache, on by default): recorded once into the
 * tree's {@code target/}, then used (the CLI's own classes come from it), and a bad {@code JLOADGEN_AOT_CACHE} value
 * is refused by name. Runs the launcher from a tree of its own (a copy of the script, links to everything else but
 * {@code target/}) on the jars this build made ({@code JLOADGEN_NO_BUILD}, with the cache asked for by name).
 */
class LauncherStartupCacheTest
{
    private static final long LIMIT_S = 180;
    /** Top-level entries the tree does not link: build output and what earlier runs wrote. */
    private static final Set<String> NOT_LINKED = Set.of(".git", "target", "out", "jloadgen");

    @TempDir
    Path tree;

    @Test
    void shouldRecordTheCacheOnceAndStartFromIt() throws IOException, InterruptedException
    {
        assumeTrue(Runtime.version().feature() >= 25, "the AOT cache needs JDK 25");
        linkTree();

        final Run first = launch(Map.of("JLOADGEN_AOT_CACHE", "1"), "--version");
        assertEquals(0, first.status(), first.output());
        assertTrue(first.output().contains("recording the JVM start-up cache"), first.output());
        final Path cache = tree.resolve("target/jloadgen-classes.aot");
        assertTrue(Files.size(cache) > 1_000_000, "cache size " + Files.size(cache));
        assertTrue(Files.isRegularFile(tree.resolve("target/jloadgen-classes.aot.key")));

        final Path classes = tree.resolve("class-load.txt");
        final Run second = launch(Map.of("JLOADGEN_AOT_CACHE", "1",
            "JLOADGEN_JAVA_OPTS", "-Xlog:class+load:file=" + classes), "--version");
        assertEquals(0, second.status(), second.output());
        assertFalse(second.output().contains("recording"), "recorded twice: " + second.output());
        final String loaded = Files.readString(classes, StandardCharsets.UTF_8);
        assertTrue(loaded.contains("org.jloadgen.cli.Main source: shared objects file"),
            "the CLI's main class did not come from the cache");

        // A jar newer than the cache (a rebuild) makes it stale: here the cache's key is made older than the jars.
        Files.setLastModifiedTime(tree.resolve("target/jloadgen-classes.aot.key"), FileTime.fromMillis(0));
        final Run third = launch(Map.of("JLOADGEN_AOT_CACHE", "1"), "--version");
        assertEquals(0, third.status(), third.output());
        assertTrue(third.output().contains("recording the JVM start-up cache"), "not recorded again after a "
            + "rebuild: " + third.output());
    }

    @Test
    void shouldRefuseAnUnknownSetting() throws IOException, InterruptedException
    {
        linkTree();
        final Run run = launch(Map.of("JLOADGEN_AOT_CACHE", "yes please"), "--version");
        assertEquals(2, run.status(), run.output());
        assertTrue(run.output().contains("JLOADGEN_AOT_CACHE=yes please: expected 1"), run.output());
    }

    private void linkTree() throws IOException
    {
        final Path root = ReadmeCommandsTest.root();
        Files.copy(root.resolve("jloadgen"), tree.resolve("jloadgen"));
        tree.resolve("jloadgen").toFile().setExecutable(true);
        try (Stream<Path> entries = Files.list(root))
        {
            for (final Path entry : entries.toList())
            {
                if (!NOT_LINKED.contains(entry.getFileName().toString()))
                {
                    Files.createSymbolicLink(tree.resolve(entry.getFileName().toString()), entry);
                }
            }
        }
    }

    private Run launch(final Map<String, String> env, final String... args) throws IOException, InterruptedException
    {
        final Path log = Files.createTempFile(tree, "launcher", ".txt");
        final ProcessBuilder builder = new ProcessBuilder(Stream.concat(Stream.of("./jloadgen"), Stream.of(args))
            .toList()).directory(tree.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JLOADGEN_NO_BUILD", "1");
        builder.environment().remove("JLOADGEN_JAVA_OPTS");
        builder.environment().putAll(env);
        final Process process = builder.start();
        if (!process.waitFor(LIMIT_S, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the launcher still ran after " + LIMIT_S + " s: "
                + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private record Run(int status, String output)
    {
    }
}
