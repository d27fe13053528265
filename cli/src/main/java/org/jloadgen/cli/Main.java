package org.jloadgen.cli;

import java.io.PrintWriter;
import java.util.ServiceLoader;

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
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the configured picocli command line (for embedding and tests).
     */
    public static CommandLine commandLine()
    {
        final CommandLine cl = new CommandLine(new Main());
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
