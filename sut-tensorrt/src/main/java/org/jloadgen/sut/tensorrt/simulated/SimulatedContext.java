package org.jloadgen.sut.tensorrt.simulated;

import java.util.Arrays;

import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;

/**
 * A simulated execution context: shapes and addresses as TensorRT keeps them, checked as TensorRT checks them (a
 * batch within the profile, every tensor bound before an enqueue).
 */
final class SimulatedContext implements ExecutionContext
{
    final SimulatedEngine engine;
    final int profile;
    private final SimulatedGpu gpu;
    private final long sampleBytes;
    private long inputAddress;
    private long outputAddress;
    private int batch;
    private boolean closed;

    SimulatedContext(final SimulatedEngine engine, final SimulatedGpu gpu, final int profile)
    {
        this.engine = engine;
        this.gpu = gpu;
        this.profile = profile;
        long bytes = engine.model().input().elementBytes();
        for (final long d : engine.model().input().sampleShape())
        {
            bytes *= d;
        }
        this.sampleBytes = bytes;
    }

    @Override
    public void prepare(final String input, final long[] sampleShape)
    {
        if (!input.equals(engine.model().input().name()))
        {
            throw new DeviceException("no input tensor '" + input + "' in the engine");
        }
        if (!Arrays.equals(sampleShape, engine.model().input().sampleShape()))
        {
            throw new DeviceException("setInputShape: sample shape " + Arrays.toString(sampleShape)
                + " does not fit " + engine.model().input().describe());
        }
    }

    @Override
    public void setBatch(final int n)
    {
        if (n < 1 || n > engine.maxBatch())
        {
            throw new DeviceException("setInputShape: batch " + n + " is outside profile " + profile + " [1, "
                + engine.maxBatch() + "]");
        }
        batch = n;
    }

    @Override
    public void bind(final String tensor, final long address)
    {
        if (tensor.equals(engine.model().input().name()))
        {
            inputAddress = address;
        }
        else if (tensor.equals(engine.model().output().name()))
        {
            outputAddress = address;
        }
        else
        {
            throw new DeviceException("setTensorAddress: no tensor '" + tensor + "'");
        }
    }

    @Override
    public long[] shape(final String tensor)
    {
        final long[] shape = tensor.equals(engine.model().input().name()) ? engine.model().input().shape()
            : engine.model().output().shape();
        shape[0] = batch;
        return shape;
    }

    @Override
    public void enqueue(final DeviceStream stream)
    {
        gpu.checkCurrent();
        if (closed || batch == 0 || inputAddress == 0 || outputAddress == 0)
        {
            throw new DeviceException("enqueueV3 failed: " + (closed ? "the context is destroyed"
                : batch == 0 ? "the input shape is not set" : "a tensor has no address"));
        }
        gpu.spin(gpu.settings().enqueueNs());
        ((SimulatedStream)stream).infer(this, batch, inputAddress, outputAddress);
    }

    long sampleBytes()
    {
        return sampleBytes;
    }

    long outputRowBytes()
    {
        long bytes = engine.model().output().elementBytes();
        for (final long d : engine.model().output().sampleShape())
        {
            bytes *= d;
        }
        return bytes;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            engine.contextClosed(profile);
        }
    }
}
