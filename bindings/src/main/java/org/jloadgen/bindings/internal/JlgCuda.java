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
    /** C {@code int64_t}. */
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    /** C {@code void *}. */
    public static final AddressLayout C_POINTER =
        ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));
    /** Names of the functions bound here, in the order of the allow-list. */
    public static final List<String> FUNCTIONS = List.of("jlg_cuda_topk", "jlg_cuda_dense_input",
        "jlg_cuda_bias_activation", "jlg_cuda_softmax", "jlg_cuda_runtime_version", "jlg_cuda_error_string");

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

    private static final class jlg_cuda_dense_input
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER, C_INT, C_INT,
            C_POINTER, C_LONG, C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_cuda_dense_input");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_cuda_dense_input}.
     */
    public static FunctionDescriptor jlg_cuda_dense_input$descriptor()
    {
        return jlg_cuda_dense_input.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_cuda_dense_input}.
     */
    public static MethodHandle jlg_cuda_dense_input$handle()
    {
        return jlg_cuda_dense_input.HANDLE;
    }

    /**
     * @return the address of {@code jlg_cuda_dense_input}.
     */
    public static MemorySegment jlg_cuda_dense_input$address()
    {
        return jlg_cuda_dense_input.ADDR;
    }

    /**
     * The input prologue of a dense chain (conversion to float, then element-wise steps), enqueued on {@code stream}.
     *
     * @param input see {@code jlg_cuda.h}.
     * @param inputType see {@code jlg_cuda.h}.
     * @param out see {@code jlg_cuda.h}.
     * @param rows see {@code jlg_cuda.h}.
     * @param cols see {@code jlg_cuda.h}.
     * @param constants see {@code jlg_cuda.h}.
     * @param opCodes see {@code jlg_cuda.h}.
     * @param steps see {@code jlg_cuda.h}.
     * @param stream see {@code jlg_cuda.h}.
     * @return a cudaError_t value, 0 on success.
     */
    public static int jlg_cuda_dense_input(final MemorySegment input, final int inputType,
        final MemorySegment out, final int rows, final int cols, final MemorySegment constants, final long opCodes,
        final int steps, final MemorySegment stream)
    {
        try
        {
            return (int)jlg_cuda_dense_input.HANDLE.invokeExact(input, inputType, out, rows, cols, constants, opCodes,
                steps, stream);
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

    private static final class jlg_cuda_bias_activation
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_INT,
            C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_cuda_bias_activation");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_cuda_bias_activation}.
     */
    public static FunctionDescriptor jlg_cuda_bias_activation$descriptor()
    {
        return jlg_cuda_bias_activation.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_cuda_bias_activation}.
     */
    public static MethodHandle jlg_cuda_bias_activation$handle()
    {
        return jlg_cuda_bias_activation.HANDLE;
    }

    /**
     * @return the address of {@code jlg_cuda_bias_activation}.
     */
    public static MemorySegment jlg_cuda_bias_activation$address()
    {
        return jlg_cuda_bias_activation.ADDR;
    }

    /**
     * Bias and activation (0 none, 1 relu) in place after a GEMM, enqueued on {@code stream}.
     *
     * @param y see {@code jlg_cuda.h}.
     * @param bias see {@code jlg_cuda.h}.
     * @param rows see {@code jlg_cuda.h}.
     * @param cols see {@code jlg_cuda.h}.
     * @param activation see {@code jlg_cuda.h}.
     * @param stream see {@code jlg_cuda.h}.
     * @return a cudaError_t value, 0 on success.
     */
    public static int jlg_cuda_bias_activation(final MemorySegment y, final MemorySegment bias, final int rows,
        final int cols, final int activation, final MemorySegment stream)
    {
        try
        {
            return (int)jlg_cuda_bias_activation.HANDLE.invokeExact(y, bias, rows, cols, activation, stream);
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

    private static final class jlg_cuda_softmax
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_cuda_softmax");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_cuda_softmax}.
     */
    public static FunctionDescriptor jlg_cuda_softmax$descriptor()
    {
        return jlg_cuda_softmax.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_cuda_softmax}.
     */
    public static MethodHandle jlg_cuda_softmax$handle()
    {
        return jlg_cuda_softmax.HANDLE;
    }

    /**
     * @return the address of {@code jlg_cuda_softmax}.
     */
    public static MemorySegment jlg_cuda_softmax$address()
    {
        return jlg_cuda_softmax.ADDR;
    }

    /**
     * Softmax of each row in place, enqueued on {@code stream}.
     *
     * @param y see {@code jlg_cuda.h}.
     * @param rows see {@code jlg_cuda.h}.
     * @param cols see {@code jlg_cuda.h}.
     * @param stream see {@code jlg_cuda.h}.
     * @return a cudaError_t value, 0 on success.
     */
    public static int jlg_cuda_softmax(final MemorySegment y, final int rows, final int cols,
        final MemorySegment stream)
    {
        try
        {
            return (int)jlg_cuda_softmax.HANDLE.invokeExact(y, rows, cols, stream);
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
