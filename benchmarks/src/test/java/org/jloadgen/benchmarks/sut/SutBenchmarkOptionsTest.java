package org.jloadgen.benchmarks.sut;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.ServerWaitStrategy;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SutBenchmarkOptionsTest
{
    @Command(name = "bench", mixinStandardHelpOptions = true, defaultValueProvider = Bench.Defaults.class)
    static final class Bench implements Runnable
    {
        @Mixin
        SutBenchmarkOptions bench;

        @Override
        public void run()
        {
        }

        /** The SUT's defaults. */
        public static final class Defaults extends SutBenchmarkOptions.Defaults
        {
            /** The defaults. */
            public Defaults()
            {
                super("1000,2000", "SPIN", "out/bench-x");
            }
        }
    }

    private static SutBenchmarkOptions parse(final String... args)
    {
        final Bench command = new Bench();
        new CommandLine(command).parseArgs(args);
        return command.bench;
    }

    @Test
    void shouldTakeTheBenchmarksDefaultsWhereTheyDependOnTheSut()
    {
        final SutBenchmarkOptions options = parse();
        assertEquals(10, options.seconds());
        assertEquals(3, options.rounds());
        assertEquals(List.of(1000.0, 2000.0), options.serverQps());
        assertEquals(ServerWaitStrategy.SPIN, options.serverWait());
        assertEquals(CompletionWaitStrategy.SLEEP, options.completionWait());
        assertEquals(Path.of("out/bench-x"), options.out());
        assertTrue(options.server());
        assertTrue(options.offline());
    }

    @Test
    void shouldReplaceTheDefaultsByWhatTheUserGives()
    {
        final SutBenchmarkOptions options = parse("--seconds", "2", "--rounds", "5", "--server-qps", "7,8,9",
            "--no-server", "--no-offline", "--server-wait", "HYBRID", "--completion-wait", "SPIN", "--out", "o");
        assertEquals(2, options.seconds());
        assertEquals(5, options.rounds());
        assertEquals(List.of(7.0, 8.0, 9.0), options.serverQps());
        assertEquals(ServerWaitStrategy.HYBRID, options.serverWait());
        assertEquals(CompletionWaitStrategy.SPIN, options.completionWait());
        assertEquals(Path.of("o"), options.out());
        assertFalse(options.server());
        assertFalse(options.offline());
    }

    @Test
    void shouldShowTheBenchmarksDefaultsInTheHelp()
    {
        final StringWriter help = new StringWriter();
        new CommandLine(new Bench()).usage(new PrintWriter(help));
        final String text = help.toString().replaceAll("\\s+", " ");
        assertTrue(text.contains("comma-separated (default: 1000,2000)"), text);
        assertTrue(text.contains("HYBRID (default: SPIN)"), text);
        assertTrue(text.contains("Log folder (default: out/bench-x)"), text);
    }
}
