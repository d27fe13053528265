package org.jloadgen.sut.tensorrt;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.TestScenario;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.sut.CacheDirectory;
import org.jloadgen.sut.DatasetDescriptor;
import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;

/**
 * The options of {@code --sut tensorrt} ({@code sut-tensorrt/README.md} documents each): {@code --model-file},
 * {@code --dataset}, {@code --labels}, {@code --descriptor} and {@code --sut-opt key=value}, typed by the toolkit's
 * {@link SutOptions} (a bad value names the option, the value, the type expected and where it came from).
 */
public final class TensorRtOptions
{
    /** The ONNX model. */
    public static final String MODEL_FILE = "model-file";
    /** A serialized engine to load instead of building one. */
    public static final String ENGINE = "engine";
    /** The input fed with samples. */
    public static final String INPUT = "input";
    /** The output returned. */
    public static final String OUTPUT = "output";
    /** The SUT name. */
    public static final String NAME = "name";
    /** {@code cuda}, {@code tensorrt}, {@code cublas}, {@code cublas-simulated} or {@code simulated}. */
    public static final String BACKEND = "backend";
    /** GPUs to use: {@code all} or ordinals. */
    public static final String GPUS = "gpus";
    /** Largest batch. */
    public static final String BATCH = "batch";
    /** Batch timeout in microseconds. */
    public static final String TIMEOUT_US = "timeout-us";
    /** Batcher queue capacity. */
    public static final String QUEUE = "queue";
    /** How issue threads wait. */
    public static final String IDLE = "idle";
    /** CPUs for the issue threads. */
    public static final String PIN = "pin";
    /** Issue threads per GPU. */
    public static final String ISSUE_THREADS = "issue-threads";
    /** Copy streams per GPU. */
    public static final String COPY_STREAMS = "copy-streams";
    /** Inference streams per GPU. */
    public static final String INFER_STREAMS = "infer-streams";
    /** CUDA graph batch sizes. */
    public static final String GRAPHS = "graphs";
    /** Copy the loaded samples to the devices at load time. */
    public static final String START_FROM_DEVICE = "start-from-device";
    /** Device post-processing. */
    public static final String POSTPROCESS = "postprocess";
    /** {@code copy} or {@code on-demand}. */
    public static final String RAW_OUTPUTS = "raw-outputs";
    /** Warm-up inferences per batch size. */
    public static final String WARMUP = "warmup";
    /** How completion threads wait. */
    public static final String COMPLETION_WAIT = "completion-wait";
    /** Time the device stages with events. */
    public static final String STAGE_TIMES = "stage-times";
    /** FP16 kernels. */
    public static final String FP16 = "fp16";
    /** INT8 kernels (Q/DQ models). */
    public static final String INT8 = "int8";
    /** TF32 for FP32 math. */
    public static final String TF32 = "tf32";
    /** Workspace limit. */
    public static final String WORKSPACE = "workspace";
    /** Builder optimization level. */
    public static final String BUILDER_OPT_LEVEL = "builder-opt-level";
    /** Batch size the profiles are tuned for. */
    public static final String OPT_BATCH = "opt-batch";
    /** Engine cache folder or {@code off}. */
    public static final String ENGINE_CACHE = "engine-cache";
    /** Simulated devices. */
    public static final String SIM_DEVICES = "sim-devices";
    /** Simulated model input. */
    public static final String SIM_INPUT = "sim-input";
    /** Simulated classes. */
    public static final String SIM_CLASSES = "sim-classes";
    /** Simulated copy bandwidth. */
    public static final String SIM_COPY_GBPS = "sim-copy-gbps";
    /** Simulated inference time. */
    public static final String SIM_INFER_US = "sim-infer-us";
    /** Simulated inference time per sample. */
    public static final String SIM_INFER_US_PER_SAMPLE = "sim-infer-us-per-sample";
    /** Simulated enqueue time. */
    public static final String SIM_ENQUEUE_US = "sim-enqueue-us";
    /** Simulated graph launch time. */
    public static final String SIM_GRAPH_LAUNCH_US = "sim-graph-launch-us";
    /** Simulated failure. */
    public static final String SIM_FAIL_AFTER = "sim-fail-after";

    /** Every option, with its type, default and meaning ({@code run --sut tensorrt --help}). */
    public static final List<SutOption> OPTIONS = options();
    /** Every key. */
    public static final Set<String> KEYS = SutOption.keys(OPTIONS);
    private static final Set<String> PATH_KEYS = union(DatasetDescriptor.PATH_KEYS,
        Set.of(MODEL_FILE, ENGINE, ENGINE_CACHE));

