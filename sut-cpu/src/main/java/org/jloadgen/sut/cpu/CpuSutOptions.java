package org.jloadgen.sut.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.ThreadAffinity;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;

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
    public static final String DESCRIPTOR = "descriptor";
    /** The ONNX model. */
    public static final String MODEL_FILE = "model-file";
    /** The dataset: .npy, raw file or directory. */
    public static final String DATASET = "dataset";
    /** The labels. */
    public static final String LABELS = "labels";
    /** Model input name. */
    public static final String INPUT = "input";
    /** Model output name. */
    public static final String OUTPUT = "output";
    /** Raw sample dtype. */
    public static final String DTYPE = "dtype";
    /** Raw sample shape, e.g. {@code 3,224,224}. */
    public static final String SAMPLE_SHAPE = "sample-shape";
    /** Raw file header size. */
    public static final String HEADER_BYTES = "header-bytes";
    /** Raw file sample count. */
    public static final String SAMPLE_COUNT = "sample-count";
    /** Glob of the sample files in a dataset directory. */
    public static final String FILES = "files";
    /** QSL performance sample count. */
    public static final String PERFORMANCE_COUNT = "performance-count";
    /** {@code copy} or {@code mapped}. */
    public static final String PLACEMENT = "placement";
    /** Added to every label. */
    public static final String LABEL_OFFSET = "label-offset";
    /** What was done to the samples already. */
    public static final String PREPROCESSING = "preprocessing";
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

    private static final Set<String> DATA_KEYS = Set.of(MODEL_FILE, DATASET, LABELS, INPUT, OUTPUT, DTYPE,
        SAMPLE_SHAPE, HEADER_BYTES, SAMPLE_COUNT, FILES, PERFORMANCE_COUNT, PLACEMENT, LABEL_OFFSET, PREPROCESSING);
    private static final Set<String> OTHER_KEYS = Set.of(NAME, CACHE_DIR, BATCH, TIMEOUT_US, WORKERS,
        INTRA_OP_THREADS, ORT_SPINNING, IDLE, PIN, QUEUE);
    private static final Set<String> PATH_KEYS = Set.of(MODEL_FILE, DATASET, LABELS, CACHE_DIR);

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
        final Map<String, String> merged = new LinkedHashMap<>();
        final String descriptor = options.get(DESCRIPTOR);
        if (descriptor != null)
        {
            merged.putAll(readDescriptor(Path.of(descriptor)));
        }
        for (final Map.Entry<String, String> e : options.entrySet())
        {
            if (!e.getKey().equals(DESCRIPTOR))
            {
                requireKnown(e.getKey(), "--sut-opt " + e.getKey());
                merged.put(e.getKey(), e.getValue());
            }
        }
        return fromMap(merged, scenario);
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
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IllegalArgumentException("descriptor not found: " + file, ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read descriptor " + file + ": " + ex.getMessage(), ex);
        }
        final Path folder = file.toAbsolutePath().getParent();
        final Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String where = file + ":" + (i + 1);
            final int eq = line.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException(where + ": expected 'key = value', got '" + line + "'");
            }
            final String key = line.substring(0, eq).strip();
            final String value = line.substring(eq + 1).strip();
            if (key.equals(DESCRIPTOR))
            {
                throw new IllegalArgumentException(where + ": a descriptor cannot name another descriptor");
            }
            requireKnown(key, where + ": key '" + key + "'");
            if (values.containsKey(key))
            {
                throw new IllegalArgumentException(where + ": '" + key + "' is given twice");
            }
            values.put(key, PATH_KEYS.contains(key) && !value.isEmpty() ? folder.resolve(value).normalize().toString()
                : value);
        }
        return values;
    }

    private static void requireKnown(final String key, final String what)
    {
        if (!DATA_KEYS.contains(key) && !OTHER_KEYS.contains(key))
        {
            final List<String> known = new ArrayList<>(DATA_KEYS);
            known.addAll(OTHER_KEYS);
            known.sort(null);
            throw new IllegalArgumentException(what + " is not a cpu SUT option; known: " + String.join(", ", known));
        }
    }

    private static CpuSutOptions fromMap(final Map<String, String> o, final TestScenario scenario)
    {
        final InferenceSettings d = InferenceSettings.defaults(scenario);
        final String idle = o.get(IDLE);
        final InferenceSettings inference = new InferenceSettings(
            (int)integer(o, BATCH, d.maxBatchSize()),
            integer(o, TIMEOUT_US, d.batchTimeoutUs()),
            (int)integer(o, WORKERS, d.workers()),
            (int)integer(o, INTRA_OP_THREADS, d.intraOpThreads()),
            bool(o, ORT_SPINNING, d.ortSpinning()),
            idle == null ? d.workerIdle() : idleStrategy(idle),
            o.containsKey(PIN) ? cpus(o.get(PIN)) : d.workerCpus(),
            (int)integer(o, QUEUE, d.queueCapacity()));
        final Path cacheDir = o.containsKey(CACHE_DIR) ? Path.of(o.get(CACHE_DIR)) : null;
        final boolean embedded = !o.containsKey(MODEL_FILE) && !o.containsKey(DATASET);
        if (embedded)
        {
            for (final String key : o.keySet())
            {
                if (DATA_KEYS.contains(key))
                {
                    throw new IllegalArgumentException("'" + key + "' needs --model-file and --dataset; without them "
                        + "the cpu SUT runs its embedded Fashion-MNIST model, which takes no data options");
                }
            }
            return new CpuSutOptions(null, inference, o.containsKey(BATCH), o.get(NAME), cacheDir);
        }
        final String dtype = o.get(DTYPE);
        final String placement = o.get(PLACEMENT);
        final ModelDescriptor model = new ModelDescriptor(
            o.get(NAME),
            path(o, MODEL_FILE),
            path(o, DATASET),
            path(o, LABELS),
            o.get(INPUT),
            o.get(OUTPUT),
            dtype == null ? null : dtype(dtype),
            o.containsKey(SAMPLE_SHAPE) ? shape(o.get(SAMPLE_SHAPE)) : null,
            integer(o, HEADER_BYTES, 0),
            integer(o, SAMPLE_COUNT, -1),
            o.get(FILES),
            integer(o, PERFORMANCE_COUNT, 0),
            placement == null ? null : placement(placement),
            (int)integer(o, LABEL_OFFSET, 0),
            o.get(PREPROCESSING));
        return new CpuSutOptions(model, inference, o.containsKey(BATCH), o.get(NAME), cacheDir);
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

    private static Path path(final Map<String, String> o, final String key)
    {
        final String v = o.get(key);
        if (v == null)
        {
            return null;
        }
        if (v.isBlank())
        {
            throw new IllegalArgumentException(key + " is empty");
        }
        return Path.of(v);
    }

    private static long integer(final Map<String, String> o, final String key, final long fallback)
    {
        final String v = o.get(key);
        if (v == null)
        {
            return fallback;
        }
        try
        {
            return Long.parseLong(v.strip().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'", ex);
        }
    }

    private static boolean bool(final Map<String, String> o, final String key, final boolean fallback)
    {
        final String v = o.get(key);
        if (v == null)
        {
            return fallback;
        }
        return switch (v.strip().toLowerCase(Locale.ROOT))
        {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
        };
    }

    private static CompletionWaitStrategy idleStrategy(final String v)
    {
        try
        {
            return CompletionWaitStrategy.valueOf(v.strip().toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(IDLE + " must be spin, yield, backoff or sleep, got '" + v + "'", ex);
        }
    }

    private static SampleStore.Placement placement(final String v)
    {
        return switch (v.strip().toLowerCase(Locale.ROOT))
        {
            case "copy" -> SampleStore.Placement.COPY;
            case "mapped", "map" -> SampleStore.Placement.MAPPED;
            default -> throw new IllegalArgumentException(PLACEMENT + " must be copy or mapped, got '" + v + "'");
        };
    }

    private static DType dtype(final String v)
    {
        try
        {
            return DType.parse(v);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(DTYPE + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param text e.g. {@code 3,224,224}, {@code 3x224x224}, {@code [3, 224, 224]} or {@code (3,224,224)}; empty
     *             brackets for a scalar sample.
     * @return the dimensions.
     * @throws IllegalArgumentException for a negative or non-numeric dimension.
     */
    static long[] shape(final String text)
    {
        final String inner = text.strip().replaceAll("^[\\[(]|[\\])]$", "").strip();
        if (inner.isEmpty())
        {
            return new long[0];
        }
        final String[] parts = inner.split("\\s*[,x]\\s*|\\s+");
        final long[] dims = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                dims[i] = Long.parseLong(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(SAMPLE_SHAPE + " must be dimensions such as 3,224,224, got '"
                    + text + "'", ex);
            }
            if (dims[i] < 0)
            {
                throw new IllegalArgumentException(SAMPLE_SHAPE + " has a negative dimension: '" + text + "'");
            }
        }
        return dims;
    }

    private static int[] cpus(final String v)
    {
        final String s = v.strip().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("none") || s.equals("false"))
        {
            return new int[0];
        }
        final BitSet set = s.equals("all") || s.equals("true") ? ThreadAffinity.currentThreadCpus()
            : ThreadAffinity.parseCpuList(s);
        return set.stream().toArray();
    }
}
