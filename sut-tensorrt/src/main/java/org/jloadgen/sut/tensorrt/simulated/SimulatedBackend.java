package org.jloadgen.sut.tensorrt.simulated;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.jloadgen.sut.tensorrt.SimulationSettings;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * The device backend without a GPU ({@code --sut-opt backend=simulated}): devices whose streams are JVM threads,
 * whose events, graphs, contexts and profiles behave as CUDA's and TensorRT's do where the SUT relies on it, and
 * whose "engine" computes a {@link SimulatedModel} (by default {@link HashClassifier}). It does not read the ONNX
 * model: the model file is hashed for the engine cache only, and the tensors come from the simulation settings.
 */
public final class SimulatedBackend implements DeviceBackend
{
    private final SimulationSettings settings;
    private final SimulatedModel model;
    private final List<SimulatedGpu> opened = new ArrayList<>();
    private final AtomicInteger builds = new AtomicInteger();
    private final ThreadLocal<int[]> currentDevice = ThreadLocal.withInitial(() -> new int[] {-1});

    /**
     * @param settings devices, model shape and stage times.
     */
    public SimulatedBackend(final SimulationSettings settings)
    {
        this(settings, new HashClassifier(settings.inputType(), settings.inputShape(), settings.classes()));
    }

    /**
     * @param settings devices and stage times.
     * @param model    what the engines compute.
     */
    public SimulatedBackend(final SimulationSettings settings, final SimulatedModel model)
    {
        this.settings = settings;
        this.model = model;
    }

    int[] currentDevice()
    {
        return currentDevice.get();
    }

    @Override
    public String name()
    {
        return "simulated";
    }

    @Override
    public String describe()
    {
        return "simulated devices (no GPU): " + settings + "; model " + model.input().describe() + " -> "
            + model.output().describe();
    }

    @Override
    public String tensorRtVersion()
    {
        return "simulated-1";
    }

    @Override
    public int deviceCount()
    {
        return settings.devices();
    }

    @Override
    public synchronized Gpu open(final int ordinal)
    {
        if (ordinal < 0 || ordinal >= settings.devices())
        {
            throw new DeviceException("cudaSetDevice(" + ordinal + "): invalid device ordinal");
        }
        final SimulatedGpu gpu = new SimulatedGpu(this, ordinal, settings, model);
        opened.add(gpu);
        gpu.makeCurrent();
        return gpu;
    }

    @Override
    public List<EngineTensor> inspect(final Path onnxModel)
    {
        if (!Files.isRegularFile(onnxModel))
        {
            throw new IllegalArgumentException("model file not found: " + onnxModel);
        }
        return List.of(model.input(), model.output());
    }

    @Override
    public byte[] build(final Gpu gpu, final EngineBuild request)
    {
        if (!request.inputName().equals(model.input().name()))
        {
            throw new DeviceException("building " + request.model() + ": no input '" + request.inputName() + "'");
        }
        builds.incrementAndGet();
        return SimulatedEngine.serialize(model, request);
    }

    @Override
    public Engine load(final Gpu gpu, final byte[] serialized, final String source)
    {
        final SimulatedGpu device = (SimulatedGpu)gpu;
        final SimulatedEngine engine = SimulatedEngine.deserialize(model, device, serialized, source);
        device.engineCreated();
        return engine;
    }

    /**
     * @return engines built so far (cache misses).
     */
    public int builds()
    {
        return builds.get();
    }

    /**
     * @param ordinal a device opened.
     * @return it, for its counters.
     */
    public synchronized SimulatedGpu device(final int ordinal)
    {
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            if (opened.get(i).ordinal() == ordinal)
            {
                return opened.get(i);
            }
        }
        throw new IllegalArgumentException("GPU " + ordinal + " was not opened");
    }

    @Override
    public void close()
    {
        // Devices keep their counters for the tests; their resources were freed by the SUT.
    }
}
