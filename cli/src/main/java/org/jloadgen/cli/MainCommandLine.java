package org.jloadgen.cli;

import org.jloadgen.cli.api.CommandLineEntry;

/**
 * {@link Main}'s command line for tools that run a command in-process through the CLI API.
 */
public final class MainCommandLine implements CommandLineEntry
{
    @Override
    public int execute(final String... args)
    {
        return Main.commandLine().execute(args);
    }
}
