package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cudart.cudaGraphExecDestroy;
import static org.bytedeco.cuda.global.cudart.cudaGraphLaunch;

import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.jloadgen.sut.tensorrt.device.DeviceGraph;
import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * An instantiated CUDA graph.
 */
final class CudaGraph implements DeviceGraph
{
    private final CUgraphExec_st exec;

    CudaGraph(final CUgraphExec_st exec)
    {
        this.exec = exec;
    }

    @Override
    public void launch(final DeviceStream stream)
    {
        final int error = cudaGraphLaunch(exec, ((CudaStream)stream).stream);
        if (error != 0)
        {
            CudaBackend.check(error, "cudaGraphLaunch");
        }
    }

    @Override
    public void close()
    {
        CudaBackend.check(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
    }
}
