package org.jloadgen.sut.tensorrt.dense;

import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * The device work of a dense chain, enqueued on a stream: the GEMMs (cuBLAS on a GPU) and the project's own kernels
 * for the input prologue, bias with activation, and softmax ({@code libjlg_cuda.so}). Addresses are device memory;
 * every call allocates nothing and returns before the work runs.
 */
public interface DenseKernels
{
    /** Input element type codes of {@link #prepareInput} (the kernel's). */
    int INPUT_FLOAT32 = 0;
    /** uint8 input. */
    int INPUT_UINT8 = 1;
    /** int8 input. */
    int INPUT_INT8 = 2;

    /**
     * A GEMM engine bound to one stream (a cuBLAS handle): one per execution context.
     */
    interface Blas extends AutoCloseable
    {
        /**
         * {@code y[rows x out] = alpha * x[rows x in] W}, row-major; W is {@code in x out}, or {@code out x in} when
         * {@code transposed}.
         *
         * @param rows       rows of x and y.
         * @param in         columns of x.
         * @param out        columns of y.
         * @param x          device address of x.
         * @param w          device address of W.
         * @param transposed whether W is stored {@code out x in}.
         * @param alpha      the scale.
         * @param y          device address of y.
         */
        void gemm(int rows, int in, int out, long x, long w, boolean transposed, float alpha, long y);

        /**
         * Frees the handle.
         */
        @Override
        void close();
    }

    /**
     * @param stream the stream every GEMM of the handle is enqueued on.
     * @param tf32   whether FP32 GEMMs may use TF32 tensor cores.
     * @return a new GEMM engine.
     */
    Blas blas(DeviceStream stream, boolean tf32);

    /**
     * {@code out[r, c] = steps(float(in[r, c]))}: the input converted to float32, then each step in order
     * ({@link DenseModel.Op} codes packed 4 bits each, step 0 lowest) with {@code constants[s * cols + c]}.
     *
     * @param stream    the stream.
     * @param input     device address of the input rows.
     * @param inputType {@link #INPUT_FLOAT32}, {@link #INPUT_UINT8} or {@link #INPUT_INT8}.
     * @param output    device address of {@code rows x cols} floats.
     * @param rows      rows.
     * @param cols      features per row.
     * @param constants device address of {@code steps x cols} floats.
     * @param opCodes   the steps' operations.
     * @param steps     0 to 15.
     */
    void prepareInput(DeviceStream stream, long input, int inputType, long output, int rows, int cols, long constants,
        long opCodes, int steps);

    /**
     * {@code y[r, c] = act(y[r, c] + bias[c])} in place.
     *
     * @param stream     the stream.
     * @param y          device address of {@code rows x cols} floats.
     * @param bias       device address of {@code cols} floats, or 0 for none.
     * @param rows       rows.
     * @param cols       columns.
     * @param activation 0 none, 1 relu ({@link DenseModel.Activation#ordinal()}).
     */
    void biasActivation(DeviceStream stream, long y, long bias, int rows, int cols, int activation);

    /**
     * Softmax of each row in place.
     *
     * @param stream the stream.
     * @param y      device address of {@code rows x cols} floats.
     * @param rows   rows.
     * @param cols   columns.
     */
    void softmax(DeviceStream stream, long y, int rows, int cols);
}
