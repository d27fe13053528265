package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds and opens the project's native libraries ({@link Library#JLG_NATIVE libjlg_native.so}, and
 * {@link Library#JLG_CUDA libjlg_cuda.so} where it was built) through a chain, and says exactly what it tried when
 * nothing works:
 * <ol>
 *     <li>the system property {@value #PATH_PROP_NAME} (a file, or a directory holding the file): when set, it is
 *     the only place looked at, so a wrong setting is reported instead of silently replaced;</li>
 *     <li>the native module's build output {@value #BUILD_OUTPUT}, searched upwards from where these classes were
 *     loaded and from the working directory;</li>
 *     <li>the copy packaged in the bindings jar under {@value #RESOURCE_DIR}{@code <os>-<arch>/}, extracted to a
 *     temporary file.</li>
 * </ol>
 */
public final class NativeLibraryLoader
{
    /** System property naming the library file (or its directory). */
    public static final String PATH_PROP_NAME = "jloadgen.native.path";
    /** File name of the library. */
    public static final String LIBRARY_FILE_NAME = System.mapLibraryName("jlg_native");
    /** System property naming {@code libjlg_cuda.so} (or its directory). */
    public static final String CUDA_PATH_PROP_NAME = "jloadgen.cuda.path";
    /** Where the native module's build writes the library, relative to the repository root. */
    public static final String BUILD_OUTPUT = "native/target/native/lib";
    /** Classpath folder of the packaged copies, one sub-folder per platform. */
    public static final String RESOURCE_DIR = "/org/jloadgen/bindings/native/";
    /** A symbol every build of the library has; its absence means the file is some other library. */
    static final String PROBE_SYMBOL = "jlg_page_size";

    /**
     * One of the project's libraries and how to find it.
     *
     * @param baseName     e.g. {@code jlg_native}.
     * @param propertyName the system property that names its file.
     * @param probeSymbol  a symbol every build of it exports.
     * @param buildHint    how to build it, for the failure message.
     */
    public record Library(String baseName, String propertyName, String probeSymbol, String buildHint)
    {
        /** {@code libjlg_native.so}: memory, NUMA, affinity. */
        public static final Library JLG_NATIVE = new Library("jlg_native", PATH_PROP_NAME, PROBE_SYMBOL,
            "`mvn -pl bindings -am package` (needs gcc and cmake)");
        /** {@code libjlg_cuda.so}: device kernels, built only where nvcc exists; needs libcudart.so.13 to load. */
        public static final Library JLG_CUDA = new Library("jlg_cuda", CUDA_PATH_PROP_NAME, "jlg_cuda_topk",
            "`mvn -pl bindings -am package` on a machine with nvcc (the CUDA 13 toolkit); loading it also needs "
                + "the CUDA runtime libcudart.so.13 on the library path");

        /**
         * @return the file name, e.g. {@code libjlg_native.so}.
         */
        public String fileName()
        {
            return System.mapLibraryName(baseName);
        }
    }

    private static final int MAX_PARENT_LEVELS = 5;

    private NativeLibraryLoader()
    {
    }

    /**
     * Outcome of a load: either a lookup over the opened library or the reason there is none.
     *
     * @param lookup  symbols of the library, or {@code null} when it could not be loaded.
     * @param path    the file that was opened, or {@code null}.
     * @param source  which step of the chain found it, or {@code null}.
     * @param failure what was looked for and where, when {@code lookup} is {@code null}.
     */
    public record Result(SymbolLookup lookup, Path path, String source, String failure)
    {
        /**
         * @return whether the library is loaded.
         */
        public boolean isLoaded()
        {
            return lookup != null;
        }
    }

    /**
     * @return the result of loading with this process's settings; computed once.
     */
    public static Result result()
    {
        return Holder.RESULT;
    }

    /**
     * @return the result of loading {@code libjlg_cuda.so} with this process's settings; computed once.
     */
    public static Result cudaResult()
    {
        return CudaHolder.RESULT;
    }

    /**
     * @return {@code <os>-<arch>} as the packaged copy's folder is named, e.g. {@code linux-amd64}.
     */
    public static String platform()
    {
        final String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replace(' ', '_');
        return os + "-" + System.getProperty("os.arch", "unknown");
    }

    /**
     * @return the classpath resource of the packaged copy for this platform.
     */
    public static String resourcePath()
    {
        return resourcePath(Library.JLG_NATIVE);
    }

    /**
     * @param library a library.
     * @return the classpath resource of its packaged copy for this platform.
     */
    public static String resourcePath(final Library library)
    {
        return RESOURCE_DIR + platform() + "/" + library.fileName();
    }

    /**
     * Runs the chain for {@code libjlg_native.so} with explicit inputs (the process-wide {@link #result()} uses the
     * real ones).
     *
     * @param propertyValue  value of {@value #PATH_PROP_NAME}, or {@code null} when unset.
     * @param buildOutputs   candidate build-output files, in order.
     * @param resourceLoader where to look for the packaged copy, or {@code null} to skip that step.
     * @return the outcome; never throws.
     */
    public static Result load(
        final String propertyValue, final List<Path> buildOutputs, final ClassLoader resourceLoader)
    {
        return load(Library.JLG_NATIVE, propertyValue, buildOutputs, resourceLoader);
    }

    /**
     * Runs the chain for one library with explicit inputs.
     *
     * @param library        the library.
     * @param propertyValue  value of its system property, or {@code null} when unset.
     * @param buildOutputs   candidate build-output files, in order.
     * @param resourceLoader where to look for the packaged copy, or {@code null} to skip that step.
     * @return the outcome; never throws.
     */
    public static Result load(final Library library,
        final String propertyValue, final List<Path> buildOutputs, final ClassLoader resourceLoader)
    {
        final List<String> tried = new ArrayList<>();
        if (propertyValue != null && !propertyValue.isBlank())
        {
            Path file = Path.of(propertyValue.strip());
            if (Files.isDirectory(file))
            {
                file = file.resolve(library.fileName());
            }
            final String label = "system property " + library.propertyName() + "=" + propertyValue + " -> " + file;
            final Result result = open(library, file, label, tried);
            return result != null ? result : failure(library, tried, true);
        }
        tried.add("system property " + library.propertyName() + ": not set");

        for (final Path file : buildOutputs)
        {
            if (!Files.isRegularFile(file))
            {
                tried.add("build output " + file + ": no such file");
                continue;
            }
            final Result result = open(library, file, "build output " + file, tried);
            if (result != null)
            {
                return result;
            }
        }

        if (resourceLoader != null)
        {
            final Result result = extractAndOpen(library, resourceLoader, tried);
            if (result != null)
            {
                return result;
            }
        }
        return failure(library, tried, false);
    }

    /**
     * @return the build-output candidates for this process: upwards from the bindings classes, then from the
     *         working directory, without duplicates.
     */
    public static List<Path> defaultBuildOutputs()
    {
        return defaultBuildOutputs(Library.JLG_NATIVE);
    }

    /**
     * @param library a library.
     * @return its build-output candidates for this process: upwards from the bindings classes, then from the
     *         working directory, without duplicates.
     */
    public static List<Path> defaultBuildOutputs(final Library library)
    {
        final Set<Path> candidates = new LinkedHashSet<>();
        final CodeSource codeSource = NativeLibraryLoader.class.getProtectionDomain().getCodeSource();
        if (codeSource != null && codeSource.getLocation() != null)
        {
            try
            {
                addAncestors(library, Path.of(codeSource.getLocation().toURI()), candidates);
            }
            catch (final URISyntaxException | IllegalArgumentException ex)
            {
                // A code source that is not a file (e.g. a custom class loader): only the working directory is left.
            }
        }
        addAncestors(library, Path.of(System.getProperty("user.dir", ".")), candidates);
        return List.copyOf(candidates);
    }

    private static void addAncestors(final Library library, final Path start, final Set<Path> candidates)
    {
        Path dir = start.toAbsolutePath().normalize();
        for (int level = 0; level < MAX_PARENT_LEVELS && dir != null; level++)
        {
            candidates.add(dir.resolve(BUILD_OUTPUT).resolve(library.fileName()));
            dir = dir.getParent();
        }
    }

    private static Result extractAndOpen(final Library library, final ClassLoader resourceLoader,
        final List<String> tried)
    {
        final String resource = resourcePath(library);
        try (InputStream in = resourceLoader.getResourceAsStream(resource.substring(1)))
        {
            if (in == null)
            {
                tried.add("classpath resource " + resource + ": not found (no bindings jar with the library for "
                    + platform() + " on the classpath)");
                return null;
            }
            final Path file = Files.createTempFile(library.baseName() + "-", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return open(library, file, "classpath resource " + resource + " extracted to " + file, tried);
        }
        catch (final IOException ex)
        {
            tried.add("classpath resource " + resource + ": cannot extract to " +
                System.getProperty("java.io.tmpdir") + " (" + ex + "); set -Djava.io.tmpdir to a writable folder");
            return null;
        }
    }

    private static Result open(final Library library, final Path file, final String label,
        final List<String> tried)
    {
        if (!Files.isRegularFile(file))
        {
            tried.add(label + ": no such file");
            return null;
        }
        final SymbolLookup lookup;
        try
        {
            lookup = SymbolLookup.libraryLookup(file, Arena.global());
        }
        catch (final IllegalArgumentException | IllegalCallerException ex)
        {
            tried.add(label + ": cannot be opened (" + ex.getMessage() + ")" +
                (label.contains("extracted") ? "; is java.io.tmpdir mounted noexec?" : ""));
            return null;
        }
        if (lookup.find(library.probeSymbol()).isEmpty())
        {
            tried.add(label + ": opened, but it has no symbol " + library.probeSymbol() + " (not lib"
                + library.baseName() + ", or too old)");
            return null;
        }
        return new Result(lookup, file, label, null);
    }

    private static Result failure(final Library library, final List<String> tried, final boolean explicit)
    {
        final StringBuilder message = new StringBuilder(256)
            .append(library.fileName()).append(" could not be loaded (platform ").append(platform())
            .append("). Looked, in order, at:");
        int step = 1;
        for (final String attempt : tried)
        {
            message.append("\n  ").append(step++).append(". ").append(attempt);
        }
        message.append(explicit ?
            "\nFix or unset -D" + library.propertyName() + "." :
            "\nBuild it with " + library.buildHint() + ", or point -D" + library.propertyName() + " at a "
                + library.fileName() + ".");
        return new Result(null, null, null, message.toString());
    }

    private static final class Holder
    {
        static final Result RESULT = load(
            System.getProperty(PATH_PROP_NAME),
            defaultBuildOutputs(),
            NativeLibraryLoader.class.getClassLoader());
    }

    private static final class CudaHolder
    {
        static final Result RESULT = load(Library.JLG_CUDA,
            System.getProperty(CUDA_PATH_PROP_NAME),
            defaultBuildOutputs(Library.JLG_CUDA),
            NativeLibraryLoader.class.getClassLoader());
    }
}