    /** Options only TensorRT builds or loads engines with. */
    public static final List<String> TENSORRT_ONLY_KEYS = List.of(ENGINE, FP16, INT8, WORKSPACE, BUILDER_OPT_LEVEL);

    /** The backends. */
    public enum Backend
    {
        /** {@code cuda}: TensorRT where it is installed, else the cuBLAS backend (dense-chain models). */
        CUDA,
        /** {@code tensorrt}: CUDA and TensorRT through JavaCPP, nothing else. */
        TENSORRT,
        /** {@code cublas}: dense-chain ONNX models on cuBLAS and the project's kernels, no TensorRT. */
        CUBLAS,
        /** {@code cublas-simulated}: the cublas backend's host logic on the simulated device. */
        CUBLAS_SIMULATED,
        /** {@code simulated}: the in-JVM simulated device. */
        SIMULATED;

        /**
         * @return whether this backend runs on the simulated device.
         */
        public boolean simulated()
        {
            return this == SIMULATED || this == CUBLAS_SIMULATED;
        }
    }

    private final String sutName;
    private final Backend backend;
    private final int[] gpus;
    private final DatasetDescriptor dataset;
    private final EngineSettings engine;
    private final PipelineSettings pipeline;
    private final boolean batchGiven;
    private final SimulationSettings simulation;
    private final List<String> tensorRtOnly;

    private TensorRtOptions(final String sutName, final Backend backend, final int[] gpus,
        final DatasetDescriptor dataset, final EngineSettings engine, final PipelineSettings pipeline,
        final boolean batchGiven, final SimulationSettings simulation, final List<String> tensorRtOnly)
    {
        this.tensorRtOnly = tensorRtOnly;
        this.sutName = sutName;
        this.backend = backend;
        this.gpus = gpus;
        this.dataset = dataset;
        this.engine = engine;
        this.pipeline = pipeline;
        this.batchGiven = batchGiven;
        this.simulation = simulation;
    }

    /**
     * @param options  the command line's options (named flags and {@code --sut-opt} pairs).
     * @param scenario the scenario, for the defaults.
     * @return the parsed options.
     * @throws IllegalArgumentException naming the bad option, value, file or line.
     */
    public static TensorRtOptions parse(final Map<String, String> options, final TestScenario scenario)
    {
        final SutOptions o = SutOptions.parse(TensorRtSutProvider.NAME, options, KEYS, PATH_KEYS);
        final PipelineSettings d = PipelineSettings.defaults(scenario);
        final String postprocess = o.string(POSTPROCESS);
        final String rawOutputs = o.string(RAW_OUTPUTS, "copy").strip().toLowerCase(Locale.ROOT);
        if (!rawOutputs.equals("copy") && !rawOutputs.equals("on-demand"))
        {
            throw o.invalid(RAW_OUTPUTS, "copy or on-demand", null);
        }
        final String graphs = o.string(GRAPHS, d.graphs());
        final int batch = o.intValue(BATCH, d.maxBatchSize());
        try
        {
            PipelineSettings.graphSizes(batch, graphs);
        }
        catch (final IllegalArgumentException ex)
        {
            throw o.invalid(GRAPHS, "auto, none or batch sizes from 1 to the batch (" + batch + ") such as 1,8,64", ex);
        }
        final PipelineSettings pipeline = new PipelineSettings(
            batch,
            o.longValue(TIMEOUT_US, d.batchTimeoutUs()),
            o.intValue(QUEUE, d.queueCapacity()),
            o.idle(IDLE, d.issueIdle()),
            o.cpus(PIN, d.issueCpus()),
            o.intValue(ISSUE_THREADS, d.issueThreads()),
            o.intValue(COPY_STREAMS, d.copyStreams()),
            o.intValue(INFER_STREAMS, d.inferStreams()),
            graphs,
            o.bool(START_FROM_DEVICE, d.startFromDevice()),
            postprocess == null ? d.postprocess() : postprocess(o, postprocess),
            rawOutputs.equals("on-demand"),
            o.intValue(WARMUP, d.warmupIterations()),
            completionWait(o, d.completionWait()),
            o.bool(STAGE_TIMES, d.stageTimes()));
        final String cache = o.string(ENGINE_CACHE);
        final Path cacheDir = cache == null ? CacheDirectory.root().resolve("tensorrt")
            : cache.strip().equalsIgnoreCase("off") ? null : o.path(ENGINE_CACHE);
        final EngineSettings engine = new EngineSettings(o.path(MODEL_FILE), o.path(ENGINE), o.string(INPUT),
            o.string(OUTPUT), o.bool(FP16, false), o.bool(INT8, false), o.bool(TF32, true), o.bytes(WORKSPACE, 0),
            o.intValue(BUILDER_OPT_LEVEL, -1), o.intValue(OPT_BATCH, 0), cacheDir);
        final DatasetDescriptor dataset = DatasetDescriptor.fromOptions(o, "the tensorrt SUT needs a dataset for "
            + engine.source());
        if (dataset.placement() != SampleStore.Placement.COPY)
        {
            throw o.invalid(DatasetDescriptor.PLACEMENT, "copy (the tensorrt SUT copies batches from one pinned "
                + "slab)", null);
        }
        final Backend backend = backend(o);
        if (!backend.simulated())
        {
            for (final String key : o.keys())
            {
                if (key.startsWith("sim-"))
                {
                    throw new IllegalArgumentException(key + " applies to backend=simulated only (" + o.origin(key)
                        + ")");
                }
            }
        }
        final List<String> tensorRtOnly = TENSORRT_ONLY_KEYS.stream().filter(o::has).toList();
        if ((backend == Backend.CUBLAS || backend == Backend.CUBLAS_SIMULATED) && !tensorRtOnly.isEmpty())
        {
            throw new IllegalArgumentException(tensorRtOnly.get(0) + " applies to the TensorRT backend only, not to "
                + "backend=" + o.string(BACKEND).strip() + " (" + o.origin(tensorRtOnly.get(0)) + ")");
        }
        return new TensorRtOptions(o.string(NAME), backend, gpus(o), dataset, engine, pipeline, o.has(BATCH),
            simulation(o), tensorRtOnly);
    }

