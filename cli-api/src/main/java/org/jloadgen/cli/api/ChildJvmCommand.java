package org.jloadgen.cli.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.bindings.JvmFlags;

/**
 * The command line of a child JVM that runs JLoadGen code: a {@code java} launcher, the flags every JLoadGen JVM
 * needs ({@link JvmFlags#REQUIRED}) first, then the caller's flags, the class path, a main class and its arguments.
 * The overhead runner's children and the tests that run the command line in a process of its own build their
 * commands here.
 *
 * @param javaBinary the {@code java} launcher.
 * @param classPath  the class path.
 */
public record ChildJvmCommand(Path javaBinary, String classPath)
{
    /**
     * @return the launcher and class path of this JVM.
     */
    public static ChildJvmCommand likeThisJvm()
    {
        return new ChildJvmCommand(Path.of(System.getProperty("java.home"), "bin", "java"),
            System.getProperty("java.class.path"));
    }

    /**
     * @param jvmFlags  flags after {@link JvmFlags#REQUIRED} (GC, heap, system properties...).
     * @param mainClass the class to run.
     * @param arguments its arguments.
     * @return the whole command, a new mutable list.
     */
    public List<String> command(final List<String> jvmFlags, final String mainClass, final List<String> arguments)
    {
        final List<String> command = new ArrayList<>();
        command.add(javaBinary.toString());
        command.addAll(JvmFlags.REQUIRED);
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(arguments);
        return command;
    }
}
