package org.jloadgen.bindings;

/**
 * A native call failed: carries the function, the errno value it returned and a message that says what was
 * asked, what the error means and, where known, how to fix it.
 */
public final class NativeException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int errno;

    /**
     * @param function the native function that failed, e.g. {@code mlock}.
     * @param errno    the errno value it returned.
     * @param message  the full message.
     */
    public NativeException(final String function, final int errno, final String message)
    {
        super(message);
        this.function = function;
        this.errno = errno;
    }

    /**
     * @return the native function that failed.
     */
    public String function()
    {
        return function;
    }

    /**
     * @return the errno value.
     */
    public int errno()
    {
        return errno;
    }

    /**
     * @return the symbolic name of {@link #errno()}, e.g. {@code ENOMEM}.
     */
    public String errnoName()
    {
        return Errno.name(errno);
    }
}
