package org.jloadgen.bindings;

/**
 * {@code libjlg_native.so} could not be loaded and the caller asked for something only it can do. The message
 * lists every place the library was looked for.
 */
public final class NativeLibraryUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was looked for and where.
     */
    public NativeLibraryUnavailableException(final String message)
    {
        super(message);
    }
}
