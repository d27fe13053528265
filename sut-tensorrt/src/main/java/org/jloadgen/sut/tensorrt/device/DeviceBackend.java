package org.jloadgen.sut.tensorrt.device;

import java.nio.file.Path;
import java.util.List;

/**
 * What the TensorRT SUT needs from CUDA and TensorRT, behind one interface so that everything that is not CUDA
 * itself (batching, stream and graph selection, buffer bookkeeping, engine caching, error paths) runs the same over
 * the real backend ({@code org.jloadgen.sut.tensorrt.cuda.CudaBackend}, JavaCPP) and over a simulated device
 * ({@code org.jloadgen.sut.tensorrt.simulated.SimulatedBackend}, in the JVM, without a GPU).
 * <p>
 * Addresses of device memory, pinned host memory and the slab are plain {@code long}s: the scheduling code does
 * arithmetic on them (a sample's offset, a row of a batch) without allocating.
 */
public interface DeviceBackend extends AutoCloseable
{
    /**
     * @return {@code cuda} or {@code simulated}.
     */
    String name();

    /**
     * @return versions and devices in one line, e.g. {@code CUDA driver 13.0, runtime 13.1, TensorRT 10.15.1, 2 GPUs}.
     */
    String describe();

    /**
     * @return the TensorRT version the engines are built with (part of the engine cache key), e.g. {@code 10.15.1}.
     */
    String tensorRtVersion();

    /**
     * @return the number of devices.
     */
    int deviceCount();

    /**
     * Opens a device for this process; the calling thread is bound to it.
     *
     * @param ordinal 0 to {@link #deviceCount()} - 1.
     * @return the device.
     * @throws DeviceException if it cannot be opened.
     */
    Gpu open(int ordinal);

    /**
     * Reads a model's input and output tensors without building an engine (the ONNX parser's network).
     *
     * @param onnxModel the model.
     * @return its tensors, batch axis first, dynamic dimensions negative.
     * @throws DeviceException naming the model and the parser's errors.
     */
    List<EngineTensor> inspect(Path onnxModel);

    /**
     * Builds a serialized engine on a device (TensorRT picks kernels for that GPU).
     *
     * @param gpu     the device the engine is for.
     * @param request what to build.
     * @return the serialized engine (a TensorRT plan).
     * @throws DeviceException naming the model and why the build failed.
     */
    byte[] build(Gpu gpu, EngineBuild request);

    /**
     * @param gpu        the device.
     * @param serialized a serialized engine.
     * @param source     where it came from, for messages.
     * @return the engine.
     * @throws DeviceException when the plan does not deserialize (another TensorRT version or GPU).
     */
    Engine load(Gpu gpu, byte[] serialized, String source);

    /**
     * Frees what the backend holds (runtimes, loggers).
     */
    @Override
    void close();
}
