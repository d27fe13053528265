package org.jloadgen.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;

import org.jloadgen.cli.api.CommandProvider;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.concurrent.CpuBudget;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code jloadgen}: the command-line tool. The built-in commands are {@code run}, {@code trace} and {@code accuracy};
 * other modules add theirs through {@link CommandProvider}. Exit codes: 0 a run finished VALID (or an accuracy run
 * finished
 * without errors), 3 it finished INVALID or with errors in its logs, 2 bad usage, settings or files, 1 an
 * unexpected failure.
 */
@Command(
    name = "jloadgen",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "MLPerf Inference LoadGen in Java: runs, traces and scores benchmarks.")
public final class Main implements Runnable
{
    /**
     * The commands of this module by the names their {@code @Command} annotations give them, in the order the usage
     * lists them; added by {@link #commandLine(String)} rather than the annotation, so that a process builds only the
     * picocli model of the command it runs.
     */
    static final Map<String, Supplier<Object>> BUILT_IN = builtIn();

    static
    {
        // picocli's factory looks for Groovy's Closure class across the whole class path unless told not to (its
        // documented switch): 14 ms of each start's main thread (async-profiler, wall), for a language not used here.
        if (System.getProperty("picocli.disable.closures") == null)
        {
            System.setProperty("picocli.disable.closures", "true");
        }
    }

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        // Opens the budget's measurement of other processes' load now, so the start-up spans its window instead of
        // a 250 ms sleep before the test (OtherProcesses.Window); a few /proc reads for commands that never ask.
        CpuBudget.process();
        // "jloadgen --version" alone needs no command's model (scripts call it to check the tool).
        final boolean versionOnly = args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
        System.exit((versionOnly ? configure(new CommandLine(new Main())) : commandLine(args.length > 0 ? args[0]
            : null)).execute(args));
    }

    /**
     * @return the configured picocli command line with every installed command (for embedding and tests).
     */
    public static CommandLine commandLine()
    {
        return commandLine(null);
    }

    /**
     * @param firstArgument the process's first argument, or {@code null}: when it names a built-in command, the
     *                      command line holds that command alone. picocli builds a command's model from its
     *                      annotations by reflection, in the interpreter at start-up: the other modules' commands took
     *                      0.15 s of a 0.47 s {@code jloadgen --version}, and {@code trace}, {@code accuracy} and
     *                      {@code help} beside {@code run} another 0.05 s on the 2-CPU machine
     *                      ({@code -Xlog:class+load:file=F:uptime}, issue 20).
     * @return the command line.
     */
    static CommandLine commandLine(final String firstArgument)
    {
        final CommandLine cl = new CommandLine(new Main());
        final Supplier<Object> only = firstArgument == null ? null : BUILT_IN.get(firstArgument);
        if (only != null)
        {
            cl.addSubcommand(firstArgument, only.get());
            return configure(cl);
        }
        BUILT_IN.forEach((name, command) -> cl.addSubcommand(name, command.get()));
        cl.addSubcommand("help", new CommandLine.HelpCommand());
        for (final CommandProvider provider : ServiceLoader.load(CommandProvider.class))
        {
            final Object command = provider.newCommand();
            final String name = new CommandLine(command).getCommandName();
            if (cl.getSubcommands().containsKey(name))
            {
                throw new IllegalStateException("two installed modules provide the command '" + name + "': "
                    + cl.getSubcommands().get(name).getCommand().getClass().getName() + " and "
                    + command.getClass().getName());
            }
            cl.addSubcommand(name, command);
        }
        return configure(cl);
    }

    private static Map<String, Supplier<Object>> builtIn()
    {
        final Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("run", RunCommand::new);
        commands.put("trace", TraceCommand::new);
        commands.put("accuracy", AccuracyCommand::new);
        return java.util.Collections.unmodifiableMap(commands);
    }

    private static CommandLine configure(final CommandLine cl)
    {
        cl.setExecutionStrategy(SutHelp::executeOrHelp);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) ->
        {
            final PrintWriter err = commandLine.getErr();
            if (ex instanceof IllegalArgumentException || ex instanceof org.jloadgen.config.ConfigException
                || ex instanceof java.io.UncheckedIOException || ex instanceof java.nio.file.NoSuchFileException)
            {
                err.println("jloadgen: " + ex.getMessage());
                return ExitCodes.USAGE;
            }
            err.println("jloadgen: unexpected failure: " + ex);
            ex.printStackTrace(err);
            return ExitCodes.FAILURE;
        });
        return cl;
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Prints JLoadGen's version.
     */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            return new String[] {org.jloadgen.engine.VersionInfo.version()};
        }
    }
}
