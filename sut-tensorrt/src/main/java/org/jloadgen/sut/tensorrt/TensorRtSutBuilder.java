package org.jloadgen.sut.tensorrt;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.stream.IntStream;
import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.SutDataset;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * The steps of {@link TensorRtSut#open}, keeping what was opened so far to close it on failure.
 */
final class TensorRtSutBuilder
{
    final TensorRtOptions options;
    final DeviceBackend backend;
    final PrintStream console;
    final Deque<AutoCloseable> opened = new ArrayDeque<>();
    final List<Gpu> gpus = new ArrayList<>();
    final List<Engine> engines = new ArrayList<>();
    final List<GpuPipeline> pipelines = new ArrayList<>();
    final List<String> engineSources = new ArrayList<>();
    String name;
    SutDataset dataset;
    PipelineSettings settings;
    IoLayout layout;
    SutStatistics statistics;

    TensorRtSutBuilder(final TensorRtOptions options, final DeviceBackend backend, final PrintStream console)
    {
        this.options = options;
        this.backend = backend;
        this.console = console;
        opened.push(backend);
    }

    void run()
    {
        final EngineSettings engine = options.engine();
        final int[] ordinals = ordinals();
        final Gpu first = backend.open(ordinals[0]);
        gpus.add(first);
        opened.push(first);
        byte[] plan = null;
        final List<EngineTensor> tensors;
        if (engine.engineFile() != null)
        {
            plan = readEngine(engine.engineFile());
            final Engine probe = backend.load(first, plan, engine.engineFile().toString());
            tensors = probe.tensors();
            probe.close();
        }
        else
        {
            tensors = backend.inspect(engine.modelFile());
        }
        final String model = engine.source().getFileName().toString();
        final EngineTensor input = pick(tensors, true, engine.inputName(), model);
        final EngineTensor output = pick(tensors, false, engine.outputName(), model);
        dataset = SutDataset.open(options.dataset(), input.asModelInput(model));
        opened.push(dataset);
        settings = batchSettings(options.pipeline(), input, model);
        settings = settings.withPostprocess(postprocess(settings.postprocess(), output, model, first));
        name = options.sutName() != null ? options.sutName()
            : (backend instanceof org.jloadgen.sut.tensorrt.dense.DenseBackend ? "cuBLAS(" : "TensorRT(") + model
                + ")";
        statistics = new SutStatistics(name, settings.maxBatchSize(), List.of(GpuPipeline.STAGE_ENQUEUE,
            GpuPipeline.STAGE_H2D, GpuPipeline.STAGE_INFER, GpuPipeline.STAGE_D2H));
        final boolean dynamic = input.shape()[0] < 0;
        final EngineCache cache = new EngineCache(engine.cacheDir());
        for (int g = 0; g < ordinals.length; g++)
        {
            final Gpu gpu = g == 0 ? first : backend.open(ordinals[g]);
            if (g > 0)
            {
                gpus.add(gpu);
                opened.push(gpu);
            }
            gpu.makeCurrent();
            final Engine e = plan != null ? loadGiven(gpu, plan, engine.engineFile())
                : buildOrLoad(cache, gpu, engine, input, dynamic);
            engines.add(e);
            opened.push(e);
            checkProfiles(e, input, dynamic, model);
            if (layout == null)
            {
                layout = layout(e, input, output);
            }
            final GpuPipeline pipeline = new GpuPipeline(gpu, e, layout, settings, statistics, name);
            pipelines.add(pipeline);
            opened.push(pipeline);
        }
    }

    private int[] ordinals()
    {
        final int count = backend.deviceCount();
        final int[] wanted = options.gpus();
        if (count == 0)
        {
            throw new IllegalArgumentException("the " + backend.name() + " backend sees no GPU");
        }
        if (wanted == null)
        {
            return IntStream.range(0, count).toArray();
        }
        for (final int ordinal : wanted)
        {
            if (ordinal >= count)
            {
                throw new IllegalArgumentException("gpus=" + Arrays.toString(wanted).replaceAll("[\\[\\] ]", "")
                    + " names GPU " + ordinal + " but " + count + " GPU" + (count == 1 ? " is" : "s are")
                    + " visible (ordinals 0 to " + (count - 1) + ")");
            }
        }
        return wanted;
    }

    private static byte[] readEngine(final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("engine file not found: " + file);
        }
        try
        {
            return Files.readAllBytes(file);
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalArgumentException("cannot read engine " + file + ": " + ex.getMessage(), ex);
        }
    }

    private static EngineTensor pick(final List<EngineTensor> tensors, final boolean input, final String wanted,
        final String model)
    {
        final List<EngineTensor> candidates = tensors.stream().filter(t -> t.input() == input).toList();
        final String what = input ? "input" : "output";
        if (wanted != null)
        {
            return candidates.stream().filter(t -> t.name().equals(wanted)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("model " + model + " has no " + what + " '" + wanted + "'; its "
                    + what + "s: " + candidates.stream().map(EngineTensor::describe).toList()));
        }
        if (candidates.isEmpty())
        {
            throw new IllegalArgumentException("model " + model + " has no " + what);
        }
        if (input && candidates.size() > 1)
        {
            throw new IllegalArgumentException("model " + model + " has " + candidates.size() + " inputs "
                + candidates.stream().map(EngineTensor::describe).toList() + "; the tensorrt SUT feeds one input "
                + "from the dataset");
        }
        return candidates.get(0);
    }

    private PipelineSettings batchSettings(final PipelineSettings s, final EngineTensor input, final String model)
    {
        final long fixed = input.shape()[0];
        if (fixed < 0 || fixed == s.maxBatchSize())
        {
            return s;
        }
        if (fixed == 1 && !options.batchGiven())
        {
            return s.withMaxBatchSize(1);
        }
        throw new IllegalArgumentException("model " + model + " " + input.describe() + " has a fixed batch axis of "
            + fixed + " but batch=" + s.maxBatchSize() + ": export the model with a dynamic batch axis, or give "
            + "--sut-opt batch=" + fixed + (fixed == 1 ? "" : " (every batch must then hold exactly " + fixed
            + " samples)"));
    }

    private static Postprocess postprocess(final Postprocess asked, final EngineTensor output, final String model,
        final Gpu gpu)
    {
        final long[] shape = output.shape();
        final boolean logits = "float32".equals(output.typeName()) && shape.length == 2 && shape[1] > 0;
        switch (asked.kind())
        {
            case AUTO:
                return logits && gpu.hasTopK() ? Postprocess.ARGMAX : Postprocess.NONE;
            case NONE:
                return asked;
            default:
                if (!logits)
                {
                    throw new IllegalArgumentException("postprocess=" + (asked.k() == 1 ? "argmax" : "topk:"
                        + asked.k()) + " needs float32 logits [N, classes], but model " + model + " has "
                        + output.describe() + "; use postprocess=none");
                }
                if (asked.k() > shape[1])
                {
                    throw new IllegalArgumentException("postprocess=topk:" + asked.k() + " but " + output.describe()
                        + " has only " + shape[1] + " classes");
                }
                if (!gpu.hasTopK())
                {
                    throw new IllegalArgumentException("postprocess=" + (asked.k() == 1 ? "argmax" : "topk:"
                        + asked.k()) + " needs the device kernel library: "
                        + org.jloadgen.bindings.CudaKernels.describe());
                }
                return asked;
        }
    }

    private Engine loadGiven(final Gpu gpu, final byte[] plan, final Path file)
    {
        engineSources.add("engine " + file);
        return backend.load(gpu, plan, file.toString());
    }

    private Engine buildOrLoad(final EngineCache cache, final Gpu gpu, final EngineSettings engine,
        final EngineTensor input, final boolean dynamic)
    {
        final int optBatch = engine.optBatch() > 0 ? Math.min(engine.optBatch(), settings.maxBatchSize())
            : settings.maxBatchSize();
        final EngineBuild build = new EngineBuild(engine.modelFile(), input.name(), dataset.sampleShape(),
            settings.maxBatchSize(), optBatch, dynamic ? settings.copyStreams() : 1, engine.fp16(), engine.int8(),
            engine.tf32(), engine.workspaceBytes(), engine.builderOptimizationLevel());
        if (console != null)
        {
            console.println("jloadgen: tensorrt: engine for GPU " + gpu.ordinal() + " (" + gpu.identity() + ")...");
        }
        EngineCache.Obtained obtained = cache.obtain(backend, gpu, build);
        Engine e;
        try
        {
            e = backend.load(gpu, obtained.plan(), obtained.file() != null ? obtained.file().toString()
                : "the engine just built");
        }
        catch (final DeviceException ex)
        {
            if (obtained.built())
            {
                throw ex;
            }
            // A cached plan from another TensorRT build or a damaged file: build it again.
            cache.evict(obtained);
            obtained = cache.obtain(backend, gpu, build);
            e = backend.load(gpu, obtained.plan(), String.valueOf(obtained.file()));
        }
        engineSources.add(obtained.description());
        if (console != null)
        {
            console.println("jloadgen: tensorrt: " + obtained.description());
        }
        return e;
    }

    private void checkProfiles(final Engine e, final EngineTensor input, final boolean dynamic, final String model)
    {
        if (dynamic && e.profiles() < settings.copyStreams())
        {
            throw new IllegalArgumentException("the engine of " + model + " has " + e.profiles()
                + " optimization profile" + (e.profiles() == 1 ? "" : "s") + " but copy-streams="
                + settings.copyStreams() + " needs one per execution context: lower copy-streams or build the "
                + "engine from the ONNX model");
        }
        for (int p = 0; p < e.profiles(); p++)
        {
            final long max = e.maxBatch(input.name(), p);
            if (max < settings.maxBatchSize())
            {
                throw new IllegalArgumentException("the engine of " + model + " takes batches of up to " + max
                    + " (profile " + p + ") but batch=" + settings.maxBatchSize());
            }
        }
    }

    private IoLayout layout(final Engine e, final EngineTensor input, final EngineTensor output)
    {
        final List<EngineTensor> engineTensors = e.tensors();
        final List<String> outputs = new ArrayList<>();
        final List<Long> rowBytes = new ArrayList<>();
        final long[] sampleShape = dataset.sampleShape();
        final org.jloadgen.sut.tensorrt.device.DeviceStream stream = gpus.get(gpus.size() - 1).newStream();
        try (ExecutionContext probe = e.newContext(0, stream))
        {
            probe.prepare(input.name(), sampleShape);
            probe.setBatch(1);
            for (final EngineTensor t : engineTensors)
            {
                if (t.input())
                {
                    continue;
                }
                final long[] shape = probe.shape(t.name());
                long bytes = t.elementBytes();
                for (int i = 1; i < shape.length; i++)
                {
                    if (shape[i] < 0)
                    {
                        throw new IllegalArgumentException(t.describe() + " has a data-dependent shape "
                            + Arrays.toString(shape) + "; the tensorrt SUT needs outputs whose size the batch "
                            + "decides");
                    }
                    bytes = Math.multiplyExact(bytes, shape[i]);
                }
                if (bytes <= 0)
                {
                    throw new IllegalArgumentException(t.describe() + ": sub-byte or empty outputs are not "
                        + "supported");
                }
                outputs.add(t.name());
                rowBytes.add(bytes);
            }
        }
        finally
        {
            stream.close();
        }
        final int returned = outputs.indexOf(output.name());
        final int classes = output.shape().length == 2 ? (int)output.shape()[1] : 0;
        final Postprocess post = settings.postprocess();
        final int k = post.kind() == Postprocess.Kind.TOPK ? post.k() : 0;
        final ClassificationAccuracy.DataType accuracy = k == 1 ? ClassificationAccuracy.DataType.INT32
            : k > 1 ? ClassificationAccuracy.DataType.INT32_RANKED : rawType(output);
        return new IoLayout(input.name(), sampleShape, dataset.sampleBytes(), outputs,
            rowBytes.stream().mapToLong(Long::longValue).toArray(), returned, k, classes, accuracy);
    }

    private static ClassificationAccuracy.DataType rawType(final EngineTensor output)
    {
        final DType t = output.dtype();
        if (DType.FLOAT32.equals(t))
        {
            return ClassificationAccuracy.DataType.FLOAT32;
        }
        if (DType.INT32.equals(t))
        {
            return ClassificationAccuracy.DataType.INT32;
        }
        if (DType.INT64.equals(t))
        {
            return ClassificationAccuracy.DataType.INT64;
        }
        return ClassificationAccuracy.DataType.AUTO;
    }

    void closeAll()
    {
        TensorRtSut.closeInOrder(opened);
    }
}
