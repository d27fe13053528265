package org.jloadgen.sut.cpu;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.TestScenario;
import org.jloadgen.sut.DatasetDescriptor;
import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;

/**
 * The options of {@code --sut cpu}: {@code --model-file}, {@code --dataset}, {@code --labels},
 * {@code --descriptor} and {@code --sut-opt key=value}, merged in that order of precedence: command-line values
 * win over the descriptor's. A descriptor is a text file of {@code key = value} lines with the same keys, {@code #}
 * starting a comment line; its relative paths are relative to its own folder. Without a model, dataset or
 * descriptor the SUT runs the embedded Fashion-MNIST model ({@link FashionMnist}).
 * <p>
 * Keys (all optional but {@code model-file} and {@code dataset}, see {@code sut-cpu/README.md}):
 * model and data: {@value #MODEL_FILE}, {@value #DATASET}, {@value #LABELS}, {@value #INPUT}, {@value #OUTPUT},
 * {@value #DTYPE}, {@value #SAMPLE_SHAPE}, {@value #HEADER_BYTES}, {@value #SAMPLE_COUNT}, {@value #FILES},
 * {@value #PERFORMANCE_COUNT}, {@value #PLACEMENT}, {@value #LABEL_OFFSET}, {@value #PREPROCESSING},
 * {@value #NAME}, {@value #CACHE_DIR}; inference: {@value #BATCH}, {@value #TIMEOUT_US}, {@value #WORKERS},
 * {@value #INTRA_OP_THREADS}, {@value #ORT_SPINNING}, {@value #IDLE}, {@value #PIN}, {@value #QUEUE}.
 */
public final class CpuSutOptions
{
    /** The descriptor file. */
    public static final String DESCRIPTOR = SutOptions.DESCRIPTOR;
    /** The ONNX model. */
    public static final String MODEL_FILE = "model-file";
    /** The dataset: .npy, raw file or directory. */
    public static final String DATASET = DatasetDescriptor.DATASET;
    /** The labels. */
    public static final String LABELS = DatasetDescriptor.LABELS;
    /** Model input name. */
    public static final String INPUT = "input";
    /** Model output name. */
    public static final String OUTPUT = "output";
    /** Raw sample dtype. */
    public static final String DTYPE = DatasetDescriptor.DTYPE;
    /** Raw sample shape, e.g. {@code 3,224,224}. */
    public static final String SAMPLE_SHAPE = DatasetDescriptor.SAMPLE_SHAPE;
    /** Raw file header size. */
    public static final String HEADER_BYTES = DatasetDescriptor.HEADER_BYTES;
    /** Raw file sample count. */
    public static final String SAMPLE_COUNT = DatasetDescriptor.SAMPLE_COUNT;
    /** Glob of the sample files in a dataset directory. */
    public static final String FILES = DatasetDescriptor.FILES;
    /** QSL performance sample count. */
    public static final String PERFORMANCE_COUNT = DatasetDescriptor.PERFORMANCE_COUNT;
    /** {@code copy} or {@code mapped}. */
    public static final String PLACEMENT = DatasetDescriptor.PLACEMENT;
    /** Added to every label. */
    public static final String LABEL_OFFSET = DatasetDescriptor.LABEL_OFFSET;
    /** What was done to the samples already. */
    public static final String PREPROCESSING = DatasetDescriptor.PREPROCESSING;
    /** The SUT name. */
    public static final String NAME = "name";
    /** Where the embedded model is extracted. */
    public static final String CACHE_DIR = "cache-dir";
    /** Maximum batch size. */
    public static final String BATCH = "batch";
    /** Batch timeout in microseconds. */
    public static final String TIMEOUT_US = "timeout-us";
    /** Worker threads. */
    public static final String WORKERS = "workers";
    /** ONNX Runtime intra-op threads. */
    public static final String INTRA_OP_THREADS = "intra-op-threads";
    /** ONNX Runtime thread-pool spinning. */
    public static final String ORT_SPINNING = "ort-spinning";
    /** Worker idle strategy. */
    public static final String IDLE = "idle";
    /** CPUs to pin workers to. */
    public static final String PIN = "pin";
    /** Batcher queue capacity in samples. */
    public static final String QUEUE = "queue";

