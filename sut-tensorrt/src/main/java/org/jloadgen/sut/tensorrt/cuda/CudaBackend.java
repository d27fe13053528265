package org.jloadgen.sut.tensorrt.cuda;

import static org.bytedeco.cuda.global.cudart.cudaGetDeviceCount;
import static org.bytedeco.cuda.global.cudart.cudaGetErrorName;
import static org.bytedeco.cuda.global.cudart.cudaGetErrorString;
import static org.bytedeco.cuda.global.cudart.cudaRuntimeGetVersion;
import static org.bytedeco.cuda.global.cudart.cudaSetDevice;
import static org.bytedeco.cuda.global.cudart.cudaSuccess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.tensorrt.global.nvinfer;
import org.bytedeco.tensorrt.global.nvonnxparser;
import org.bytedeco.tensorrt.nvinfer.Dims64;
import org.bytedeco.tensorrt.nvinfer.IBuilder;
import org.bytedeco.tensorrt.nvinfer.IBuilderConfig;
import org.bytedeco.tensorrt.nvinfer.ICudaEngine;
import org.bytedeco.tensorrt.nvinfer.IHostMemory;
import org.bytedeco.tensorrt.nvinfer.ILogger;
import org.bytedeco.tensorrt.nvinfer.INetworkDefinition;
import org.bytedeco.tensorrt.nvinfer.IOptimizationProfile;
import org.bytedeco.tensorrt.nvinfer.IRuntime;
import org.bytedeco.tensorrt.nvinfer.ITensor;
import org.bytedeco.tensorrt.nvonnxparser.IParser;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * The real device backend: CUDA 13 and TensorRT 10 through the JavaCPP presets ({@code org.bytedeco:cuda},
 * {@code org.bytedeco:tensorrt}, JNI glue only: the machine brings its driver, CUDA runtime and TensorRT). Opened
 * only after {@link CudaProbe} found everything, so that a machine without a GPU gets a message saying what is
 * missing instead of JavaCPP's {@link UnsatisfiedLinkError}.
 * <p>
 * TensorRT objects made by its factories are not owned by JavaCPP (closing them frees nothing); the few made per run
 * (builder, network, parser) live until the process ends.
 */
public final class CudaBackend implements DeviceBackend
{
    private final CudaProbe.Result probe;
    private final TrtLogger logger;
    private final IRuntime runtime;
    private final int runtimeVersion;

    private CudaBackend(final CudaProbe.Result probe)
    {
        this.probe = probe;
        this.logger = new TrtLogger(System.err);
        this.runtime = nvinfer.createInferRuntime(logger);
        if (runtime == null || runtime.isNull())
        {
            throw new DeviceException("createInferRuntime failed: " + logger.takeErrors());
        }
        final int[] version = new int[1];
        check(cudaRuntimeGetVersion(version), "cudaRuntimeGetVersion");
        this.runtimeVersion = version[0];
    }

    /**
     * Probes the machine, then loads the presets' native code.
     *
     * @return the backend.
     * @throws IllegalArgumentException saying what is missing (driver, GPU, CUDA runtime, TensorRT).
     */
    public static CudaBackend open()
    {
        final CudaProbe.Result probe = CudaProbe.run();
        if (!probe.usable())
        {
            throw new IllegalArgumentException(probe.problem());
        }
        try
        {
            Loader.load(org.bytedeco.cuda.global.cudart.class);
            Loader.load(nvinfer.class);
            Loader.load(nvonnxparser.class);
        }
        catch (final Throwable t)
        {
            throw new IllegalArgumentException("the JavaCPP presets for CUDA 13.1 and TensorRT 10.15 could not load "
                + "their native code (" + t + "); the probe found " + probe.describe(), t);
        }
        return new CudaBackend(probe);
    }

    static void check(final int error, final String call)
    {
        if (error != cudaSuccess)
        {
            throw new DeviceException(call + " failed: " + errorText(error));
        }
    }

    static String errorText(final int error)
    {
        return cudaGetErrorName(error).getString() + " (" + cudaGetErrorString(error).getString() + ")";
    }

    TrtLogger logger()
    {
        return logger;
    }

    @Override
    public String name()
    {
        return "cuda";
    }

