package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cudart.cudaGraphDestroy;
import static org.bytedeco.cuda.global.cudart.cudaGraphInstantiate;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyAsync;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyDeviceToDevice;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyDeviceToHost;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyHostToDevice;
import static org.bytedeco.cuda.global.cudart.cudaEventRecord;
import static org.bytedeco.cuda.global.cudart.cudaStreamBeginCapture;
import static org.bytedeco.cuda.global.cudart.cudaStreamCaptureModeThreadLocal;
import static org.bytedeco.cuda.global.cudart.cudaStreamDestroy;
import static org.bytedeco.cuda.global.cudart.cudaStreamEndCapture;
import static org.bytedeco.cuda.global.cudart.cudaStreamSynchronize;
import static org.bytedeco.cuda.global.cudart.cudaStreamWaitEvent;

import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceGraph;
import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * A CUDA stream. Copies reuse two pointer objects, so enqueuing allocates nothing; they belong to the one thread that
 * copies on the stream at a time (a slot's copy stream is used by the thread that holds the slot).
 */
final class CudaStream implements DeviceStream
{
    final CUstream_st stream;
    private final Address destination = new Address();
    private final Address source = new Address();

    CudaStream(final CUstream_st stream)
    {
        this.stream = stream;
    }

    private void copy(final long to, final long from, final long bytes, final int kind, final String call)
    {
        final int error = cudaMemcpyAsync(destination.at(to), source.at(from), bytes, kind, stream);
        if (error != 0)
        {
            CudaBackend.check(error, call + " of " + bytes + " bytes");
        }
    }

    @Override
    public void copyToDevice(final long device, final long host, final long bytes)
    {
        copy(device, host, bytes, cudaMemcpyHostToDevice, "cudaMemcpyAsync host to device");
    }

    @Override
    public void copyToHost(final long host, final long device, final long bytes)
    {
        copy(host, device, bytes, cudaMemcpyDeviceToHost, "cudaMemcpyAsync device to host");
    }

    @Override
    public void copyOnDevice(final long to, final long from, final long bytes)
    {
        copy(to, from, bytes, cudaMemcpyDeviceToDevice, "cudaMemcpyAsync device to device");
    }

    @Override
    public void record(final DeviceEvent event)
    {
        final int error = cudaEventRecord(((CudaEvent)event).event, stream);
        if (error != 0)
        {
            CudaBackend.check(error, "cudaEventRecord");
        }
    }

    @Override
    public void waitFor(final DeviceEvent event)
    {
        final int error = cudaStreamWaitEvent(stream, ((CudaEvent)event).event, 0);
        if (error != 0)
        {
            CudaBackend.check(error, "cudaStreamWaitEvent");
        }
    }

    @Override
    public void synchronize()
    {
        CudaBackend.check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }

    @Override
    public void beginCapture()
    {
        // Thread-local mode: other threads' CUDA calls are neither captured nor disturbed.
        CudaBackend.check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    }

    @Override
    public DeviceGraph endCapture()
    {
        final CUgraph_st graph = new CUgraph_st();
        CudaBackend.check(cudaStreamEndCapture(stream, graph), "cudaStreamEndCapture");
        final CUgraphExec_st exec = new CUgraphExec_st();
        try
        {
            CudaBackend.check(cudaGraphInstantiate(exec, graph, 0L), "cudaGraphInstantiate");
        }
        finally
        {
            cudaGraphDestroy(graph);
        }
        return new CudaGraph(exec);
    }

    @Override
    public long handle()
    {
        return stream.address();
    }

    @Override
    public void close()
    {
        CudaBackend.check(cudaStreamDestroy(stream), "cudaStreamDestroy");
    }
}
