package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cudart.cudaEventBlockingSync;
import static org.bytedeco.cuda.global.cudart.cudaEventCreateWithFlags;
import static org.bytedeco.cuda.global.cudart.cudaEventDisableTiming;
import static org.bytedeco.cuda.global.cudart.cudaFree;
import static org.bytedeco.cuda.global.cudart.cudaFreeHost;
import static org.bytedeco.cuda.global.cudart.cudaGetDeviceProperties;
import static org.bytedeco.cuda.global.cudart.cudaHostAlloc;
import static org.bytedeco.cuda.global.cudart.cudaHostAllocPortable;
import static org.bytedeco.cuda.global.cudart.cudaHostRegister;
import static org.bytedeco.cuda.global.cudart.cudaHostRegisterPortable;
import static org.bytedeco.cuda.global.cudart.cudaHostUnregister;
import static org.bytedeco.cuda.global.cudart.cudaMalloc;
import static org.bytedeco.cuda.global.cudart.cudaSetDevice;
import static org.bytedeco.cuda.global.cudart.cudaStreamCreateWithFlags;
import static org.bytedeco.cuda.global.cudart.cudaStreamNonBlocking;

import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.javacpp.Pointer;
import org.jloadgen.bindings.CudaKernels;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * One CUDA device through the JavaCPP cudart presets; the top-k kernel comes from {@code libjlg_cuda.so} through FFM
 * ({@link CudaKernels}), launched on the stream's {@code cudaStream_t}.
 */
final class CudaGpu implements Gpu
{
    private final int ordinal;
    private final String name;
    private final String identity;

    CudaGpu(final int ordinal)
    {
        this.ordinal = ordinal;
        final cudaDeviceProp properties = new cudaDeviceProp();
        CudaBackend.check(cudaGetDeviceProperties(properties, ordinal), "cudaGetDeviceProperties(" + ordinal + ")");
        this.name = properties.name().getString();
        this.identity = name + " sm_" + properties.major() + properties.minor();
    }

    @Override
    public int ordinal()
    {
        return ordinal;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public String identity()
    {
        return identity;
    }

    @Override
    public void makeCurrent()
    {
        CudaBackend.check(cudaSetDevice(ordinal), "cudaSetDevice(" + ordinal + ")");
    }

    @Override
    public DeviceStream newStream()
    {
        final CUstream_st stream = new CUstream_st();
        // Non-blocking: no implicit synchronisation with the legacy default stream.
        CudaBackend.check(cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
        return new CudaStream(stream);
    }

    @Override
    public DeviceEvent newEvent(final boolean timing, final boolean blockingSync)
    {
        final CUevent_st event = new CUevent_st();
        final int flags = (timing ? 0 : cudaEventDisableTiming) | (blockingSync ? cudaEventBlockingSync : 0);
        CudaBackend.check(cudaEventCreateWithFlags(event, flags), "cudaEventCreateWithFlags");
        return new CudaEvent(event);
    }

    @Override
    public long allocate(final long bytes)
    {
        final Pointer memory = new Pointer();
        final int error = cudaMalloc(memory, bytes);
        if (error != 0)
        {
            throw new DeviceException("cudaMalloc(" + bytes + " bytes) on GPU " + ordinal + " failed: "
                + CudaBackend.errorText(error));
        }
        return memory.address();
    }

    @Override
    public long allocatePinned(final long bytes)
    {
        final Pointer memory = new Pointer();
        CudaBackend.check(cudaHostAlloc(memory, bytes, cudaHostAllocPortable), "cudaHostAlloc(" + bytes + ")");
        return memory.address();
    }

    @Override
    public void free(final long address)
    {
        CudaBackend.check(cudaFree(new Address(address)), "cudaFree");
    }

    @Override
    public void freePinned(final long address)
    {
        CudaBackend.check(cudaFreeHost(new Address(address)), "cudaFreeHost");
    }

    @Override
    public AutoCloseable register(final long address, final long bytes)
    {
        // The slab as a JavaCPP pointer over its own address: pinned in place, nothing copied.
        final Address slab = new Address(address);
        CudaBackend.check(cudaHostRegister(slab, bytes, cudaHostRegisterPortable), "cudaHostRegister(" + bytes
            + " bytes)");
        return () -> CudaBackend.check(cudaHostUnregister(slab), "cudaHostUnregister");
    }

    @Override
    public void topK(final DeviceStream stream, final long logits, final long ids, final int rows, final int cols,
        final int k)
    {
        final int error = CudaKernels.topK(logits, ids, rows, cols, k, stream.handle());
        if (error != CudaKernels.CUDA_SUCCESS)
        {
            throw new DeviceException("jlg_cuda_topk (" + rows + " rows of " + cols + ", k " + k + ") failed: "
                + CudaKernels.errorString(error));
        }
    }

    @Override
    public boolean hasTopK()
    {
        return CudaKernels.isAvailable();
    }

    @Override
    public void close()
    {
        // Streams, events and memory are freed by their owners.
    }
}