    /** Per-scenario defaults, in words. */
    private static final String PER_SCENARIO = "per scenario: ";
    /** The options of the model and its data (not allowed with the embedded model). */
    private static final List<SutOption> MODEL_OPTIONS = List.of(
        new SutOption(MODEL_FILE, SutOption.PATH, "the embedded Fashion-MNIST MLP", "The ONNX model (also "
            + "--model-file)."),
        new SutOption(INPUT, "text", "the model's only input", "Name of the model input the samples feed."),
        new SutOption(OUTPUT, "text", "the model's first output", "Name of the model output returned as the "
            + "response (scored for top-1)."));
    /** The options of the inference: batching, threads, waits. */
    private static final List<SutOption> INFERENCE_OPTIONS = List.of(
        new SutOption(NAME, "text", "one made of the model file's name",
            "The SUT's name in the logs (sut_name)."),
        new SutOption(CACHE_DIR, SutOption.PATH, "$JLOADGEN_CACHE_DIR, else $XDG_CACHE_HOME/jloadgen, else "
            + "~/.cache/jloadgen", "Where the embedded model is extracted."),
        new SutOption(BATCH, "integer >= 1", PER_SCENARIO + "Offline and Server "
            + InferenceSettings.OFFLINE_BATCH_DEFAULT + ", MultiStream " + InferenceSettings.MULTI_STREAM_BATCH_DEFAULT
            + ", SingleStream 1", "Most samples per inference call (dynamic batching)."),
        new SutOption(TIMEOUT_US, "integer >= 0", PER_SCENARIO + "Server "
            + InferenceSettings.SERVER_TIMEOUT_US_DEFAULT + ", else 0", "How long the batcher waits for a batch to "
            + "fill, in us."),
        new SutOption(WORKERS, "integer >= 1", PER_SCENARIO + "Offline and Server " + InferenceSettings.WORKERS_DEFAULT
            + ", else 1", "Worker threads, each running inference calls."),
        new SutOption(INTRA_OP_THREADS, "integer >= 1", "1", "ONNX Runtime threads per inference call."),
        new SutOption(ORT_SPINNING, "true|false", "false", "Let ONNX Runtime's thread pool spin between calls."),
        new SutOption(IDLE, "auto|spin|park|yield|backoff|sleep", "auto", "How an idle worker waits for a batch: "
            + "auto spins where a CPU is free for it, else parks."),
        new SutOption(PIN, "CPU list (0-3,8), all or none", "none", "CPUs to pin the workers to, one each in turn."),
        new SutOption(QUEUE, "power of two >= batch", Integer.toString(InferenceSettings.QUEUE_CAPACITY_DEFAULT),
            "Samples the batcher can queue."));
    /** Every option, for {@code run --sut cpu --help}. */
    static final List<SutOption> OPTIONS = concat(MODEL_OPTIONS, DatasetDescriptor.OPTIONS, INFERENCE_OPTIONS);
    /** The keys that describe the model and its data (not allowed with the embedded model). */
    private static final Set<String> DATA_KEYS = union(DatasetDescriptor.KEYS, SutOption.keys(MODEL_OPTIONS));
    private static final Set<String> KNOWN_KEYS = SutOption.keys(OPTIONS);
    private static final Set<String> PATH_KEYS = SutOption.pathKeys(OPTIONS);

    private final ModelDescriptor model;
    private final InferenceSettings inference;
    private final boolean batchGiven;
    private final String sutName;
    private final Path cacheDir;

    private CpuSutOptions(final ModelDescriptor model, final InferenceSettings inference, final boolean batchGiven,
        final String sutName, final Path cacheDir)
    {
        this.model = model;
        this.inference = inference;
        this.batchGiven = batchGiven;
        this.sutName = sutName;
        this.cacheDir = cacheDir;
    }

