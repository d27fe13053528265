package org.jloadgen.bindings.internal;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * {@code jlg_bridge_progress} from {@code jlg_bridge.h}: the bridge's counters of the running (or last) test.
 * Hand-written in the shape jextract produces for a struct; {@code StructLayoutTest} checks size and offsets
 * against the C compiler.
 */
public final class jlg_bridge_progress
{
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
        JlgBridge.C_LONG.withName("issued"),
        JlgBridge.C_LONG.withName("completed"),
        JlgBridge.C_LONG.withName("outstanding"),
        JlgBridge.C_LONG.withName("duplicates"),
        JlgBridge.C_LONG.withName("unknown"),
        JlgBridge.C_LONG.withName("dropped"),
        JlgBridge.C_LONG.withName("drained"),
        JlgBridge.C_INT.withName("failed"),
        JlgBridge.C_INT.withName("running")).withName("jlg_bridge_progress");

    private static final ValueLayout.OfLong issued$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("issued"));
    private static final long issued$OFFSET = 0;
    private static final ValueLayout.OfLong completed$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("completed"));
    private static final long completed$OFFSET = 8;
    private static final ValueLayout.OfLong outstanding$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("outstanding"));
    private static final long outstanding$OFFSET = 16;
    private static final ValueLayout.OfLong duplicates$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("duplicates"));
    private static final long duplicates$OFFSET = 24;
    private static final ValueLayout.OfLong unknown$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("unknown"));
    private static final long unknown$OFFSET = 32;
    private static final ValueLayout.OfLong dropped$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("dropped"));
    private static final long dropped$OFFSET = 40;
    private static final ValueLayout.OfLong drained$LAYOUT =
        (ValueLayout.OfLong)LAYOUT.select(MemoryLayout.PathElement.groupElement("drained"));
    private static final long drained$OFFSET = 48;
    private static final ValueLayout.OfInt failed$LAYOUT =
        (ValueLayout.OfInt)LAYOUT.select(MemoryLayout.PathElement.groupElement("failed"));
    private static final long failed$OFFSET = 56;
    private static final ValueLayout.OfInt running$LAYOUT =
        (ValueLayout.OfInt)LAYOUT.select(MemoryLayout.PathElement.groupElement("running"));
    private static final long running$OFFSET = 60;

    private jlg_bridge_progress()
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
     * @return the layout of {@code issued}.
     */
    public static ValueLayout.OfLong issued$layout()
    {
        return issued$LAYOUT;
    }

    /**
     * @return the offset of {@code issued} in bytes.
     */
    public static long issued$offset()
    {
        return issued$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code issued}.
     */
    public static long issued(final MemorySegment struct)
    {
        return struct.get(issued$LAYOUT, issued$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code issued}.
     */
    public static void issued(final MemorySegment struct, final long fieldValue)
    {
        struct.set(issued$LAYOUT, issued$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code completed}.
     */
    public static ValueLayout.OfLong completed$layout()
    {
        return completed$LAYOUT;
    }

    /**
     * @return the offset of {@code completed} in bytes.
     */
    public static long completed$offset()
    {
        return completed$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code completed}.
     */
    public static long completed(final MemorySegment struct)
    {
        return struct.get(completed$LAYOUT, completed$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code completed}.
     */
    public static void completed(final MemorySegment struct, final long fieldValue)
    {
        struct.set(completed$LAYOUT, completed$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code outstanding}.
     */
    public static ValueLayout.OfLong outstanding$layout()
    {
        return outstanding$LAYOUT;
    }

    /**
     * @return the offset of {@code outstanding} in bytes.
     */
    public static long outstanding$offset()
    {
        return outstanding$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code outstanding}.
     */
    public static long outstanding(final MemorySegment struct)
    {
        return struct.get(outstanding$LAYOUT, outstanding$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code outstanding}.
     */
    public static void outstanding(final MemorySegment struct, final long fieldValue)
    {
        struct.set(outstanding$LAYOUT, outstanding$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code duplicates}.
     */
    public static ValueLayout.OfLong duplicates$layout()
    {
        return duplicates$LAYOUT;
    }

    /**
     * @return the offset of {@code duplicates} in bytes.
     */
    public static long duplicates$offset()
    {
        return duplicates$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code duplicates}.
     */
    public static long duplicates(final MemorySegment struct)
    {
        return struct.get(duplicates$LAYOUT, duplicates$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code duplicates}.
     */
    public static void duplicates(final MemorySegment struct, final long fieldValue)
    {
        struct.set(duplicates$LAYOUT, duplicates$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code unknown}.
     */
    public static ValueLayout.OfLong unknown$layout()
    {
        return unknown$LAYOUT;
    }

    /**
     * @return the offset of {@code unknown} in bytes.
     */
    public static long unknown$offset()
    {
        return unknown$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code unknown}.
     */
    public static long unknown(final MemorySegment struct)
    {
        return struct.get(unknown$LAYOUT, unknown$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code unknown}.
     */
    public static void unknown(final MemorySegment struct, final long fieldValue)
    {
        struct.set(unknown$LAYOUT, unknown$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code dropped}.
     */
    public static ValueLayout.OfLong dropped$layout()
    {
        return dropped$LAYOUT;
    }

    /**
     * @return the offset of {@code dropped} in bytes.
     */
    public static long dropped$offset()
    {
        return dropped$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code dropped}.
     */
    public static long dropped(final MemorySegment struct)
    {
        return struct.get(dropped$LAYOUT, dropped$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code dropped}.
     */
    public static void dropped(final MemorySegment struct, final long fieldValue)
    {
        struct.set(dropped$LAYOUT, dropped$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code drained}.
     */
    public static ValueLayout.OfLong drained$layout()
    {
        return drained$LAYOUT;
    }

    /**
     * @return the offset of {@code drained} in bytes.
     */
    public static long drained$offset()
    {
        return drained$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code drained}.
     */
    public static long drained(final MemorySegment struct)
    {
        return struct.get(drained$LAYOUT, drained$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code drained}.
     */
    public static void drained(final MemorySegment struct, final long fieldValue)
    {
        struct.set(drained$LAYOUT, drained$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code failed}.
     */
    public static ValueLayout.OfInt failed$layout()
    {
        return failed$LAYOUT;
    }

    /**
     * @return the offset of {@code failed} in bytes.
     */
    public static long failed$offset()
    {
        return failed$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code failed}.
     */
    public static int failed(final MemorySegment struct)
    {
        return struct.get(failed$LAYOUT, failed$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code failed}.
     */
    public static void failed(final MemorySegment struct, final int fieldValue)
    {
        struct.set(failed$LAYOUT, failed$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code running}.
     */
    public static ValueLayout.OfInt running$layout()
    {
        return running$LAYOUT;
    }

    /**
     * @return the offset of {@code running} in bytes.
     */
    public static long running$offset()
    {
        return running$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code running}.
     */
    public static int running(final MemorySegment struct)
    {
        return struct.get(running$LAYOUT, running$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code running}.
     */
    public static void running(final MemorySegment struct, final int fieldValue)
    {
        struct.set(running$LAYOUT, running$OFFSET, fieldValue);
    }
}
