package org.jloadgen.record;

import java.lang.foreign.MemorySegment;

/**
 * A segment spanning the whole address space, to copy SUT payloads given as raw addresses without creating a
 * segment per call. Reading through it is a restricted operation: the JVM must run with
 * {@code --enable-native-access}.
 */
final class NativeMemoryView
{
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private NativeMemoryView()
    {
    }
}
