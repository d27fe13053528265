package org.jloadgen.bindings.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code jlg_issue_query_callback} from {@code jlg_bridge.h}: IssueQuery: {@code count} samples ({@link
 * jlg_query_sample}) at {@code samples_address}. Hand-written in the shape jextract produces for a
 * function-pointer typedef: the Java interface, an upcall stub for it, and a downcall through a pointer.
 * Addresses arrive as {@code long}s so an upcall allocates nothing.
 */
public final class jlg_issue_query_callback
{
    private static final FunctionDescriptor DESC = FunctionDescriptor.of(JlgBridge.C_INT, JlgBridge.C_LONG,
        JlgBridge.C_LONG, JlgBridge.C_LONG);
    private static final MethodHandle UP = JlgBridge.upcallHandle(Function.class, "apply", DESC);

    private jlg_issue_query_callback()
    {
    }

    /**
     * The Java side of the callback. It must not throw: an exception that reaches native code ends the JVM.
     */
    @FunctionalInterface
    public interface Function
    {
        /**
         * @param client client.
         * @param samplesAddress samplesAddress.
         * @param count count.
         * @return 0, or nonzero after the client reported a failure.
         */
        int apply(long client, long samplesAddress, long count);
    }

    /**
     * @return the descriptor of the callback.
     */
    public static FunctionDescriptor descriptor()
    {
        return DESC;
    }

    /**
     * @param function the Java side.
     * @param arena    owns the stub.
     * @return a function pointer that calls {@code function}.
     */
    public static MemorySegment allocate(final Function function, final Arena arena)
    {
        return Linker.nativeLinker().upcallStub(UP.bindTo(function), DESC, arena);
    }

    /**
     * Calls a function pointer of this type.
     *
     * @param function the function pointer.
     * @param client client.
     * @param samplesAddress samplesAddress.
     * @param count count.
     * @return what it returns.
     */
    public static int invoke(final MemorySegment function, final long client, final long samplesAddress,
        final long count)
    {
        try
        {
            return (int)Down.HANDLE.invokeExact(function, client, samplesAddress, count);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class Down
    {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }
}