    @Override
    public String describe()
    {
        return String.format(Locale.ROOT, "CUDA runtime %d.%d, %s", runtimeVersion / 1000, runtimeVersion % 1000 / 10,
            probe.describe());
    }

    @Override
    public String tensorRtVersion()
    {
        return CudaProbe.tensorRtVersion(nvinfer.getInferLibVersion());
    }

    @Override
    public int deviceCount()
    {
        final int[] count = new int[1];
        check(cudaGetDeviceCount(count), "cudaGetDeviceCount");
        return count[0];
    }

    @Override
    public Gpu open(final int ordinal)
    {
        check(cudaSetDevice(ordinal), "cudaSetDevice(" + ordinal + ")");
        return new CudaGpu(ordinal);
    }

    /**
     * A parsed network: the builder, network and parser stay alive together.
     */
    private record Parsed(IBuilder builder, INetworkDefinition network, IParser parser)
    {
    }

    private Parsed parse(final Path model)
    {
        if (!Files.isRegularFile(model))
        {
            throw new IllegalArgumentException("model file not found: " + model);
        }
        final IBuilder builder = nvinfer.createInferBuilder(logger);
        if (builder == null || builder.isNull())
        {
            throw new DeviceException("createInferBuilder failed: " + logger.takeErrors());
        }
        // TensorRT 10 networks are always explicit-batch: no creation flag needed.
        final INetworkDefinition network = builder.createNetworkV2(0);
        final IParser parser = nvonnxparser.createParser(network, logger);
        if (!parser.parseFromFile(model.toString(), ILogger.Severity.kWARNING.value))
        {
            final List<String> errors = new ArrayList<>();
            for (int i = 0; i < parser.getNbErrors(); i++)
            {
                errors.add(parser.getError(i).desc());
            }
            throw new IllegalArgumentException("cannot parse ONNX model " + model + ": " + String.join("; ", errors));
        }
        return new Parsed(builder, network, parser);
    }

    @Override
    public List<EngineTensor> inspect(final Path onnxModel)
    {
        final Parsed parsed = parse(onnxModel);
        final INetworkDefinition net = parsed.network();
        final List<EngineTensor> tensors = new ArrayList<>();
        for (int i = 0; i < net.getNbInputs(); i++)
        {
            tensors.add(spec(net.getInput(i), true));
        }
        for (int i = 0; i < net.getNbOutputs(); i++)
        {
            tensors.add(spec(net.getOutput(i), false));
        }
        return tensors;
    }

    private static EngineTensor spec(final ITensor tensor, final boolean input)
    {
        return tensorSpec(tensor.getName(), input, tensor.getType(), dims(tensor.getDimensions()));
    }

    static EngineTensor tensorSpec(final String name, final boolean input, final nvinfer.DataType type,
        final long[] shape)
    {
        return switch (type)
        {
            case kFLOAT -> new EngineTensor(name, input, "float32", DType.FLOAT32, 4, shape);
            case kHALF -> new EngineTensor(name, input, "float16", DType.FLOAT16, 2, shape);
            case kINT8 -> new EngineTensor(name, input, "int8", DType.INT8, 1, shape);
            case kUINT8 -> new EngineTensor(name, input, "uint8", DType.UINT8, 1, shape);
            case kINT32 -> new EngineTensor(name, input, "int32", DType.INT32, 4, shape);
            case kINT64 -> new EngineTensor(name, input, "int64", DType.INT64, 8, shape);
            case kBOOL -> new EngineTensor(name, input, "bool", DType.parse("bool"), 1, shape);
            case kBF16 -> new EngineTensor(name, input, "bfloat16", null, 2, shape);
            case kFP8 -> new EngineTensor(name, input, "fp8", null, 1, shape);
            case kE8M0 -> new EngineTensor(name, input, "e8m0", null, 1, shape);
            default -> new EngineTensor(name, input, type.name().substring(1).toLowerCase(Locale.ROOT), null, 0, shape);
        };
    }

    static long[] dims(final Dims64 dims)
    {
        final long[] shape = new long[dims.nbDims()];
        for (int i = 0; i < shape.length; i++)
        {
            shape[i] = dims.d(i);
        }
        return shape;
    }

