package org.jloadgen.bindings.internal;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * {@code jlg_query_sample_response} from {@code jlg_bridge.h}: LoadGen's {@code mlperf::QuerySampleResponse}.
 * Hand-written in the shape jextract produces for a struct; {@code StructLayoutTest} checks size and offsets
 * against the C compiler.
 */
public final class jlg_query_sample_response
{
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
        JlgBridge.C_LONG.withName("id"),
        JlgBridge.C_LONG.withName("data"),
        JlgBridge.C_LONG.withName("size"),
        JlgBridge.C_LONG.withName("n_tokens")).withName("jlg_query_sample_response");

    private static final ValueLayout.OfLong id$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("id"));
    private static final long id$OFFSET = 0;
    private static final ValueLayout.OfLong data$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("data"));
    private static final long data$OFFSET = 8;
    private static final ValueLayout.OfLong size$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("size"));
    private static final long size$OFFSET = 16;
    private static final ValueLayout.OfLong n_tokens$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("n_tokens"));
    private static final long n_tokens$OFFSET = 24;

    private jlg_query_sample_response()
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
     * @return the layout of {@code data}.
     */
    public static ValueLayout.OfLong data$layout()
    {
        return data$LAYOUT;
    }

    /**
     * @return the offset of {@code data} in bytes.
     */
    public static long data$offset()
    {
        return data$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code data}.
     */
    public static long data(final MemorySegment struct)
    {
        return struct.get(data$LAYOUT, data$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code data}.
     */
    public static void data(final MemorySegment struct, final long fieldValue)
    {
        struct.set(data$LAYOUT, data$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code size}.
     */
    public static ValueLayout.OfLong size$layout()
    {
        return size$LAYOUT;
    }

    /**
     * @return the offset of {@code size} in bytes.
     */
    public static long size$offset()
    {
        return size$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code size}.
     */
    public static long size(final MemorySegment struct)
    {
        return struct.get(size$LAYOUT, size$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code size}.
     */
    public static void size(final MemorySegment struct, final long fieldValue)
    {
        struct.set(size$LAYOUT, size$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code n_tokens}.
     */
    public static ValueLayout.OfLong n_tokens$layout()
    {
        return n_tokens$LAYOUT;
    }

    /**
     * @return the offset of {@code n_tokens} in bytes.
     */
    public static long n_tokens$offset()
    {
        return n_tokens$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code n_tokens}.
     */
    public static long n_tokens(final MemorySegment struct)
    {
        return struct.get(n_tokens$LAYOUT, n_tokens$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code n_tokens}.
     */
    public static void n_tokens(final MemorySegment struct, final long fieldValue)
    {
        struct.set(n_tokens$LAYOUT, n_tokens$OFFSET, fieldValue);
    }
}
