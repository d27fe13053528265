package org.jloadgen.sut.tensorrt.simulated;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jloadgen.sut.tensorrt.SimulationSettings;
import org.jloadgen.sut.tensorrt.dense.DenseBackend;
import org.jloadgen.sut.tensorrt.dense.DenseKernels;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * The cublas backend's host logic on simulated devices: the same ONNX reading, weight upload, contexts, buffers and
 * enqueue order as {@code cuda.CublasBackend}, with the GEMMs and kernels computed in the JVM on the simulated
 * streams ({@link SimulatedDenseKernels}). {@code --sut-opt backend=cublas-simulated} runs it without a GPU.
 */
public final class SimulatedDenseBackend extends DenseBackend
{
    private final SimulatedBackend devices;
    private final AtomicInteger liveHandles = new AtomicInteger();
    private final AtomicLong gemms = new AtomicLong();

    /**
     * @param settings the simulated devices (their model settings are not used: the ONNX model is).
     */
    public SimulatedDenseBackend(final SimulationSettings settings)
    {
        this.devices = new SimulatedBackend(settings);
    }

    @Override
    protected DenseKernels kernels(final Gpu gpu)
    {
        return new SimulatedDenseKernels((SimulatedGpu)gpu, liveHandles, gemms);
    }

    @Override
    public String name()
    {
        return "cublas-simulated";
    }

    @Override
    public String describe()
    {
        return "the cublas backend's host logic on simulated devices (no GPU), " + devices.deviceCount()
            + " device" + (devices.deviceCount() == 1 ? "" : "s");
    }

    @Override
    public int deviceCount()
    {
        return devices.deviceCount();
    }

    @Override
    public Gpu open(final int ordinal)
    {
        return devices.open(ordinal);
    }

    /**
     * @param ordinal a device opened.
     * @return it, for its counters.
     */
    public SimulatedGpu device(final int ordinal)
    {
        return devices.device(ordinal);
    }

    /**
     * @return GEMM handles not closed.
     */
    public int liveHandles()
    {
        return liveHandles.get();
    }

    /**
     * @return GEMMs enqueued (graph replays not counted: they replay captured ops).
     */
    public long gemms()
    {
        return gemms.get();
    }

    @Override
    public void close()
    {
        devices.close();
    }
}
