package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cublas.CUBLAS_DEFAULT_MATH;
import static org.bytedeco.cuda.global.cublas.CUBLAS_OP_N;
import static org.bytedeco.cuda.global.cublas.CUBLAS_OP_T;
import static org.bytedeco.cuda.global.cublas.CUBLAS_STATUS_SUCCESS;
import static org.bytedeco.cuda.global.cublas.CUBLAS_TF32_TENSOR_OP_MATH;
import static org.bytedeco.cuda.global.cublas.cublasCreate_v2;
import static org.bytedeco.cuda.global.cublas.cublasDestroy_v2;
import static org.bytedeco.cuda.global.cublas.cublasGetStatusName;
import static org.bytedeco.cuda.global.cublas.cublasSetMathMode;
import static org.bytedeco.cuda.global.cublas.cublasSetStream_v2;
import static org.bytedeco.cuda.global.cublas.cublasSetWorkspace_v2;
import static org.bytedeco.cuda.global.cublas.cublasSgemm_v2;

import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.jloadgen.bindings.CudaKernels;
import org.jloadgen.sut.tensorrt.dense.DenseKernels;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * The dense chain on a GPU: GEMMs on cuBLAS (JavaCPP), the prologue, bias/activation and softmax kernels of
 * {@code libjlg_cuda.so} (FFM, addresses as integers). Nothing here allocates per call.
 */
final class CublasKernels implements DenseKernels
{
    /** cuBLAS workspace per handle, given explicitly so that graph capture never makes cuBLAS allocate. */
    static final long WORKSPACE_BYTES = 32L << 20;

    private final Gpu gpu;

    CublasKernels(final Gpu gpu)
    {
        this.gpu = gpu;
    }

    static void check(final int status, final String call)
    {
        if (status != CUBLAS_STATUS_SUCCESS)
        {
            throw new DeviceException(call + " failed: " + cublasGetStatusName(status).getString());
        }
    }

    private static void kernel(final int error, final String name)
    {
        if (error != CudaKernels.CUDA_SUCCESS)
        {
            throw new DeviceException(name + " failed: " + CudaKernels.errorString(error));
        }
    }

    @Override
    public Blas blas(final DeviceStream stream, final boolean tf32)
    {
        return new Handle(stream, tf32);
    }

    @Override
    public void prepareInput(final DeviceStream stream, final long input, final int inputType, final long output,
        final int rows, final int cols, final long constants, final long opCodes, final int steps)
    {
        kernel(CudaKernels.denseInput(input, inputType, output, rows, cols, constants, opCodes, steps,
            stream.handle()), "jlg_cuda_dense_input");
    }

    @Override
    public void biasActivation(final DeviceStream stream, final long y, final long bias, final int rows,
        final int cols, final int activation)
    {
        kernel(CudaKernels.biasActivation(y, bias, rows, cols, activation, stream.handle()),
            "jlg_cuda_bias_activation");
    }

    @Override
    public void softmax(final DeviceStream stream, final long y, final int rows, final int cols)
    {
        kernel(CudaKernels.softmax(y, rows, cols, stream.handle()), "jlg_cuda_softmax");
    }

    /**
     * A float pointer over device memory whose address is set per call.
     */
    private static final class DeviceFloats extends FloatPointer
    {
        DeviceFloats()
        {
            super((Pointer)null);
        }

        DeviceFloats at(final long newAddress)
        {
            this.address = newAddress;
            return this;
        }
    }

    /**
     * A cuBLAS handle on one stream, with its workspace and reusable pointers.
     */
    private final class Handle implements Blas
    {
        private final cublasContext handle = new cublasContext();
        private final long workspace;
        private final FloatPointer alpha = new FloatPointer(1);
        private final FloatPointer beta = new FloatPointer(1);
        private final DeviceFloats a = new DeviceFloats();
        private final DeviceFloats b = new DeviceFloats();
        private final DeviceFloats c = new DeviceFloats();

        Handle(final DeviceStream stream, final boolean tf32)
        {
            check(cublasCreate_v2(handle), "cublasCreate");
            long memory = 0;
            try
            {
                check(cublasSetStream_v2(handle, ((CudaStream)stream).stream), "cublasSetStream");
                check(cublasSetMathMode(handle, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
                    "cublasSetMathMode");
                memory = gpu.allocate(WORKSPACE_BYTES);
                check(cublasSetWorkspace_v2(handle, new Address(memory), WORKSPACE_BYTES), "cublasSetWorkspace");
            }
            catch (final RuntimeException ex)
            {
                if (memory != 0)
                {
                    gpu.free(memory);
                }
                cublasDestroy_v2(handle);
                throw ex;
            }
            this.workspace = memory;
            beta.put(0f);
        }

        @Override
        public void gemm(final int rows, final int in, final int out, final long x, final long w,
            final boolean transposed, final float scale, final long y)
        {
            // Row-major Y[rows x out] = X W is column-major Y^T[out x rows] = W^T X^T: W (row-major in x out) is
            // column-major out x in with leading dimension out; transposed W (row-major out x in) is its transpose.
            alpha.put(scale);
            final int status = cublasSgemm_v2(handle, transposed ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, out, rows,
                in, alpha, a.at(w), transposed ? in : out, b.at(x), in, beta, c.at(y), out);
            if (status != CUBLAS_STATUS_SUCCESS)
            {
                check(status, "cublasSgemm (" + rows + " x " + in + " x " + out + ")");
            }
        }

        @Override
        public void close()
        {
            check(cublasDestroy_v2(handle), "cublasDestroy");
            gpu.free(workspace);
            alpha.close();
            beta.close();
        }
    }
}
