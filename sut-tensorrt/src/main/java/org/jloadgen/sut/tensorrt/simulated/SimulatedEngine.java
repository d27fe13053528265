package org.jloadgen.sut.tensorrt.simulated;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * A simulated engine: the model, its profiles and the largest batch, serialized as a few lines of text. Like
 * TensorRT, it lets one live context use a profile at a time when the input has dynamic shapes.
 */
final class SimulatedEngine implements Engine
{
    /** First line of a serialized simulated engine. */
    static final String MAGIC = "jloadgen-simulated-engine 1";

    private final SimulatedModel model;
    private final SimulatedGpu gpu;
    private final int profiles;
    private final int maxBatch;
    private final boolean[] profileInUse;

    SimulatedEngine(final SimulatedModel model, final SimulatedGpu gpu, final int profiles, final int maxBatch)
    {
        this.model = model;
        this.gpu = gpu;
        this.profiles = profiles;
        this.maxBatch = maxBatch;
        this.profileInUse = new boolean[profiles];
    }

    static byte[] serialize(final SimulatedModel model, final EngineBuild build)
    {
        return (MAGIC + "\ninput " + model.input().name() + "\nprofiles " + build.profiles() + "\nmax_batch "
            + build.maxBatch() + "\nbuild " + build.canonical() + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static SimulatedEngine deserialize(final SimulatedModel model, final SimulatedGpu gpu, final byte[] plan,
        final String source)
    {
        final String[] lines = new String(plan, StandardCharsets.UTF_8).split("\n");
        if (lines.length < 4 || !lines[0].equals(MAGIC))
        {
            throw new DeviceException("deserializeCudaEngine failed for " + source + ": not an engine of this "
                + "(simulated) runtime");
        }
        if (!lines[1].equals("input " + model.input().name()))
        {
            throw new DeviceException("deserializeCudaEngine failed for " + source + ": built for another model");
        }
        return new SimulatedEngine(model, gpu, number(lines[2], "profiles ", source),
            number(lines[3], "max_batch ", source));
    }

    private static int number(final String line, final String key, final String source)
    {
        if (!line.startsWith(key))
        {
            throw new DeviceException("deserializeCudaEngine failed for " + source + ": no '" + key.strip() + "'");
        }
        return Integer.parseInt(line.substring(key.length()).strip());
    }

    SimulatedModel model()
    {
        return model;
    }

    int maxBatch()
    {
        return maxBatch;
    }

    @Override
    public List<EngineTensor> tensors()
    {
        return List.of(model.input(), model.output());
    }

    @Override
    public int profiles()
    {
        return profiles;
    }

    @Override
    public long maxBatch(final String input, final int profile)
    {
        if (!input.equals(model.input().name()) || profile < 0 || profile >= profiles)
        {
            throw new DeviceException(String.format(Locale.ROOT, "getProfileShape: no input '%s' or profile %d",
                input, profile));
        }
        return maxBatch;
    }

    @Override
    public synchronized ExecutionContext newContext(final int profile, final DeviceStream stream)
    {
        if (profile < 0 || profile >= profiles)
        {
            throw new DeviceException("setOptimizationProfileAsync: no profile " + profile + " (the engine has "
                + profiles + ")");
        }
        final boolean dynamic = java.util.Arrays.stream(model.input().shape()).anyMatch(d -> d < 0);
        if (dynamic && profileInUse[profile])
        {
            throw new DeviceException("setOptimizationProfileAsync: profile " + profile + " is used by another "
                + "execution context (one context per profile with dynamic shapes)");
        }
        profileInUse[profile] = true;
        gpu.contextCreated();
        return new SimulatedContext(this, gpu, profile);
    }

    synchronized void contextClosed(final int profile)
    {
        // With static shapes several contexts share profile 0; the flag only matters with dynamic ones.
        profileInUse[profile] = false;
        gpu.contextClosed();
    }

    @Override
    public void close()
    {
        gpu.engineClosed();
    }
}
