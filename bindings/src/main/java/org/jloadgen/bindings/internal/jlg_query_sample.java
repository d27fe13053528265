package org.jloadgen.bindings.internal;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * {@code jlg_query_sample} from {@code jlg_bridge.h}: LoadGen's {@code mlperf::QuerySample} (response id, QSL index).
 * Hand-written in the shape jextract produces for a struct; {@code StructLayoutTest} checks size and offsets
 * against the C compiler.
 */
public final class jlg_query_sample
{
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
        JlgBridge.C_LONG.withName("id"),
        JlgBridge.C_LONG.withName("index")).withName("jlg_query_sample");

    private static final ValueLayout.OfLong id$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("id"));
    private static final long id$OFFSET = 0;
    private static final ValueLayout.OfLong index$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("index"));
    private static final long index$OFFSET = 8;

    private jlg_query_sample()
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
     * @return the layout of {@code id}.
     */
    public static ValueLayout.OfLong id$layout()
    {
        return id$LAYOUT;
    }

    /**
     * @return the offset of {@code id} in bytes.
     */
    public static long id$offset()
    {
        return id$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code id}.
     */
    public static long id(final MemorySegment struct)
    {
        return struct.get(id$LAYOUT, id$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code id}.
     */
    public static void id(final MemorySegment struct, final long fieldValue)
    {
        struct.set(id$LAYOUT, id$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code index}.
     */
    public static ValueLayout.OfLong index$layout()
    {
        return index$LAYOUT;
    }

    /**
     * @return the offset of {@code index} in bytes.
     */
    public static long index$offset()
    {
        return index$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code index}.
     */
    public static long index(final MemorySegment struct)
    {
        return struct.get(index$LAYOUT, index$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code index}.
     */
    public static void index(final MemorySegment struct, final long fieldValue)
    {
        struct.set(index$LAYOUT, index$OFFSET, fieldValue);
    }
}