    static Dims64 dims(final long[] shape)
    {
        final Dims64 dims = new Dims64();
        dims.nbDims(shape.length);
        for (int i = 0; i < shape.length; i++)
        {
            dims.d(i, shape[i]);
        }
        return dims;
    }

    // kFP16 and kINT8 are TensorRT's weak-typing flags, deprecated since 10.12 in favour of strongly typed networks;
    // they remain how TensorRT may pick FP16 or INT8 kernels for an FP32 ONNX model.
    @SuppressWarnings("deprecation")
    @Override
    public byte[] build(final Gpu gpu, final EngineBuild request)
    {
        gpu.makeCurrent();
        final Parsed parsed = parse(request.model());
        final IBuilderConfig config = parsed.builder().createBuilderConfig();
        if (request.fp16())
        {
            config.setFlag(nvinfer.BuilderFlag.kFP16);
        }
        if (request.int8())
        {
            config.setFlag(nvinfer.BuilderFlag.kINT8);
        }
        if (!request.tf32())
        {
            config.clearFlag(nvinfer.BuilderFlag.kTF32);
        }
        if (request.workspaceBytes() > 0)
        {
            config.setMemoryPoolLimit(nvinfer.MemoryPoolType.kWORKSPACE, request.workspaceBytes());
        }
        if (request.builderOptimizationLevel() >= 0)
        {
            config.setBuilderOptimizationLevel(request.builderOptimizationLevel());
        }
        final long[] sample = request.sampleShape();
        final long[] shape = new long[sample.length + 1];
        System.arraycopy(sample, 0, shape, 1, sample.length);
        if (inputIsDynamic(parsed.network(), request.inputName()))
        {
            for (int p = 0; p < request.profiles(); p++)
            {
                final IOptimizationProfile profile = parsed.builder().createOptimizationProfile();
                shape[0] = 1;
                profile.setDimensions(request.inputName(), nvinfer.OptProfileSelector.kMIN, dims(shape));
                shape[0] = request.optBatch();
                profile.setDimensions(request.inputName(), nvinfer.OptProfileSelector.kOPT, dims(shape));
                shape[0] = request.maxBatch();
                profile.setDimensions(request.inputName(), nvinfer.OptProfileSelector.kMAX, dims(shape));
                if (config.addOptimizationProfile(profile) < 0)
                {
                    throw new DeviceException("addOptimizationProfile failed for " + request.model() + ": "
                        + logger.takeErrors());
                }
            }
        }
        final IHostMemory plan = parsed.builder().buildSerializedNetwork(parsed.network(), config);
        if (plan == null || plan.isNull() || plan.size() == 0)
        {
            throw new DeviceException("building a TensorRT engine from " + request.model() + " failed: "
                + logger.takeErrors());
        }
        if (plan.size() > Integer.MAX_VALUE - 8)
        {
            throw new DeviceException("the engine of " + request.model() + " is over 2 GiB (" + plan.size()
                + " bytes); load it with --sut-opt engine=FILE instead");
        }
        final byte[] bytes = new byte[(int)plan.size()];
        new BytePointer(plan.data()).capacity(plan.size()).get(bytes);
        return bytes;
    }

    private static boolean inputIsDynamic(final INetworkDefinition network, final String input)
    {
        for (int i = 0; i < network.getNbInputs(); i++)
        {
            final ITensor tensor = network.getInput(i);
            if (tensor.getName().equals(input))
            {
                for (final long d : dims(tensor.getDimensions()))
                {
                    if (d < 0)
                    {
                        return true;
                    }
                }
                return false;
            }
        }
        throw new DeviceException("the network has no input '" + input + "'");
    }

    @Override
    public Engine load(final Gpu gpu, final byte[] serialized, final String source)
    {
        gpu.makeCurrent();
        final ICudaEngine engine = runtime.deserializeCudaEngine(new BytePointer(serialized), serialized.length);
        if (engine == null || engine.isNull())
        {
            throw new DeviceException("deserializeCudaEngine failed for " + source + " (built by another TensorRT "
                + "version or for another GPU?): " + logger.takeErrors());
        }
        return new TrtEngine(engine, logger);
    }

    @Override
    public void close()
    {
        // The runtime lives as long as the engines it made; JavaCPP does not own it (see the class comment).
    }
}
