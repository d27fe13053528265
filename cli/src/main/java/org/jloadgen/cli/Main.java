package org.jloadgen.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

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
    description = "MLPerf Inference LoadGen in Java: runs, traces and scores benchmarks.",
    subcommands = {RunCommand.class, TraceCommand.class, AccuracyCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements Runnable
{
    /** The commands of this module, named as their {@code @Command} annotations name them. */
    static final Set<String> BUILT_IN = Set.of("run", "trace", "accuracy");

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
        System.exit(commandLine(args.length > 0 && BUILT_IN.contains(args[0])).execute(args));
    }

    /**
     * @return the configured picocli command line with every installed command (for embedding and tests).
     */
    public static CommandLine commandLine()
    {
        return commandLine(false);
    }

    /**
     * @param builtInOnly whether to leave out the commands other modules provide: a process that runs a built-in
     *                    command does not build their picocli models, which took 0.15 s of a 0.47 s
     *                    {@code jloadgen --version} on the 2-CPU machine ({@code -Xlog:class+load:file=F:uptime}).
     */
    static CommandLine commandLine(final boolean builtInOnly)
    {
        final CommandLine cl = new CommandLine(new Main());
        for (final CommandProvider provider : builtInOnly ? List.<CommandProvider>of()
            : ServiceLoader.load(CommandProvider.class))
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
