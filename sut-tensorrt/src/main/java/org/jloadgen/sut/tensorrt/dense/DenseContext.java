package org.jloadgen.sut.tensorrt.dense;

import java.util.Arrays;

import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;

/**
 * One batch at a time of a {@link DenseEngine}: its own GEMM handle on the stream it was made for, and device
 * buffers for the converted input and the hidden layers' activations (sized for the largest batch). An enqueue of n
 * rows is, in stream order: the prologue kernel (when the input is not float32 or has element-wise steps), then per
 * layer a GEMM and the bias/activation kernel (writing the last layer into the bound output), then softmax when the
 * model ends with one. It allocates nothing, so graphs capture it as it is.
 */
final class DenseContext implements ExecutionContext
{
    private final DenseEngine engine;
    private final DenseModel model;
    private final DeviceStream stream;
    private final DenseKernels.Blas blas;
    private final long features;
    private final long[] activations;
    private final int inputType;
    private long input;
    private long output;
    private int batch;
    private boolean closed;

    DenseContext(final DenseEngine engine, final DeviceStream stream)
    {
        this.engine = engine;
        this.model = engine.model;
        this.stream = stream;
        final int layers = model.layers().size();
        this.activations = new long[layers];
        this.inputType = switch (model.input().typeName())
        {
            case "uint8" -> DenseKernels.INPUT_UINT8;
            case "int8" -> DenseKernels.INPUT_INT8;
            default -> DenseKernels.INPUT_FLOAT32;
        };
        final long rows = engine.maxBatch(model.input().name(), 0);
        long converted = 0;
        try
        {
            if (model.hasPrologue())
            {
                converted = engine.gpu.allocate(rows * model.features() * Float.BYTES);
            }
            for (int l = 0; l < layers - 1; l++)
            {
                activations[l] = engine.gpu.allocate(rows * model.layers().get(l).outFeatures() * Float.BYTES);
            }
        }
        catch (final RuntimeException ex)
        {
            freeBuffers(converted);
            throw ex;
        }
        this.features = converted;
        DenseKernels.Blas handle = null;
        try
        {
            handle = engine.kernels.blas(stream, engine.plan.tf32());
        }
        finally
        {
            if (handle == null)
            {
                freeBuffers(converted);
            }
        }
        this.blas = handle;
    }

    private void freeBuffers(final long converted)
    {
        if (converted != 0)
        {
            engine.gpu.free(converted);
        }
        for (int l = 0; l < activations.length; l++)
        {
            if (activations[l] != 0)
            {
                engine.gpu.free(activations[l]);
                activations[l] = 0;
            }
        }
    }

    @Override
    public void prepare(final String inputName, final long[] sampleShape)
    {
        if (!inputName.equals(model.input().name()))
        {
            throw new DeviceException("no input tensor '" + inputName + "' in " + model.source());
        }
        long elements = 1;
        for (final long d : sampleShape)
        {
            elements *= d;
        }
        if (elements != model.features())
        {
            throw new DeviceException("a sample of shape " + Arrays.toString(sampleShape) + " does not fit "
                + model.input().describe() + " (" + model.features() + " elements)");
        }
    }

    @Override
    public void setBatch(final int n)
    {
        final long max = engine.maxBatch(model.input().name(), 0);
        if (n < 1 || n > max)
        {
            throw new DeviceException("batch " + n + " is outside [1, " + max + "] of the dense engine of "
                + model.source());
        }
        batch = n;
    }

    @Override
    public void bind(final String tensor, final long address)
    {
        if (tensor.equals(model.input().name()))
        {
            input = address;
        }
        else if (tensor.equals(model.output().name()))
        {
            output = address;
        }
        else
        {
            throw new DeviceException("no tensor '" + tensor + "' in " + model.source());
        }
    }

    @Override
    public long[] shape(final String tensor)
    {
        final long[] shape = tensor.equals(model.input().name()) ? model.input().shape()
            : tensor.equals(model.output().name()) ? model.output().shape() : null;
        if (shape == null)
        {
            throw new DeviceException("no tensor '" + tensor + "' in " + model.source());
        }
        shape[0] = batch;
        return shape;
    }

    @Override
    public void enqueue(final DeviceStream on)
    {
        if (closed || batch == 0 || input == 0 || output == 0)
        {
            throw new DeviceException("dense enqueue failed: " + (closed ? "the context is closed"
                : batch == 0 ? "the batch is not set" : "a tensor has no address"));
        }
        if (on != stream)
        {
            throw new DeviceException("a dense context enqueues on the stream it was made for");
        }
        final int n = batch;
        long x = input;
        if (features != 0)
        {
            engine.kernels.prepareInput(stream, input, inputType, features, n, model.features(), engine.constants,
                engine.opCodes, model.steps().size());
            x = features;
        }
        final int last = activations.length - 1;
        for (int l = 0; l <= last; l++)
        {
            final DenseModel.Layer layer = model.layers().get(l);
            final long y = l == last ? output : activations[l];
            blas.gemm(n, layer.inFeatures(), layer.outFeatures(), x, engine.weights[l], layer.transposed(),
                layer.alpha(), y);
            if (engine.biases[l] != 0 || layer.activation() != DenseModel.Activation.NONE)
            {
                engine.kernels.biasActivation(stream, y, engine.biases[l], n, layer.outFeatures(),
                    layer.activation().ordinal());
            }
            x = y;
        }
        if (model.softmax())
        {
            engine.kernels.softmax(stream, output, n, model.classes());
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        blas.close();
        freeBuffers(features);
        engine.contextClosed();
    }
}
