package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.jloadgen.bindings.internal.JlgCuda;
import org.jloadgen.bindings.internal.NativeLibraryLoader;

/**
 * JLoadGen's device kernels in {@code libjlg_cuda.so} (built where nvcc exists): {@link #topK}, the top-k class ids
 * of float32 logits computed on the GPU so that only ids cross PCIe. Device pointers and the stream are plain
 * addresses ({@code cudaStream_t} of the caller's CUDA runtime, e.g. a JavaCPP {@code CUstream_st.address()}).
 */
public final class CudaKernels
{
    /** Largest k of {@link #topK}. */
    public static final int TOPK_MAX = 64;
    /** cudaSuccess. */
    public static final int CUDA_SUCCESS = 0;

    private CudaKernels()
    {
    }

    /**
     * @return whether {@code libjlg_cuda.so} is loaded (it also needs the CUDA runtime to load).
     */
    public static boolean isAvailable()
    {
        return NativeLibraryLoader.cudaResult().isLoaded();
    }

    /**
     * @return where the library was loaded from, or why it could not be.
     */
    public static String describe()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.cudaResult();
        return result.isLoaded() ? result.source() : result.failure();
    }

    /**
     * Enqueues the top-k kernel: {@code ids[r * k + j]} becomes the j-th best column of row r (numbers before NaN,
     * larger first, lower column first among equals). Allocates nothing; returns before the kernel runs.
     *
     * @param logitsAddress device address of {@code rows x cols} float32 values, row-major.
     * @param idsAddress    device address of {@code rows x k} int32 values.
     * @param rows          rows.
     * @param cols          columns per row, at least {@code k}.
     * @param k             1 to {@value #TOPK_MAX}.
     * @param stream        the {@code cudaStream_t}, or 0 for the default stream.
     * @return the launch's cudaError_t ({@value #CUDA_SUCCESS} on success); errors of the kernel itself surface at
     *         the next synchronisation.
     * @throws UnsatisfiedLinkError when the library is not loaded (with the loader's message).
     */
    public static int topK(final long logitsAddress, final long idsAddress, final int rows, final int cols,
        final int k, final long stream)
    {
        try
        {
            return (int)TopK.HANDLE.invokeExact(logitsAddress, idsAddress, rows, cols, k, stream);
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

    /**
     * Enqueues the dense-chain input prologue ({@code jlg_cuda_dense_input}): each element converted to float
     * (input type 0 float32, 1 uint8, 2 int8), then {@code steps} operations (4-bit codes in {@code opCodes}: 0
     * multiply, 1 add, 2 subtract, 3 divide) with {@code constants[s * cols + c]}. Allocates nothing.
     *
     * @param input     device address of the input.
     * @param inputType the input's element type code.
     * @param output    device address of {@code rows x cols} floats.
     * @param rows      rows.
     * @param cols      features per row.
     * @param constants device address of {@code steps x cols} floats.
     * @param opCodes   the packed operations.
     * @param steps     0 to 15.
     * @param stream    the {@code cudaStream_t}.
     * @return the launch's cudaError_t.
     */
    public static int denseInput(final long input, final int inputType, final long output, final int rows,
        final int cols, final long constants, final long opCodes, final int steps, final long stream)
    {
        try
        {
            return (int)Dense.INPUT.invokeExact(input, inputType, output, rows, cols, constants, opCodes, steps,
                stream);
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

    /**
     * Enqueues bias and activation in place after a GEMM ({@code jlg_cuda_bias_activation}). Allocates nothing.
     *
     * @param y          device address of {@code rows x cols} floats.
     * @param bias       device address of {@code cols} floats, or 0.
     * @param rows       rows.
     * @param cols       columns.
     * @param activation 0 none, 1 relu.
     * @param stream     the {@code cudaStream_t}.
     * @return the launch's cudaError_t.
     */
    public static int biasActivation(final long y, final long bias, final int rows, final int cols,
        final int activation, final long stream)
    {
        try
        {
            return (int)Dense.BIAS_ACTIVATION.invokeExact(y, bias, rows, cols, activation, stream);
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

    /**
     * Enqueues a softmax of each row in place ({@code jlg_cuda_softmax}). Allocates nothing.
     *
     * @param y      device address of {@code rows x cols} floats.
     * @param rows   rows.
     * @param cols   columns.
     * @param stream the {@code cudaStream_t}.
     * @return the launch's cudaError_t.
     */
    public static int softmax(final long y, final int rows, final int cols, final long stream)
    {
        try
        {
            return (int)Dense.SOFTMAX.invokeExact(y, rows, cols, stream);
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

    /**
     * @return the version of the CUDA runtime the library is linked with, e.g. 13000.
     * @throws IllegalStateException when the runtime cannot say (no driver).
     */
    public static int runtimeVersion()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment version = arena.allocate(ValueLayout.JAVA_INT);
            final int error = JlgCuda.jlg_cuda_runtime_version(version);
            if (error != CUDA_SUCCESS)
            {
                throw new IllegalStateException("cudaRuntimeGetVersion failed: " + errorString(error));
            }
            return version.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /**
     * @param error a cudaError_t value.
     * @return the runtime's message for it.
     */
    public static String errorString(final int error)
    {
        return JlgCuda.jlg_cuda_error_string(error).getString(0) + " (cudaError " + error + ")";
    }

    private static final class TopK
    {
        // Pointers as 64-bit integers (the same registers in the SysV ABI): the hot path then makes no
        // MemorySegment for the device addresses and the stream.
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(JlgCuda.jlg_cuda_topk$address(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    }

    private static final class Dense
    {
        // Pointers as 64-bit integers, as for TopK.
        static final MethodHandle INPUT = Linker.nativeLinker().downcallHandle(JlgCuda.jlg_cuda_dense_input$address(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        static final MethodHandle BIAS_ACTIVATION = Linker.nativeLinker().downcallHandle(
            JlgCuda.jlg_cuda_bias_activation$address(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        static final MethodHandle SOFTMAX = Linker.nativeLinker().downcallHandle(JlgCuda.jlg_cuda_softmax$address(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    }
}
