package org.jloadgen.bindings.internal;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * {@code struct rlimit} from {@code <sys/resource.h>} (glibc, LP64): soft and hard limit, {@code RLIM_INFINITY} = -1.
 * Hand-written in the shape jextract produces for a struct; {@code StructLayoutTest} checks size and offsets
 * against the C compiler.
 */
public final class rlimit
{
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
        JlgNative.C_LONG.withName("rlim_cur"),
        JlgNative.C_LONG.withName("rlim_max")).withName("rlimit");

    private static final ValueLayout.OfLong rlim_cur$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("rlim_cur"));
    private static final long rlim_cur$OFFSET = 0;
    private static final ValueLayout.OfLong rlim_max$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("rlim_max"));
    private static final long rlim_max$OFFSET = 8;

    private rlimit()
    {
    }

    /**
     * @return the layout of the struct.
     */
    public static GroupLayout layout()
    {
        return LAYOUT;
    }

    /**
     * @return the size of the struct in bytes.
     */
    public static long sizeof()
    {
        return LAYOUT.byteSize();
    }

    /**
     * @param allocator where to allocate.
     * @return a new zeroed struct.
     */
    public static MemorySegment allocate(final SegmentAllocator allocator)
    {
        return allocator.allocate(LAYOUT);
    }

    /**
     * @return the layout of {@code rlim_cur}.
     */
    public static ValueLayout.OfLong rlim_cur$layout()
    {
        return rlim_cur$LAYOUT;
    }

    /**
     * @return the offset of {@code rlim_cur} in bytes.
     */
    public static long rlim_cur$offset()
    {
        return rlim_cur$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code rlim_cur}.
     */
    public static long rlim_cur(final MemorySegment struct)
    {
        return struct.get(rlim_cur$LAYOUT, rlim_cur$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code rlim_cur}.
     */
    public static void rlim_cur(final MemorySegment struct, final long fieldValue)
    {
        struct.set(rlim_cur$LAYOUT, rlim_cur$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code rlim_max}.
     */
    public static ValueLayout.OfLong rlim_max$layout()
    {
        return rlim_max$LAYOUT;
    }

    /**
     * @return the offset of {@code rlim_max} in bytes.
     */
    public static long rlim_max$offset()
    {
        return rlim_max$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code rlim_max}.
     */
    public static long rlim_max(final MemorySegment struct)
    {
        return struct.get(rlim_max$LAYOUT, rlim_max$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code rlim_max}.
     */
    public static void rlim_max(final MemorySegment struct, final long fieldValue)
    {
        struct.set(rlim_max$LAYOUT, rlim_max$OFFSET, fieldValue);
    }
}
