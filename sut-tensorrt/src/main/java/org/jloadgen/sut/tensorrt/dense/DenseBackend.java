package org.jloadgen.sut.tensorrt.dense;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * A device backend that runs dense-chain ONNX models ({@link DenseModel}) without TensorRT: the model is read by
 * {@link DenseModel}, its weights go to each device once, and each execution context enqueues the GEMMs and kernels
 * of {@link DenseKernels}. Subclasses bring the devices and the kernels: cuBLAS and {@code libjlg_cuda.so}
 * ({@code cuda.CublasBackend}) or the simulated device ({@code simulated.SimulatedDenseBackend}).
 */
public abstract class DenseBackend implements DeviceBackend
{
    /** What stands for the TensorRT version in engine cache keys. */
    public static final String PLAN_VERSION = "dense-plan-1";

    /**
     * @param gpu a device opened by this backend.
     * @return its kernels.
     */
    protected abstract DenseKernels kernels(Gpu gpu);

    @Override
    public String tensorRtVersion()
    {
        return "none (" + name() + " backend, " + PLAN_VERSION + ")";
    }

    @Override
    public List<EngineTensor> inspect(final java.nio.file.Path onnxModel)
    {
        return DenseModel.read(onnxModel).tensors();
    }

    @Override
    public byte[] build(final Gpu gpu, final EngineBuild request)
    {
        final byte[] model;
        try
        {
            model = Files.readAllBytes(request.model());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read model " + request.model() + ": " + ex.getMessage(), ex);
        }
        DenseModel.parse(model, request.model().toString());
        return new DensePlan(request.maxBatch(), request.profiles(), request.tf32(), model).encode();
    }

    @Override
    public Engine load(final Gpu gpu, final byte[] serialized, final String source)
    {
        final DensePlan plan = DensePlan.decode(serialized, source);
        final DenseModel model;
        try
        {
            model = DenseModel.parse(plan.model(), source);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new DeviceException(ex.getMessage(), ex);
        }
        gpu.makeCurrent();
        return new DenseEngine(gpu, model, plan, kernels(gpu));
    }
}
