package org.jloadgen.sut.tensorrt.cuda;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorrt.nvinfer.Dims64;
import org.bytedeco.tensorrt.nvinfer.IExecutionContext;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;

/**
 * A TensorRT execution context. The input's name and shape are native objects made once, so that a batch's
 * {@code setInputShape} and {@code enqueueV3} allocate nothing (the String overloads would convert the name on
 * every call).
 */
final class TrtContext implements ExecutionContext
{
    private final IExecutionContext context;
    private final TrtLogger logger;
    private BytePointer input;
    private Dims64 inputShape;

    TrtContext(final IExecutionContext context, final TrtLogger logger)
    {
        this.context = context;
        this.logger = logger;
    }

    @Override
    public void prepare(final String inputName, final long[] sampleShape)
    {
        input = new BytePointer(inputName);
        final long[] shape = new long[sampleShape.length + 1];
        shape[0] = 1;
        System.arraycopy(sampleShape, 0, shape, 1, sampleShape.length);
        inputShape = CudaBackend.dims(shape);
    }

    @Override
    public void setBatch(final int n)
    {
        inputShape.d(0, n);
        if (!context.setInputShape(input, inputShape))
        {
            throw new DeviceException("setInputShape(batch " + n + ") failed: " + logger.takeErrors());
        }
    }

    @Override
    public void bind(final String tensor, final long address)
    {
        if (!context.setTensorAddress(tensor, new Address(address)))
        {
            throw new DeviceException("setTensorAddress('" + tensor + "') failed: " + logger.takeErrors());
        }
    }

    @Override
    public long[] shape(final String tensor)
    {
        return CudaBackend.dims(context.getTensorShape(tensor));
    }

    @Override
    public void enqueue(final DeviceStream stream)
    {
        if (!context.enqueueV3(((CudaStream)stream).stream))
        {
            throw new DeviceException("enqueueV3 failed: " + logger.takeErrors());
        }
    }

    @Override
    public void close()
    {
        context.close();
    }
}
