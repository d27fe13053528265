package org.jloadgen.sut.tensorrt.cuda;

import java.util.ArrayList;
import java.util.List;

import org.bytedeco.tensorrt.global.nvinfer;
import org.bytedeco.tensorrt.nvinfer.ICudaEngine;
import org.bytedeco.tensorrt.nvinfer.IExecutionContext;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * A deserialized TensorRT engine.
 */
final class TrtEngine implements Engine
{
    private final ICudaEngine engine;
    private final TrtLogger logger;

    TrtEngine(final ICudaEngine engine, final TrtLogger logger)
    {
        this.engine = engine;
        this.logger = logger;
    }

    @Override
    public List<EngineTensor> tensors()
    {
        final List<EngineTensor> tensors = new ArrayList<>();
        for (int i = 0; i < engine.getNbIOTensors(); i++)
        {
            final String name = engine.getIOTensorName(i);
            tensors.add(CudaBackend.tensorSpec(name, engine.getTensorIOMode(name) == nvinfer.TensorIOMode.kINPUT,
                engine.getTensorDataType(name), CudaBackend.dims(engine.getTensorShape(name))));
        }
        return tensors;
    }

    @Override
    public int profiles()
    {
        return engine.getNbOptimizationProfiles();
    }

    @Override
    public long maxBatch(final String input, final int profile)
    {
        final long fixed = engine.getTensorShape(input).d(0);
        if (fixed >= 0)
        {
            return fixed;
        }
        return engine.getProfileShape(input, profile, nvinfer.OptProfileSelector.kMAX).d(0);
    }

    @Override
    public ExecutionContext newContext(final int profile, final DeviceStream stream)
    {
        final IExecutionContext context = engine.createExecutionContext();
        if (context == null || context.isNull())
        {
            throw new DeviceException("createExecutionContext failed (out of device memory?): "
                + logger.takeErrors());
        }
        if (profile != 0 && !context.setOptimizationProfileAsync(profile, ((CudaStream)stream).stream))
        {
            throw new DeviceException("setOptimizationProfileAsync(" + profile + ") failed: " + logger.takeErrors());
        }
        return new TrtContext(context, logger);
    }

    @Override
    public void close()
    {
        engine.close();
    }
}
