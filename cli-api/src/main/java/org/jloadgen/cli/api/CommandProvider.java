package org.jloadgen.cli.api;

/**
 * Plugs a sub-command into the {@code jloadgen} command line through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.jloadgen.cli.api.CommandProvider}), the way {@link SutProvider} plugs in a SUT: a
 * module adds {@code jloadgen <command>} by being on the class path, so the harness never depends on a tool.
 * <p>
 * {@code jloadgen --help} lists the commands that are installed. Commands use the exit codes of
 * {@code org.jloadgen.cli.Main}.
 */
public interface CommandProvider
{
    /**
     * @return a new picocli command object: an instance of a class annotated with {@code picocli.CommandLine.Command}
     *         whose {@code name} is the sub-command's name (e.g. {@code overhead}), usually a
     *         {@code Callable<Integer>} returning the exit code.
     */
    Object newCommand();
}
