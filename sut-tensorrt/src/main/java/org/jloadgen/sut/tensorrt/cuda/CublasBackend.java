package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cudart.cudaGetDeviceCount;
import static org.bytedeco.cuda.global.cudart.cudaRuntimeGetVersion;
import static org.bytedeco.cuda.global.cudart.cudaSetDevice;

import java.util.Locale;

import org.bytedeco.javacpp.Loader;
import org.jloadgen.bindings.CudaKernels;
import org.jloadgen.sut.tensorrt.dense.DenseBackend;
import org.jloadgen.sut.tensorrt.dense.DenseKernels;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * The cublas backend: dense-chain ONNX models ({@code dense.DenseModel}) on every GPU without TensorRT, the GEMMs on
 * cuBLAS through the JavaCPP presets, the other kernels from {@code libjlg_cuda.so}, through the same pipeline as
 * TensorRT's engines (slots, streams, events, CUDA graphs). Opened only after {@link CudaProbe#runCublas()} found the
 * driver, the CUDA runtime and cuBLAS.
 */
public final class CublasBackend extends DenseBackend
{
    private final CudaProbe.Result probe;
    private final int runtimeVersion;

    private CublasBackend(final CudaProbe.Result probe)
    {
        this.probe = probe;
        final int[] version = new int[1];
        CudaBackend.check(cudaRuntimeGetVersion(version), "cudaRuntimeGetVersion");
        this.runtimeVersion = version[0];
    }

    /**
     * Probes the machine, then loads the presets' CUDA runtime and cuBLAS glue.
     *
     * @return the backend.
     * @throws IllegalArgumentException saying what is missing (driver, GPU, CUDA runtime, cuBLAS, the kernels).
     */
    public static CublasBackend open()
    {
        final CudaProbe.Result probe = CudaProbe.runCublas();
        if (!probe.usable())
        {
            throw new IllegalArgumentException(probe.problem());
        }
        try
        {
            Loader.load(org.bytedeco.cuda.global.cudart.class);
            Loader.load(org.bytedeco.cuda.global.cublas.class);
        }
        catch (final Throwable t)
        {
            throw new IllegalArgumentException("the JavaCPP presets for CUDA 13.1 could not load their native code for "
                + "the CUDA runtime and cuBLAS (" + t + "); the probe found " + probe.describe(), t);
        }
        if (!CudaKernels.isAvailable())
        {
            throw new IllegalArgumentException("the cublas backend needs the project's kernels (libjlg_cuda.so): "
                + CudaKernels.describe());
        }
        return new CublasBackend(probe);
    }

    @Override
    protected DenseKernels kernels(final Gpu gpu)
    {
        return new CublasKernels(gpu);
    }

    @Override
    public String name()
    {
        return "cublas";
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "cuBLAS, CUDA runtime %d.%d, %s", runtimeVersion / 1000,
            runtimeVersion % 1000 / 10, probe.describe());
    }

    @Override
    public int deviceCount()
    {
        final int[] count = new int[1];
        CudaBackend.check(cudaGetDeviceCount(count), "cudaGetDeviceCount");
        return count[0];
    }

    @Override
    public Gpu open(final int ordinal)
    {
        CudaBackend.check(cudaSetDevice(ordinal), "cudaSetDevice(" + ordinal + ")");
        return new CudaGpu(ordinal);
    }

    @Override
    public void close()
    {
        // Devices, engines and handles are closed by their owners.
    }
}
