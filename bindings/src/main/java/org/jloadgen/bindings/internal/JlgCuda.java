package org.jloadgen.bindings.internal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/**
 * Downcalls to {@code libjlg_cuda.so} ({@code native/src/main/c/include/jlg_cuda.h}), written by hand in the shape
 * {@code jextract --header-class-name JlgCuda} produces, like {@link JlgNative}; {@code bindings/jextract.sh}
 * regenerates it from {@code bindings/src/main/jextract/includes-cuda.txt}. The library exists only where nvcc built
 * it and loads only where the CUDA runtime does; without it every function throws {@link UnsatisfiedLinkError} with
 * the loader's message. No function is critical: a kernel launch can wait for room in the launch queue.
 * <p>
 * Not API: use {@code org.jloadgen.bindings.CudaKernels}.
 */
public final class JlgCuda
{
    /** C {@code int} and {@code int32_t}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    /** C {@code void *}. */
    public static final AddressLayout C_POINTER =
        ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));
    /** Names of the functions bound here, in the order of the allow-list. */
    public static final List<String> FUNCTIONS = List.of("jlg_cuda_topk", "jlg_cuda_runtime_version",
        "jlg_cuda_error_string");

    static final SymbolLookup SYMBOL_LOOKUP = symbolLookup();

    private JlgCuda()
    {
    }

    static SymbolLookup symbolLookup()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.cudaResult();
        return result.isLoaded() ? result.lookup() : name -> Optional.empty();
    }

    static MemorySegment findOrThrow(final String symbol)
    {
        return SYMBOL_LOOKUP.find(symbol).orElseThrow(() ->
        {
            final NativeLibraryLoader.Result result = NativeLibraryLoader.cudaResult();
            return new UnsatisfiedLinkError("unresolved symbol: " + symbol +
                (result.isLoaded() ? " in " + result.path() : ": " + result.failure()));
        });
    }

    private static final class jlg_cuda_topk
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_INT, C_INT,
            C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_cuda_topk");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_cuda_topk}.
     */
    public static FunctionDescriptor jlg_cuda_topk$descriptor()
    {
        return jlg_cuda_topk.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_cuda_topk}.
     */
    public static MethodHandle jlg_cuda_topk$handle()
    {
        return jlg_cuda_topk.HANDLE;
    }

    /**
     * @return the address of {@code jlg_cuda_topk}.
     */
    public static MemorySegment jlg_cuda_topk$address()
    {
        return jlg_cuda_topk.ADDR;
    }

    /**
     * Top-k class ids of each row of float32 logits, best first, enqueued on {@code stream} (a cudaStream_t).
     *
     * @param logits device pointer to rows x cols floats.
     * @param ids    device pointer to rows x k int32 values.
     * @param rows   rows.
     * @param cols   columns per row, at least k.
     * @param k      1 to 64.
     * @param stream the stream, or NULL for the default stream.
     * @return a cudaError_t value, 0 on success.
     */
    public static int jlg_cuda_topk(final MemorySegment logits, final MemorySegment ids, final int rows,
        final int cols, final int k, final MemorySegment stream)
    {
        try
        {
            return (int)jlg_cuda_topk.HANDLE.invokeExact(logits, ids, rows, cols, k, stream);
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

    private static final class jlg_cuda_runtime_version
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_cuda_runtime_version");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_cuda_runtime_version}.
     */
    public static FunctionDescriptor jlg_cuda_runtime_version$descriptor()
    {
        return jlg_cuda_runtime_version.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_cuda_runtime_version}.
     */
    public static MethodHandle jlg_cuda_runtime_version$handle()
    {
        return jlg_cuda_runtime_version.HANDLE;
    }

    /**
     * @return the address of {@code jlg_cuda_runtime_version}.
     */
    public static MemorySegment jlg_cuda_runtime_version$address()
    {
        return jlg_cuda_runtime_version.ADDR;
    }

    /**
     * cudaRuntimeGetVersion of the runtime the library is linked with.
     *
     * @param version where the version is written (an int32).
     * @return a cudaError_t value.
     */
    public static int jlg_cuda_runtime_version(final MemorySegment version)
    {
        try
        {
            return (int)jlg_cuda_runtime_version.HANDLE.invokeExact(version);
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

    private static final class jlg_cuda_error_string
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_cuda_error_string");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_cuda_error_string}.
     */
    public static FunctionDescriptor jlg_cuda_error_string$descriptor()
    {
        return jlg_cuda_error_string.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_cuda_error_string}.
     */
    public static MethodHandle jlg_cuda_error_string$handle()
    {
        return jlg_cuda_error_string.HANDLE;
    }

    /**
     * @return the address of {@code jlg_cuda_error_string}.
     */
    public static MemorySegment jlg_cuda_error_string$address()
    {
        return jlg_cuda_error_string.ADDR;
    }

    /**
     * cudaGetErrorString.
     *
     * @param error a cudaError_t value.
     * @return the message, a C string (read it with {@code getString(0)}).
     */
    public static MemorySegment jlg_cuda_error_string(final int error)
    {
        try
        {
            return (MemorySegment)jlg_cuda_error_string.HANDLE.invokeExact(error);
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
}
