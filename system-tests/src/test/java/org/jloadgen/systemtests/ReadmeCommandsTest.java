package org.jloadgen.systemtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every command of the root README.md runs as written from a fresh clone: each in turn, in a folder that shows the
 * repository as a clone does (links to its top-level entries, no {@code out/} and no build output), through the real
 * {@code ./jloadgen} launcher on the jars this build has just packaged ({@code JLOADGEN_NO_BUILD}). A command passes
 * when it exits 0, or 3 (a run that finished INVALID: the command worked, the machine was too busy). How a command
 * is shortened or why it is skipped is written beside it in the README ({@link ReadmeCommands}).
 */
class ReadmeCommandsTest
{
    /** Longest time one command may take. */
    private static final long COMMAND_LIMIT_S = 600;
    /** Top-level entries a fresh clone does not have. */
    private static final Set<String> NOT_IN_A_CLONE = Set.of(".git", "target", "out");

    static Path root()
    {
        final String dir = System.getProperty("jloadgen.root.dir");
        return dir != null ? Path.of(dir).toAbsolutePath().normalize() : Path.of("..").toAbsolutePath().normalize();
    }

    @TestFactory
    Stream<DynamicTest> everyReadmeCommandRunsAsWritten() throws IOException
    {
        final Path root = root();
        final List<ReadmeCommands.Command> commands = ReadmeCommands.parse(
            Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));
        assertTrue(commands.size() >= 5, "found only " + commands.size() + " commands in README.md");
        final Path clone = freshCloneView(root);
        final Path logs = Files.createDirectories(root.resolve("system-tests/target/readme-logs"));
        return commands.stream().map(c -> DynamicTest.dynamicTest("README line " + c.line() + ": " + c.written(),
            () -> run(c, clone, logs)));
    }

    /**
     * A folder that looks like a fresh clone: a link to every top-level entry of the repository but the build output
     * and what earlier runs wrote.
     */
    private static Path freshCloneView(final Path root) throws IOException
    {
        final Path view = root.resolve("system-tests/target/readme-clone");
        if (Files.exists(view))
        {
            try (Stream<Path> files = Files.walk(view))
            {
                // Links are deleted, not followed.
                for (final Path p : files.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(view);
        try (Stream<Path> entries = Files.list(root))
        {
            for (final Path entry : entries.toList())
            {
                final String name = entry.getFileName().toString();
                if (!NOT_IN_A_CLONE.contains(name))
                {
                    Files.createSymbolicLink(view.resolve(name), entry);
                }
            }
        }
        return view;
    }

    private static void run(final ReadmeCommands.Command command, final Path clone, final Path logs)
        throws IOException, InterruptedException
    {
        if (command.skipped())
        {
            System.out.println("README line " + command.line() + ": skipped (" + command.skipReason() + "): "
                + command.written());
            return;
        }
        if ("loadgen".equals(command.needs()) && !hasLoadGenSource())
        {
            System.out.println("README line " + command.line() + ": skipped (needs the official LoadGen sources: set "
                + "LOADGEN_DIR to the loadgen folder of an mlcommons/inference checkout): " + command.written());
            return;
        }
        final Path log = logs.resolve("line-" + command.line() + ".txt");
        final ProcessBuilder builder = new ProcessBuilder("bash", "-c", command.command()).directory(clone.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JLOADGEN_NO_BUILD", "1");
        builder.environment().putAll(command.env());
        final Process process = builder.start();
        if (!process.waitFor(COMMAND_LIMIT_S, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
            fail("still running after " + COMMAND_LIMIT_S + " s: " + command.command() + "\n" + tail(log));
        }
        final int status = process.exitValue();
        if (status != 0 && status != 3)
        {
            fail("exit status " + status + ": " + command.command() + "\n" + tail(log));
        }
    }

    /** Where {@code ./jloadgen} looks for the official LoadGen: {@code $LOADGEN_DIR}, else beside the repository. */
    private static boolean hasLoadGenSource()
    {
        final String env = System.getenv("LOADGEN_DIR");
        final Path source = env != null && !env.isBlank() ? Path.of(env)
            : root().resolve("../shared/mlperf-inference/loadgen");
        return Files.isRegularFile(source.resolve("loadgen.h"));
    }

    private static String tail(final Path log) throws IOException
    {
        final List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Test
    void shouldReadCommandsContinuationsAndDirectives()
    {
        final String readme = String.join("\n",
            "Text.",
            "<!-- readme-test",
            "skip `./scripts/test` it is the suite this check runs in",
            "append `./jloadgen run --scenario Server` --set min_duration_ms=1000",
            "env `./jloadgen run --scenario Offline` A=1 B=x=y",
            "replace `./jloadgen overhead` `--output overhead.md` `--only smoke`",
            "needs `./jloadgen trace` loadgen",
            "-->",
            "",
            "```sh",
            "./scripts/test   # every test",
            "# a comment line",
            "./jloadgen run --scenario Server \\",
            "    --sut synthetic",
            "./jloadgen run --scenario Offline",
            "./jloadgen overhead --output overhead.md",
            "./jloadgen trace '#not a comment'",
            "```",
            "```java",
            "not a command",
            "```");
        final List<ReadmeCommands.Command> commands = ReadmeCommands.parse(readme);
        assertEquals(5, commands.size());
        assertEquals("it is the suite this check runs in", commands.get(0).skipReason());
        assertEquals("./scripts/test", commands.get(0).written());
        assertEquals(13, commands.get(1).line());
        assertEquals("./jloadgen run --scenario Server --sut synthetic --set min_duration_ms=1000",
            commands.get(1).command());
        assertEquals(Map.of("A", "1", "B", "x=y"), commands.get(2).env());
        assertEquals("./jloadgen overhead --only smoke", commands.get(3).command());
        assertEquals("./jloadgen trace '#not a comment'", commands.get(4).command());
        assertEquals("loadgen", commands.get(4).needs());
        assertEquals(null, commands.get(3).needs());
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> ReadmeCommands.parse("<!-- readme-test: needs `./x` gpu -->\n```sh\n./x\n```\n"));
        assertEquals("README line 1: needs knows only 'loadgen', got 'gpu'", unknown.getMessage());
    }

    @Test
    void shouldRefuseADirectiveThatNamesNoCommandOrSeveral()
    {
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
            () -> ReadmeCommands.parse("<!-- readme-test: skip `./gone` removed -->\n```sh\n./jloadgen run\n```\n"));
        assertEquals("README line 1: `./gone` names no command of the block after it", none.getMessage());
        final IllegalArgumentException several = assertThrows(IllegalArgumentException.class,
            () -> ReadmeCommands.parse("<!-- readme-test: skip `./jloadgen` slow -->\n```sh\n./jloadgen run\n"
                + "./jloadgen trace\n```\n"));
        assertEquals("README line 1: `./jloadgen` names more than one command of its block", several.getMessage());
        final IllegalArgumentException reason = assertThrows(IllegalArgumentException.class,
            () -> ReadmeCommands.parse("<!-- readme-test: skip `./jloadgen run` -->\n```sh\n./jloadgen run\n```\n"));
        assertEquals("README line 1: 'skip' needs an argument (skip: the reason)", reason.getMessage());
        final IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
            () -> ReadmeCommands.parse("<!-- readme-test: skip `./x` y -->\nText.\n```sh\n./x\n```\n"));
        assertEquals("README line 2: readme-test directives must come directly before a shell block",
            far.getMessage());
    }
}