    private static Postprocess postprocess(final SutOptions o, final String value)
    {
        try
        {
            return Postprocess.parse(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw o.invalid(POSTPROCESS, "auto, none, argmax or topk:K (K from 1 to 64)", ex);
        }
    }

    private static CompletionWait completionWait(final SutOptions o, final CompletionWait fallback)
    {
        final String v = o.string(COMPLETION_WAIT);
        if (v == null)
        {
            return fallback;
        }
        try
        {
            return CompletionWait.valueOf(v.strip().toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw o.invalid(COMPLETION_WAIT, "spin, yield, backoff, sleep or block", ex);
        }
    }

    private static Backend backend(final SutOptions o)
    {
        final String v = o.string(BACKEND, "cuda").strip().toLowerCase(Locale.ROOT);
        return switch (v)
        {
            case "cuda" -> Backend.CUDA;
            case "tensorrt" -> Backend.TENSORRT;
            case "cublas" -> Backend.CUBLAS;
            case "cublas-simulated" -> Backend.CUBLAS_SIMULATED;
            case "simulated" -> Backend.SIMULATED;
            default -> throw o.invalid(BACKEND, "cuda, tensorrt, cublas, cublas-simulated or simulated", null);
        };
    }

    private static int[] gpus(final SutOptions o)
    {
        final String v = o.string(GPUS, "all").strip();
        if (v.equalsIgnoreCase("all"))
        {
            return null;
        }
        final int[] list;
        try
        {
            list = java.util.Arrays.stream(v.split("\\s*,\\s*")).mapToInt(Integer::parseInt).distinct().toArray();
        }
        catch (final NumberFormatException ex)
        {
            throw o.invalid(GPUS, "all or device ordinals such as 0,1", ex);
        }
        if (list.length == 0 || java.util.Arrays.stream(list).anyMatch(g -> g < 0))
        {
            throw o.invalid(GPUS, "all or device ordinals such as 0,1", null);
        }
        return list;
    }

    private static SimulationSettings simulation(final SutOptions o)
    {
        final SimulationSettings d = SimulationSettings.DEFAULT;
        DType inputType = d.inputType();
        long[] inputShape = d.inputShape();
        final String input = o.string(SIM_INPUT);
        if (input != null)
        {
            final int colon = input.indexOf(':');
            try
            {
                inputType = DType.parse(input.substring(0, colon).strip());
                inputShape = SutOptions.parseShape(input.substring(colon + 1));
            }
            catch (final IllegalArgumentException | StringIndexOutOfBoundsException ex)
            {
                throw o.invalid(SIM_INPUT, "DTYPE:SHAPE such as uint8:1x28x28 or float32:3,224,224", ex);
            }
        }
        final double gbps;
        try
        {
            gbps = Double.parseDouble(o.string(SIM_COPY_GBPS, "0").strip());
        }
        catch (final NumberFormatException ex)
        {
            throw o.invalid(SIM_COPY_GBPS, "a bandwidth in GB/s such as 25", ex);
        }
        if (!(gbps >= 0))
        {
            throw o.invalid(SIM_COPY_GBPS, "a bandwidth in GB/s such as 25", null);
        }
        return new SimulationSettings(
            o.intValue(SIM_DEVICES, d.devices()),
            inputType,
            inputShape,
            o.intValue(SIM_CLASSES, d.classes()),
            gbps * 1_000,
            o.longValue(SIM_INFER_US, 0) * 1_000,
            o.longValue(SIM_INFER_US_PER_SAMPLE, 0) * 1_000,
            o.longValue(SIM_ENQUEUE_US, 0) * 1_000,
            o.longValue(SIM_GRAPH_LAUNCH_US, 0) * 1_000,
            o.longValue(SIM_FAIL_AFTER, 0));
    }

    private static List<SutOption> options()
    {
        final List<SutOption> options = new ArrayList<>(List.of(
        new SutOption(MODEL_FILE, SutOption.PATH, "",
            "The ONNX model (also --model-file); required unless engine."),
        new SutOption(ENGINE, SutOption.PATH, "",
            "A serialized TensorRT engine to load instead of building one."),
        new SutOption(INPUT, "text", "the model's only input",
            "The input tensor the samples feed."),
        new SutOption(OUTPUT, "text", "the model's first output",
            "The output tensor returned as the response."),
        new SutOption(NAME, "text", "TensorRT(<model file>)",
            "The SUT's name in the logs (sut_name)."),
        new SutOption(BACKEND, "cuda|simulated", "cuda",
            "cuda runs on the GPUs; simulated runs the same pipeline without a GPU (the sim-* options)."),
        new SutOption(GPUS, "all or ordinals (0,2)", "all",
            "The GPUs to use."),
        new SutOption(BATCH, "integer >= 1", "see sut-tensorrt/README.md, Defaults",
            "Largest batch (a fixed batch axis of 1 forces 1)."),
        new SutOption(TIMEOUT_US, "integer >= 0", "see sut-tensorrt/README.md, Defaults",
            "Cut a batch this long after its first sample, in us."),
        new SutOption(QUEUE, "power of two", "65536",
            "Samples the batcher queues."),
        new SutOption(IDLE, "spin|yield|backoff|sleep", "see sut-tensorrt/README.md, Defaults",
            "How the issue threads wait for samples or a free slot."),
        new SutOption(PIN, "CPU list (0-3), all or none", "none",
            "CPUs for the issue threads, round-robin."),
        new SutOption(ISSUE_THREADS, "integer >= 1", "1",
            "Issue threads per GPU."),
        new SutOption(COPY_STREAMS, "integer >= 1", "see sut-tensorrt/README.md, Defaults",
            "Slots per GPU: batches in flight, each with its own stream, context and buffers."),
        new SutOption(INFER_STREAMS, "integer 1..copy-streams", "1",
            "Inference streams per GPU."),
        new SutOption(GRAPHS, "auto|none|list of batch sizes", "see sut-tensorrt/README.md, Defaults",
            "CUDA graph batch sizes: auto is the powers of two up to batch, and batch."),
        new SutOption(START_FROM_DEVICE, "true|false", "false",
            "Copy the loaded set to each GPU at load time."),
        new SutOption(POSTPROCESS, "auto|argmax|topk:K|none", "auto",
            "auto: argmax for float32 [N, classes] when libjlg_cuda.so is loaded, else none; topk:K for K in "
            + "1..64 (the accuracy report takes the first id)."),
        new SutOption(RAW_OUTPUTS, "copy|on-demand", "copy",
            "With postprocess=none: copy every row back, or only the rows the accuracy log takes."),
        new SutOption(WARMUP, "integer >= 0", "3",
            "Inferences per batch size and slot before the test."),
        new SutOption(COMPLETION_WAIT, "spin|yield|backoff|sleep|block", "see sut-tensorrt/README.md, Defaults",
            "How completion threads wait: poll the events, or block in cudaEventSynchronize on blocking-sync events."),
        new SutOption(STAGE_TIMES, "true|false", "true",
            "Time H2D, inference and D2H with CUDA events (sut_stats.txt)."),
        new SutOption(FP16, "true|false", "false",
            "Allow FP16 kernels."),
        new SutOption(INT8, "true|false", "false",
            "Allow INT8 kernels (a Q/DQ-quantized model)."),
        new SutOption(TF32, "true|false", "true",
            "Allow TF32 for FP32 math (false gives results closest to a CPU runtime)."),
        new SutOption(WORKSPACE, "size (4GiB, 512MB)", "TensorRT's",
            "TensorRT's workspace limit."),
        new SutOption(BUILDER_OPT_LEVEL, "integer 0..5", "3 (TensorRT's)",
            "TensorRT's builder optimization level."),
        new SutOption(OPT_BATCH, "integer >= 1", "batch",
            "Batch size the optimization profiles are tuned for."),
        new SutOption(ENGINE_CACHE, "path or off", "$JLOADGEN_CACHE_DIR/tensorrt, else ~/.cache/jloadgen/tensorrt",
            "Folder of built engines, or off."),
        new SutOption(SIM_DEVICES, "integer >= 1", "1",
            "backend=simulated: simulated GPUs."),
        new SutOption(SIM_INPUT, "DTYPE:SHAPE", "uint8:1x28x28",
            "backend=simulated: the simulated model input."),
        new SutOption(SIM_CLASSES, "integer >= 1", "10",
            "backend=simulated: float32 logits per sample."),
        new SutOption(SIM_COPY_GBPS, "number >= 0", "0 (instant)",
            "backend=simulated: copy bandwidth in GB/s."),
        new SutOption(SIM_INFER_US, "integer >= 0", "0",
            "backend=simulated: device time of an inference, in us."),
        new SutOption(SIM_INFER_US_PER_SAMPLE, "integer >= 0", "0",
            "backend=simulated: device time added per sample, in us."),
        new SutOption(SIM_ENQUEUE_US, "integer >= 0", "0",
            "backend=simulated: host time of an enqueue, in us."),
        new SutOption(SIM_GRAPH_LAUNCH_US, "integer >= 0", "0",
            "backend=simulated: host time of a graph launch, in us."),
        new SutOption(SIM_FAIL_AFTER, "integer >= 0", "0 (never)",
            "backend=simulated: fail the device after this many inferences (warm-up included).")));
        // The dataset's keys, as the cpu SUT reads them; placement is copy only here.
        for (final SutOption o : DatasetDescriptor.OPTIONS)
        {
            options.add(!o.key().equals(DatasetDescriptor.PLACEMENT) ? o : new SutOption(o.key(), "copy", "copy",
                "Batches are copied from one pinned slab."));
        }
        return List.copyOf(options);
    }

    private static Set<String> union(final Set<String> a, final Set<String> b)
    {
        final Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /**
     * @return the {@code name} option, or {@code null}.
     */
    public String sutName()
    {
        return sutName;
    }

    /**
     * @return the device backend.
     */
    public Backend backend()
    {
        return backend;
    }

    /**
     * @return the GPU ordinals to use, or {@code null} for all.
     */
    public int[] gpus()
    {
        return gpus == null ? null : gpus.clone();
    }

    /**
     * @return the dataset and labels.
     */
    public DatasetDescriptor dataset()
    {
        return dataset;
    }

    /**
     * @return the engine's source and build settings.
     */
    public EngineSettings engine()
    {
        return engine;
    }

    /**
     * @return batching and the per-GPU pipeline.
     */
    public PipelineSettings pipeline()
    {
        return pipeline;
    }

    /**
     * @return whether {@code batch} was given (a fixed batch axis may lower the default silently, not a given one).
     */
    public boolean batchGiven()
    {
        return batchGiven;
    }

    /**
     * @return the TensorRT-only options given ({@link #TENSORRT_ONLY_KEYS}), which keep {@code backend=cuda} from
     *         falling back to the cublas backend.
     */
    public List<String> tensorRtOnly()
    {
        return tensorRtOnly;
    }

    /**
     * @return the simulated device's settings.
     */
    public SimulationSettings simulation()
    {
        return simulation;
    }
}
