package org.jloadgen.cli.api;

import java.util.ServiceLoader;

/**
 * The whole {@code jloadgen} command line, for a tool that runs a command in-process (the overhead benchmark's
 * child JVM) without depending on the CLI module: the CLI contributes it through {@link ServiceLoader}.
 */
public interface CommandLineEntry
{
    /**
     * @param args a {@code jloadgen} command line, e.g. {@code run --sut null}.
     * @return the command's exit code ({@link ExitCodes}).
     */
    int execute(String... args);

    /**
     * @return the installed command line.
     * @throws IllegalStateException when the CLI module is not on the class path.
     */
    static CommandLineEntry installed()
    {
        return ServiceLoader.load(CommandLineEntry.class, CommandLineEntry.class.getClassLoader()).findFirst()
            .orElseThrow(() -> new IllegalStateException("the jloadgen command line (module jloadgen-cli) is not "
                + "on the class path"));
    }
}
