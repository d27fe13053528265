package org.jloadgen.bindings.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Opens {@code libjlg_loadgen_bridge.so}, whose path is known only at run time (it is built per LoadGen source, on
 * first use, into {@code target/official-loadgen}), and resolves {@link JlgBridge}'s symbols in it. A process opens
 * at most one bridge library: LoadGen's state is process-wide.
 */
public final class BridgeLibraryLoader
{
    /** File name of the library. */
    public static final String LIBRARY_FILE_NAME = System.mapLibraryName("jlg_loadgen_bridge");
    /** A symbol every build of the library has; its absence means the file is some other library. */
    static final String PROBE_SYMBOL = "jlg_bridge_start_test";

    private static volatile SymbolLookup lookup;
    private static volatile Path path;

    private BridgeLibraryLoader()
    {
    }

    /**
     * Opens the library once per process; opening the same file again does nothing.
     *
     * @param library the library file.
     * @throws IllegalArgumentException naming the file when it is missing, cannot be opened, or is not the bridge.
     * @throws IllegalStateException    when another bridge library is already open.
     */
    public static synchronized void open(final Path library)
    {
        final Path file = library.toAbsolutePath().normalize();
        if (lookup != null)
        {
            if (!file.equals(path))
            {
                throw new IllegalStateException("the bridge library " + path + " is already open in this process; "
                    + "cannot open " + file + " as well (LoadGen keeps process-wide state: one per process)");
            }
            return;
        }
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("bridge library not found: " + file);
        }
        final SymbolLookup opened;
        try
        {
            opened = SymbolLookup.libraryLookup(file, Arena.global());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("cannot open the bridge library " + file + ": " + ex.getMessage(), ex);
        }
        if (opened.find(PROBE_SYMBOL).isEmpty())
        {
            throw new IllegalArgumentException(file + " has no symbol " + PROBE_SYMBOL + ": not a "
                + LIBRARY_FILE_NAME);
        }
        path = file;
        lookup = opened;
    }

    /**
     * @return whether a bridge library is open.
     */
    public static boolean isOpen()
    {
        return lookup != null;
    }

    /**
     * @return the open library's file, or {@code null}.
     */
    public static Path path()
    {
        return path;
    }

    /**
     * @param symbol a symbol name.
     * @return its address in the open library; empty when none is open or it lacks the symbol.
     */
    public static Optional<MemorySegment> find(final String symbol)
    {
        final SymbolLookup current = lookup;
        return current == null ? Optional.empty() : current.find(symbol);
    }

    /**
     * @return where the symbols come from, for error messages.
     */
    public static String describe()
    {
        final Path current = path;
        return current == null ? "no " + LIBRARY_FILE_NAME + " is open: open it with BridgeLibraryLoader.open first"
            : "in " + current;
    }
}
