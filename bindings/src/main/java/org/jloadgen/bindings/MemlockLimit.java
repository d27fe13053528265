package org.jloadgen.bindings;

/**
 * RLIMIT_MEMLOCK of this process: how many bytes it may lock in RAM without CAP_IPC_LOCK.
 *
 * @param softBytes the soft (enforced) limit, or {@link #UNLIMITED}.
 * @param hardBytes the hard limit (ceiling for the soft one), or {@link #UNLIMITED}.
 */
public record MemlockLimit(long softBytes, long hardBytes)
{
    /** RLIM_INFINITY as a signed 64-bit value. */
    public static final long UNLIMITED = -1L;

    /**
     * @return e.g. {@code soft 8388608 bytes, hard unlimited}.
     */
    public String describe()
    {
        return "soft " + bytes(softBytes) + ", hard " + bytes(hardBytes);
    }

    private static String bytes(final long value)
    {
        return value == UNLIMITED ? "unlimited" : value + " bytes";
    }
}
