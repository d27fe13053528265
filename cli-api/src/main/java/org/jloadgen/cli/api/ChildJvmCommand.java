package org.jloadgen.cli.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.jloadgen.bindings.JvmFlags;

/**
 * The command line of a child JVM that runs JLoadGen code: a {@code java} launcher, the flags every JLoadGen JVM
 * needs ({@link JvmFlags#REQUIRED}) first, then the caller's flags, the class path, a main class and its arguments.
 * The overhead runner's children, {@code jloadgen submission}'s runs and the tests that run the command line in a
 * process of its own build their commands here.
 * <p>
 * The class path goes in a {@code java} argument file ({@code @file}), not on the command line: a process whose
 * command line is over about 4 KB crashes (SIGSEGV, no hs_err file) as soon as the cpu SUT's ONNX Runtime session
 * runs, and a class path of this project's modules in a deep folder is that long. The argument file keeps the
 * command line short whatever the folder; the crash's own cause is outside this project and was not found.
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
        command.add("@" + classPathFile(classPath));
        command.add(mainClass);
        command.addAll(arguments);
        return command;
    }

    /**
     * @param classPath a class path.
     * @return a {@code java} argument file holding {@code -cp classPath}, written once per class path into the
     *         temporary folder (its name is the class path's hash, so concurrent children share it).
     */
    public static Path classPathFile(final String classPath)
    {
        final String quoted = "\"" + classPath.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        final byte[] content = ("-cp\n" + quoted + "\n").getBytes(StandardCharsets.UTF_8);
        try
        {
            final String hash = HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(content), 0, 12);
            final Path file = Path.of(System.getProperty("java.io.tmpdir"), "jloadgen-classpath-" + hash + ".args");
            if (!Files.isRegularFile(file))
            {
                final Path temporary = Files.createTempFile(file.getParent(), "jloadgen-classpath-", ".tmp");
                Files.write(temporary, content);
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the child JVM's class path file: " + ex.getMessage(), ex);
        }
        catch (final java.security.NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
