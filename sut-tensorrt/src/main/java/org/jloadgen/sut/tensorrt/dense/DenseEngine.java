package org.jloadgen.sut.tensorrt.dense;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * A dense model on one device: its weights, biases and prologue constants copied to device memory once; each
 * {@link DenseContext} adds its own activations and GEMM handle. Every optimization profile is the same (1 to the
 * plan's largest batch); the engine reports as many as the plan asks, one per copy stream.
 */
public final class DenseEngine implements Engine
{
    final Gpu gpu;
    final DenseModel model;
    final DensePlan plan;
    final DenseKernels kernels;
    final long[] weights;
    final long[] biases;
    final long constants;
    final long opCodes;
    private final List<Long> allocations = new ArrayList<>();
    private int openContexts;

    DenseEngine(final Gpu gpu, final DenseModel model, final DensePlan plan, final DenseKernels kernels)
    {
        this.gpu = gpu;
        this.model = model;
        this.plan = plan;
        this.kernels = kernels;
        final int layers = model.layers().size();
        this.weights = new long[layers];
        this.biases = new long[layers];
        try (DeviceStream stream = gpu.newStream())
        {
            for (int l = 0; l < layers; l++)
            {
                final DenseModel.Layer layer = model.layers().get(l);
                weights[l] = upload(stream, layer.weights());
                biases[l] = layer.bias() == null ? 0 : upload(stream, layer.bias());
            }
            final int steps = model.steps().size();
            if (steps > 15)
            {
                throw new IllegalArgumentException("model " + model.source() + " has " + steps + " element-wise "
                    + "steps before the first layer; the prologue kernel takes up to 15");
            }
            long codes = 0;
            final float[] expanded = new float[Math.max(1, steps * model.features())];
            for (int s = 0; s < steps; s++)
            {
                final DenseModel.Step step = model.steps().get(s);
                codes |= (long)step.op().ordinal() << (4 * s);
                for (int c = 0; c < model.features(); c++)
                {
                    expanded[s * model.features() + c] = step.constant(c);
                }
            }
            this.opCodes = codes;
            this.constants = upload(stream, expanded);
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private long upload(final DeviceStream stream, final float[] values)
    {
        final long bytes = (long)values.length * Float.BYTES;
        final long device = gpu.allocate(bytes);
        allocations.add(device);
        final long staging = gpu.allocatePinned(bytes);
        try
        {
            MemorySegment.copy(values, 0, MemorySegment.ofAddress(staging).reinterpret(bytes),
                ValueLayout.JAVA_FLOAT_UNALIGNED, 0, values.length);
            stream.copyToDevice(device, staging, bytes);
            stream.synchronize();
        }
        finally
        {
            gpu.freePinned(staging);
        }
        return device;
    }

    /**
     * @return the model.
     */
    public DenseModel model()
    {
        return model;
    }

    @Override
    public List<EngineTensor> tensors()
    {
        return model.tensors();
    }

    @Override
    public int profiles()
    {
        return plan.profiles();
    }

    @Override
    public long maxBatch(final String input, final int profile)
    {
        final long fixed = model.input().shape()[0];
        return fixed > 0 ? fixed : plan.maxBatch();
    }

    @Override
    public ExecutionContext newContext(final int profile, final DeviceStream stream)
    {
        final DenseContext context = new DenseContext(this, stream);
        openContexts++;
        return context;
    }

    void contextClosed()
    {
        openContexts--;
    }

    /**
     * @return contexts not closed yet (for tests).
     */
    public int openContexts()
    {
        return openContexts;
    }

    @Override
    public void close()
    {
        gpu.makeCurrent();
        for (final long address : allocations)
        {
            gpu.free(address);
        }
        allocations.clear();
    }
}
