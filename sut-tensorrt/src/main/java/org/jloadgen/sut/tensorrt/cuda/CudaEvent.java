package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cudart.cudaErrorNotReady;
import static org.bytedeco.cuda.global.cudart.cudaEventDestroy;
import static org.bytedeco.cuda.global.cudart.cudaEventElapsedTime;
import static org.bytedeco.cuda.global.cudart.cudaEventQuery;
import static org.bytedeco.cuda.global.cudart.cudaEventSynchronize;
import static org.bytedeco.cuda.global.cudart.cudaSuccess;

import org.bytedeco.cuda.cudart.CUevent_st;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;

/**
 * A CUDA event. The elapsed-time query reuses a one-element array, so polling and timing allocate nothing (one
 * thread, the GPU's completion thread, reads a slot's events at a time).
 */
final class CudaEvent implements DeviceEvent
{
    final CUevent_st event;
    private final float[] milliseconds = new float[1];

    CudaEvent(final CUevent_st event)
    {
        this.event = event;
    }

    @Override
    public boolean isComplete()
    {
        final int status = cudaEventQuery(event);
        if (status == cudaSuccess)
        {
            return true;
        }
        if (status == cudaErrorNotReady)
        {
            return false;
        }
        CudaBackend.check(status, "cudaEventQuery (an earlier copy or inference failed)");
        return false;
    }

    @Override
    public void synchronize()
    {
        final int status = cudaEventSynchronize(event);
        if (status != 0)
        {
            CudaBackend.check(status, "cudaEventSynchronize (an earlier copy or inference failed)");
        }
    }

    @Override
    public long elapsedNs(final DeviceEvent start)
    {
        final int status = cudaEventElapsedTime(milliseconds, ((CudaEvent)start).event, event);
        if (status != 0)
        {
            CudaBackend.check(status, "cudaEventElapsedTime");
        }
        return (long)(milliseconds[0] * 1e6);
    }

    @Override
    public void close()
    {
        CudaBackend.check(cudaEventDestroy(event), "cudaEventDestroy");
    }
}
