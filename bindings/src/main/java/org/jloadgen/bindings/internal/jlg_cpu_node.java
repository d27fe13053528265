package org.jloadgen.bindings.internal;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

/**
 * {@code jlg_cpu_node} from {@code jlg_native.h}: the CPU and NUMA node getcpu(2) reports.
 * Hand-written in the shape jextract produces for a struct; {@code StructLayoutTest} checks size and offsets
 * against the C compiler.
 */
public final class jlg_cpu_node
{
    private static final GroupLayout LAYOUT = MemoryLayout.structLayout(
        JlgNative.C_INT.withName("cpu"),
        JlgNative.C_INT.withName("node")).withName("jlg_cpu_node");

    private static final ValueLayout.OfInt cpu$LAYOUT =
        (ValueLayout.OfInt)LAYOUT.select(MemoryLayout.PathElement.groupElement("cpu"));
    private static final long cpu$OFFSET = 0;
    private static final ValueLayout.OfInt node$LAYOUT =
        (ValueLayout.OfInt)LAYOUT.select(MemoryLayout.PathElement.groupElement("node"));
    private static final long node$OFFSET = 4;

    private jlg_cpu_node()
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
     * @return the layout of {@code cpu}.
     */
    public static ValueLayout.OfInt cpu$layout()
    {
        return cpu$LAYOUT;
    }

    /**
     * @return the offset of {@code cpu} in bytes.
     */
    public static long cpu$offset()
    {
        return cpu$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code cpu}.
     */
    public static int cpu(final MemorySegment struct)
    {
        return struct.get(cpu$LAYOUT, cpu$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code cpu}.
     */
    public static void cpu(final MemorySegment struct, final int fieldValue)
    {
        struct.set(cpu$LAYOUT, cpu$OFFSET, fieldValue);
    }

    /**
     * @return the layout of {@code node}.
     */
    public static ValueLayout.OfInt node$layout()
    {
        return node$LAYOUT;
    }

    /**
     * @return the offset of {@code node} in bytes.
     */
    public static long node$offset()
    {
        return node$OFFSET;
    }

    /**
     * @param struct a struct.
     * @return its {@code node}.
     */
    public static int node(final MemorySegment struct)
    {
        return struct.get(node$LAYOUT, node$OFFSET);
    }

    /**
     * @param struct     a struct.
     * @param fieldValue the new {@code node}.
     */
    public static void node(final MemorySegment struct, final int fieldValue)
    {
        struct.set(node$LAYOUT, node$OFFSET, fieldValue);
    }
}
