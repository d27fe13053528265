package org.jloadgen.sut;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;

/**
 * Which samples a SUT reads and how: a dataset the {@link SampleStore} loads, its labels, and how to read raw files.
 * Shared by the SUTs that run a model over a dataset ({@code cpu}, {@code tensorrt}); {@link SutDataset#open} opens
 * it. {@code null} means "take it from the model or the file".
 *
 * @param dataset          a {@code .npy} file (axis 0 = samples), a raw file, or a directory of per-sample files.
 * @param labels           class labels by QSL index (IDX1, {@code .npy} or text), or {@code null}.
 * @param dtype            element type of raw samples, or {@code null} for the model input's type.
 * @param sampleShape      shape of one raw sample, or {@code null} for the model input's shape after the batch axis.
 * @param headerBytes      bytes before the first sample of a raw file (e.g. 16 for IDX3 images).
 * @param sampleCount      samples in a raw file, or -1 for as many as it holds.
 * @param fileGlob         which files of a dataset directory are samples, or {@code null} for {@code *.npy} if any
 *                         exist, else every file.
 * @param performanceCount the QSL's performance sample count, or 0 for as many samples as fit in 1 GiB.
 * @param placement        copy samples into one slab (contiguous batches) or map the files.
 * @param labelOffset      added to every label before comparing with a prediction (e.g. -1 for 1-based labels,
 *                         +1 for ImageNet models with a background class 0).
 * @param preprocessing    what was already done to the samples (documentation, printed with the SUT).
 */
public record DatasetDescriptor(
    Path dataset,
    Path labels,
    DType dtype,
    long[] sampleShape,
    long headerBytes,
    long sampleCount,
    String fileGlob,
    long performanceCount,
    SampleStore.Placement placement,
    int labelOffset,
    String preprocessing)
{
    /** The dataset: .npy, raw file or directory. */
    public static final String DATASET = "dataset";
    /** The labels. */
    public static final String LABELS = "labels";
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
    /** Every key above, with its type, default and meaning (a SUT's {@code --help}). */
    public static final List<SutOption> OPTIONS = List.of(
        new SutOption(DATASET, SutOption.PATH, "", "The samples: a .npy file (axis 0 = samples), a raw file, or a "
            + "directory of per-sample files."),
        new SutOption(LABELS, SutOption.PATH, "", "Class labels by QSL index (IDX1, .npy or text), for top-1."),
        new SutOption(DTYPE, "NumPy dtype (float32, uint8, <f4...)", "the model input's type",
            "Element type of raw samples."),
        new SutOption(SAMPLE_SHAPE, "d1,d2,...", "the model input's shape after the batch axis",
            "Shape of one raw sample, e.g. 3,224,224."),
        new SutOption(HEADER_BYTES, "integer >= 0", "0", "Bytes before the first sample of a raw file (16 for IDX3)."),
        new SutOption(SAMPLE_COUNT, "integer", "as many as the raw file holds", "Samples in a raw file."),
        new SutOption(FILES, "glob", "*.npy if any, else every file", "Which files of a dataset directory are "
            + "samples."),
        new SutOption(PERFORMANCE_COUNT, "integer >= 0", "as many samples as fit in 1 GiB", "The QSL's "
            + "performance sample count."),
        new SutOption(PLACEMENT, "copy|mapped", "copy", "Copy the samples into one slab (contiguous batches) or "
            + "map the files."),
        new SutOption(LABEL_OFFSET, "integer", "0", "Added to every label before comparing with a prediction (-1 "
            + "for 1-based labels, +1 for a model with a background class 0)."),
        new SutOption(PREPROCESSING, "text", "", "What was already done to the samples (printed with the SUT)."));
    /** Every key above. */
    public static final Set<String> KEYS = SutOption.keys(OPTIONS);
    /** The keys whose descriptor values are paths. */
    public static final Set<String> PATH_KEYS = Set.of(DATASET, LABELS);

    /**
     * Checks the values.
     */
    public DatasetDescriptor
    {
        if (headerBytes < 0)
        {
            throw new IllegalArgumentException(HEADER_BYTES + " must not be negative: " + headerBytes);
        }
        if (performanceCount < 0)
        {
            throw new IllegalArgumentException(PERFORMANCE_COUNT + " must not be negative: " + performanceCount);
        }
        sampleShape = sampleShape == null ? null : sampleShape.clone();
        placement = placement == null ? SampleStore.Placement.COPY : placement;
        preprocessing = preprocessing == null ? "" : preprocessing;
    }

    /**
     * @param options  parsed options.
     * @param needsWhat what the SUT needs the dataset for, e.g. {@code "the cpu SUT needs a dataset for m.onnx"}.
     * @return the dataset the options describe.
     * @throws IllegalArgumentException naming a missing dataset or a bad value.
     */
    public static DatasetDescriptor fromOptions(final SutOptions options, final String needsWhat)
    {
        final Path dataset = options.path(DATASET);
        if (dataset == null)
        {
            throw new IllegalArgumentException(needsWhat + ": --dataset FILE.npy|RAW|DIR (or dataset in a "
                + "--descriptor)");
        }
        return new DatasetDescriptor(
            dataset,
            options.path(LABELS),
            options.dtype(DTYPE),
            options.shape(SAMPLE_SHAPE),
            options.longValue(HEADER_BYTES, 0),
            options.longValue(SAMPLE_COUNT, -1),
            options.string(FILES),
            options.longValue(PERFORMANCE_COUNT, 0),
            options.placement(PLACEMENT),
            options.intValue(LABEL_OFFSET, 0),
            options.string(PREPROCESSING));
    }

    /**
     * @return the raw sample shape, copied, or {@code null}.
     */
    @Override
    public long[] sampleShape()
    {
        return sampleShape == null ? null : sampleShape.clone();
    }
}