    /**
     * @param options  the command line's options (named flags and {@code --sut-opt} pairs).
     * @param scenario the scenario, for the inference defaults.
     * @return the parsed options.
     * @throws IllegalArgumentException naming the bad key, value, file or line.
     */
    public static CpuSutOptions parse(final Map<String, String> options, final TestScenario scenario)
    {
        return fromOptions(SutOptions.parse(CpuSutProvider.NAME, options, KNOWN_KEYS, PATH_KEYS), scenario);
    }

    /**
     * Reads a descriptor file.
     *
     * @param file the descriptor.
     * @return its keys and values in file order; paths made absolute against the file's folder.
     * @throws IllegalArgumentException naming the file and line of a bad, repeated or unknown key.
     */
    public static Map<String, String> readDescriptor(final Path file)
    {
        return SutOptions.readDescriptor(file, CpuSutProvider.NAME, KNOWN_KEYS, PATH_KEYS);
    }

    private static CpuSutOptions fromOptions(final SutOptions o, final TestScenario scenario)
    {
        final InferenceSettings d = InferenceSettings.defaults(scenario);
        final InferenceSettings inference = new InferenceSettings(
            o.intValue(BATCH, d.maxBatchSize()),
            o.longValue(TIMEOUT_US, d.batchTimeoutUs()),
            o.intValue(WORKERS, d.workers()),
            o.intValue(INTRA_OP_THREADS, d.intraOpThreads()),
            o.bool(ORT_SPINNING, d.ortSpinning()),
            o.idle(IDLE, d.workerIdle()),
            o.cpus(PIN, d.workerCpus()),
            o.intValue(QUEUE, d.queueCapacity()));
        final Path cacheDir = o.path(CACHE_DIR);
        final boolean embedded = !o.has(MODEL_FILE) && !o.has(DATASET);
        if (embedded)
        {
            for (final String key : o.keys())
            {
                if (DATA_KEYS.contains(key))
                {
                    throw new IllegalArgumentException("'" + key + "' needs --model-file and --dataset; without them "
                        + "the cpu SUT runs its embedded Fashion-MNIST model, which takes no data options");
                }
            }
            return new CpuSutOptions(null, inference, o.has(BATCH), o.string(NAME), cacheDir);
        }
        final Path modelFile = o.path(MODEL_FILE);
        if (modelFile == null)
        {
            throw new IllegalArgumentException("the cpu SUT needs a model: --model-file FILE.onnx (or model-file in "
                + "a --descriptor)");
        }
        final ModelDescriptor model = new ModelDescriptor(o.string(NAME), modelFile, o.string(INPUT),
            o.string(OUTPUT), DatasetDescriptor.fromOptions(o, "the cpu SUT needs a dataset for " + modelFile));
        return new CpuSutOptions(model, inference, o.has(BATCH), o.string(NAME), cacheDir);
    }

    /**
     * @return the model and data, or {@code null} for the embedded Fashion-MNIST model.
     */
    public ModelDescriptor model()
    {
        return model;
    }

    /**
     * @return batching, workers and threads.
     */
    public InferenceSettings inference()
    {
        return inference;
    }

    /**
     * @return whether {@code batch} was given (a model with a fixed batch axis of 1 may lower the default).
     */
    public boolean batchGiven()
    {
        return batchGiven;
    }

    /**
     * @return the {@code name} option, or {@code null}.
     */
    public String sutName()
    {
        return sutName;
    }

    /**
     * @return the {@code cache-dir} option, or {@code null} for {@link FashionMnist#defaultCacheDir()}.
     */
    public Path cacheDir()
    {
        return cacheDir;
    }

    /**
     * @param text e.g. {@code 3,224,224}, {@code 3x224x224}, {@code [3, 224, 224]} or {@code (3,224,224)}.
     * @return the dimensions.
     * @throws IllegalArgumentException for a negative or non-numeric dimension.
     */
    static long[] shape(final String text)
    {
        return SutOptions.parseShape(text);
    }

    @SafeVarargs
    private static List<SutOption> concat(final List<SutOption>... lists)
    {
        final List<SutOption> all = new ArrayList<>();
        for (final List<SutOption> list : lists)
        {
            all.addAll(list);
        }
        return List.copyOf(all);
    }

    private static Set<String> union(final Set<String> a, final Set<String> b)
    {
        final Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
