package org.jloadgen.sut.tensorrt.simulated;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.sut.tensorrt.dense.DenseKernels;
import org.jloadgen.sut.tensorrt.dense.DenseMath;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * The cublas backend's kernels on a simulated device: each call enqueues one op on the simulated stream, which runs
 * {@link DenseMath} on the stream's thread after checking that every operand lies in device memory of the size the
 * call implies (a buffer sized too small faults the device, as a kernel reading past it would). GEMM handles are
 * bound to their stream, as cuBLAS handles are.
 */
final class SimulatedDenseKernels implements DenseKernels
{
    static final int PREPARE = 0;
    static final int GEMM = 1;
    static final int BIAS_ACTIVATION = 2;
    static final int SOFTMAX = 3;

    private final SimulatedGpu gpu;
    private final AtomicInteger liveHandles;
    private final AtomicLong gemms;

    SimulatedDenseKernels(final SimulatedGpu gpu, final AtomicInteger liveHandles, final AtomicLong gemms)
    {
        this.gpu = gpu;
        this.liveHandles = liveHandles;
        this.gemms = gemms;
    }

    @Override
    public Blas blas(final DeviceStream stream, final boolean tf32)
    {
        gpu.checkCurrent();
        final SimulatedStream bound = (SimulatedStream)stream;
        liveHandles.incrementAndGet();
        return new Blas()
        {
            private boolean closed;

            @Override
            public void gemm(final int rows, final int in, final int out, final long x, final long w,
                final boolean transposed, final float alpha, final long y)
            {
                if (closed)
                {
                    throw new DeviceException("cublasSgemm: the handle is destroyed");
                }
                gemms.incrementAndGet();
                bound.dense(GEMM, x, y, w, 0, 0, rows, out, in, transposed ? 1 : 0, alpha);
            }

            @Override
            public void close()
            {
                if (!closed)
                {
                    closed = true;
                    liveHandles.decrementAndGet();
                }
            }
        };
    }

    @Override
    public void prepareInput(final DeviceStream stream, final long input, final int inputType, final long output,
        final int rows, final int cols, final long constants, final long opCodes, final int steps)
    {
        ((SimulatedStream)stream).dense(PREPARE, input, output, 0, constants, opCodes, rows, cols, steps, inputType,
            1f);
    }

    @Override
    public void biasActivation(final DeviceStream stream, final long y, final long bias, final int rows,
        final int cols, final int activation)
    {
        ((SimulatedStream)stream).dense(BIAS_ACTIVATION, 0, y, 0, bias, 0, rows, cols, 0, activation, 1f);
    }

    @Override
    public void softmax(final DeviceStream stream, final long y, final int rows, final int cols)
    {
        ((SimulatedStream)stream).dense(SOFTMAX, 0, y, 0, 0, 0, rows, cols, 0, 0, 1f);
    }

    /**
     * Runs a dense op on the stream's thread.
     *
     * @param gpu    the device (operand checks).
     * @param op     the op.
     * @param memory all of memory.
     */
    static void execute(final SimulatedGpu gpu, final Op op, final MemorySegment memory)
    {
        final long rows = op.rows;
        switch (op.kernel)
        {
            case PREPARE ->
            {
                final long elementBytes = op.flags == INPUT_FLOAT32 ? Float.BYTES : 1;
                final long elements = rows * op.cols;
                gpu.checkDeviceOperand(op.source, elements * elementBytes, "the prologue's input");
                gpu.checkDeviceOperand(op.destination, elements * Float.BYTES, "the prologue's output");
                gpu.checkDeviceOperand(op.aux, Math.max(1, (long)op.inner * op.cols) * Float.BYTES,
                    "the prologue's constants");
                DenseMath.prepareInput(memory.asSlice(op.source, elements * elementBytes), op.flags,
                    memory.asSlice(op.destination, elements * Float.BYTES), op.rows, op.cols,
                    memory.asSlice(op.aux, Math.max(1, (long)op.inner * op.cols) * Float.BYTES), op.codes, op.inner);
            }
            case GEMM ->
            {
                final long xBytes = rows * op.inner * Float.BYTES;
                final long wBytes = (long)op.inner * op.cols * Float.BYTES;
                final long yBytes = rows * op.cols * Float.BYTES;
                gpu.checkDeviceOperand(op.source, xBytes, "the GEMM's input");
                gpu.checkDeviceOperand(op.weights, wBytes, "the GEMM's weights");
                gpu.checkDeviceOperand(op.destination, yBytes, "the GEMM's output");
                DenseMath.gemm(memory.asSlice(op.source, xBytes), memory.asSlice(op.weights, wBytes), op.flags != 0,
                    op.scale, memory.asSlice(op.destination, yBytes), op.rows, op.inner, op.cols);
            }
            case BIAS_ACTIVATION ->
            {
                final long yBytes = rows * op.cols * Float.BYTES;
                gpu.checkDeviceOperand(op.destination, yBytes, "the bias kernel's output");
                if (op.aux != 0)
                {
                    gpu.checkDeviceOperand(op.aux, (long)op.cols * Float.BYTES, "the bias");
                }
                DenseMath.biasActivation(memory.asSlice(op.destination, yBytes), op.aux == 0 ? null
                    : memory.asSlice(op.aux, (long)op.cols * Float.BYTES), op.rows, op.cols, op.flags);
            }
            case SOFTMAX ->
            {
                final long yBytes = rows * op.cols * Float.BYTES;
                gpu.checkDeviceOperand(op.destination, yBytes, "the softmax's rows");
                DenseMath.softmax(memory.asSlice(op.destination, yBytes), op.rows, op.cols);
            }
            default -> throw new IllegalStateException("unknown dense kernel " + op.kernel);
        }
    }
}
