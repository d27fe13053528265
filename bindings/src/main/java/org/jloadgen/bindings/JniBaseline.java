package org.jloadgen.bindings;

/**
 * The JNI side of the FFM-versus-JNI call-overhead baseline: the same C function as
 * {@link FfmBaseline#increment(long)}, exported from the same {@code libjlg_native.so} as a JNI symbol.
 * Loading this class {@link System#load loads} that library file (found by {@link NativeLibrary}).
 */
public final class JniBaseline
{
    static
    {
        System.load(NativeLibrary.path().toString());
    }

    private JniBaseline()
    {
    }

    /**
     * @param value any value.
     * @return {@code value + 1}, computed in C.
     */
    public static native long increment(long value);
}
