package org.jloadgen.cli.api;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The width of the terminal standard error stands on, read afresh at each call so that a resized window is followed:
 * the kernel's window size of file descriptor 2 ({@code ioctl(TIOCGWINSZ)}, Linux), else {@code $COLUMNS}, else 80.
 */
final class TerminalWidth
{
    /** When nothing tells: the classic terminal width. */
    static final int DEFAULT_COLUMNS = 80;
    /** Linux's {@code TIOCGWINSZ} request (x86-64, AArch64). */
    private static final long TIOCGWINSZ = 0x5413L;
    private static final MethodHandle IOCTL = ioctl();

    private TerminalWidth()
    {
    }

    /**
     * @return the number of columns of standard error's terminal.
     */
    static int columns()
    {
        final int tty = ttyColumns();
        return tty > 0 ? tty : fromEnvironment(System.getenv("COLUMNS"));
    }

    /**
     * @param columns the value of {@code $COLUMNS}, or {@code null}.
     * @return its value when it is a positive number, else {@link #DEFAULT_COLUMNS}.
     */
    static int fromEnvironment(final String columns)
    {
        if (columns != null)
        {
            try
            {
                final int value = Integer.parseInt(columns.strip());
                if (value > 0)
                {
                    return value;
                }
            }
            catch (final NumberFormatException ignored)
            {
                // Not a number: the default.
            }
        }
        return DEFAULT_COLUMNS;
    }

    private static int ttyColumns()
    {
        if (IOCTL == null)
        {
            return -1;
        }
        try (Arena scratch = Arena.ofConfined())
        {
            // struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; }
            final MemorySegment size = scratch.allocate(8, 2);
            final int result = (int)IOCTL.invokeExact(2, TIOCGWINSZ, size);
            return result == 0 ? Short.toUnsignedInt(size.get(ValueLayout.JAVA_SHORT, 2)) : -1;
        }
        catch (final Throwable ex)
        {
            // No terminal size from the kernel: $COLUMNS or the default.
            return -1;
        }
    }

    private static MethodHandle ioctl()
    {
        if (!System.getProperty("os.name", "").startsWith("Linux"))
        {
            return null;
        }
        try
        {
            final Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("ioctl").map(address -> linker.downcallHandle(address,
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS), Linker.Option.firstVariadicArg(2))).orElse(null);
        }
        catch (final RuntimeException ex)
        {
            // Native access refused (no --enable-native-access): $COLUMNS or the default.
            return null;
        }
    }
}
