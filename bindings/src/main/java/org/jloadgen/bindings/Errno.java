package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.jloadgen.bindings.internal.JlgNative;

/**
 * Names and texts of the errno values the native functions return (Linux numbering, the same on x86-64 and
 * aarch64).
 */
final class Errno
{
    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EFAULT = 14;
    static final int EBUSY = 16;
    static final int EINVAL = 22;
    static final int ERANGE = 34;
    static final int ENOSYS = 38;
    static final int EOPNOTSUPP = 95;

    private static final int TEXT_BYTES = 256;

    private Errno()
    {
    }

    /**
     * @param errno an errno value.
     * @return its symbolic name, e.g. {@code ENOMEM}, or {@code errno <n>} for one not listed here.
     */
    static String name(final int errno)
    {
        return switch (errno)
        {
            case EPERM -> "EPERM";
            case ESRCH -> "ESRCH";
            case EINTR -> "EINTR";
            case EIO -> "EIO";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EACCES -> "EACCES";
            case EFAULT -> "EFAULT";
            case EBUSY -> "EBUSY";
            case EINVAL -> "EINVAL";
            case ERANGE -> "ERANGE";
            case ENOSYS -> "ENOSYS";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            default -> "errno " + errno;
        };
    }

    /**
     * @param errno an errno value.
     * @return {@code NAME (strerror text)}, e.g. {@code ENOMEM (Cannot allocate memory)}.
     */
    static String describe(final int errno)
    {
        if (!NativeLibrary.isAvailable())
        {
            return name(errno);
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment text = arena.allocate(TEXT_BYTES);
            JlgNative.jlg_strerror(errno, text, TEXT_BYTES);
            return name(errno) + " (" + text.getString(0) + ")";
        }
    }
}
