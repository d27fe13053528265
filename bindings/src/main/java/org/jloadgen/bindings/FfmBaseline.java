package org.jloadgen.bindings;

import org.jloadgen.bindings.internal.JlgNative;

/**
 * The FFM side of the FFM-versus-JNI call-overhead baseline: a critical downcall of a C function that returns
 * its argument plus one (see {@link JniBaseline}). Loading this class fails when the library is not loaded.
 */
public final class FfmBaseline
{
    static
    {
        NativeLibrary.require();
    }

    private FfmBaseline()
    {
    }

    /**
     * @param value any value.
     * @return {@code value + 1}, computed in C.
     */
    public static long increment(final long value)
    {
        return JlgNative.jlg_baseline_increment(value);
    }
}
