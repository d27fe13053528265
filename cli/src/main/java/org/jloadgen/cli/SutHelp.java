package org.jloadgen.cli;

import java.io.PrintWriter;

import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.cli.api.SutCommandOptions;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.SutOption;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * {@code --help} of a command that takes {@code --sut NAME} ({@code run}, {@code peak}, {@code serve}), given with
 * {@code --sut}: the command's usage, then that SUT's options with their types, defaults and meanings, from the
 * provider's {@link SutProvider#options()} declarations.
 */
final class SutHelp
{
    private SutHelp()
    {
    }

    /**
     * picocli's execution strategy: the SUT's options after the usage where {@code --help} and {@code --sut} were
     * both given, else the usual {@link CommandLine.RunLast}.
     *
     * @param parsed the parsed command line.
     * @return the exit code.
     */
    static int executeOrHelp(final ParseResult parsed)
    {
        ParseResult last = parsed;
        while (last.hasSubcommand())
        {
            last = last.subcommand();
        }
        if (!last.isUsageHelpRequested() || !last.hasMatchedOption("--sut"))
        {
            return new CommandLine.RunLast().execute(parsed);
        }
        final CommandLine command = last.commandSpec().commandLine();
        final String name = last.matchedOptionValue("--sut", "");
        final String options;
        try
        {
            options = text(name);
        }
        catch (final IllegalArgumentException ex)
        {
            command.getErr().println("jloadgen: " + ex.getMessage());
            command.getErr().flush();
            return ExitCodes.USAGE;
        }
        final PrintWriter out = command.getOut();
        command.usage(out);
        out.println();
        out.print(options);
        out.flush();
        return ExitCodes.VALID;
    }

    /**
     * @param sutName an installed SUT.
     * @return its one-line description and its options.
     * @throws IllegalArgumentException naming the installed SUTs when the name is unknown.
     */
    static String text(final String sutName)
    {
        final SutProvider provider = SutCommandOptions.provider(sutName);
        // 80 columns, as picocli's usage above it: continuation lines under the option's meaning.
        return ConsoleText.wrap(provider.name() + ": " + provider.description(), "  ") + "\n"
            + ConsoleText.wrap(SutOption.format(provider.name(), provider.options()), "      ");
    }
}
