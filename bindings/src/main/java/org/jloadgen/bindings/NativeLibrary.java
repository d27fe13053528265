package org.jloadgen.bindings;

import java.nio.file.Path;

import org.jloadgen.bindings.internal.NativeLibraryLoader;

/**
 * Whether {@code libjlg_native.so} is loaded, from where, and why not. The library is looked for once, on first
 * use, through the chain described in {@link NativeLibraryLoader}: the system property
 * {@value NativeLibraryLoader#PATH_PROP_NAME}, the native module's build output, then the copy inside the
 * bindings jar.
 */
public final class NativeLibrary
{
    /** System property naming the library file (or its directory). */
    public static final String PATH_PROP_NAME = NativeLibraryLoader.PATH_PROP_NAME;

    private NativeLibrary()
    {
    }

    /**
     * @return whether the library is loaded.
     */
    public static boolean isAvailable()
    {
        return NativeLibraryLoader.result().isLoaded();
    }

    /**
     * @throws NativeLibraryUnavailableException listing every place looked at, when the library is not loaded.
     */
    public static void require()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.result();
        if (!result.isLoaded())
        {
            throw new NativeLibraryUnavailableException(result.failure());
        }
    }

    /**
     * @return the file the library was loaded from.
     * @throws NativeLibraryUnavailableException when it is not loaded.
     */
    public static Path path()
    {
        require();
        return NativeLibraryLoader.result().path();
    }

    /**
     * @return which step of the loading chain found the library, or the failure message when none did.
     */
    public static String describe()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.result();
        return result.isLoaded() ? result.source() : result.failure();
    }
}
