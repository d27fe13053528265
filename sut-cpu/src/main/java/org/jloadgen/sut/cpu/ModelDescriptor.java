package org.jloadgen.sut.cpu;

import java.nio.file.Path;

import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;

/**
 * What the CPU SUT runs and on which data: an ONNX model, a dataset the {@link SampleStore} loads, its labels, and
 * how to read them. Built by {@link CpuSutOptions} from a descriptor file and command-line options; {@code null}
 * means "take it from the model or the file".
 *
 * @param sutName          logged as {@code sut_name}.
 * @param modelFile        the ONNX model.
 * @param dataset          a {@code .npy} file (axis 0 = samples), a raw file, or a directory of per-sample files.
 * @param labels           class labels by QSL index (IDX1, {@code .npy} or text), or {@code null}.
 * @param inputName        the model input fed with the samples, or {@code null} for the model's only input.
 * @param outputName       the model output returned as the response, or {@code null} for its first output.
 * @param dtype            element type of raw samples, or {@code null} for the model input's type.
 * @param sampleShape      shape of one raw sample, or {@code null} for the model input's shape after the batch axis.
 * @param headerBytes      bytes before the first sample of a raw file (e.g. 16 for IDX3 images).
 * @param sampleCount      samples in a raw file, or -1 for as many as it holds.
 * @param fileGlob         which files of a dataset directory are samples, or {@code null} for {@code *.npy} if any
 *                         exist, else every file.
 * @param performanceCount the QSL's performance sample count, or 0 for as many samples as fit in 1 GiB.
 * @param placement        copy samples into one slab (zero-copy batches) or map the files.
 * @param labelOffset      added to every label before comparing with a prediction (e.g. -1 for 1-based labels,
 *                         +1 for ImageNet models with a background class 0).
 * @param preprocessing    what was already done to the samples (documentation, printed with the SUT).
 */
public record ModelDescriptor(
    String sutName,
    Path modelFile,
    Path dataset,
    Path labels,
    String inputName,
    String outputName,
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
    /**
     * Checks the required parts.
     */
    public ModelDescriptor
    {
        if (modelFile == null)
        {
            throw new IllegalArgumentException("the cpu SUT needs a model: --model-file FILE.onnx (or model-file in "
                + "a --descriptor)");
        }
        if (dataset == null)
        {
            throw new IllegalArgumentException("the cpu SUT needs a dataset for " + modelFile
                + ": --dataset FILE.npy|RAW|DIR (or dataset in a --descriptor)");
        }
        if (headerBytes < 0)
        {
            throw new IllegalArgumentException("header-bytes must not be negative: " + headerBytes);
        }
        if (performanceCount < 0)
        {
            throw new IllegalArgumentException("performance-count must not be negative: " + performanceCount);
        }
        sampleShape = sampleShape == null ? null : sampleShape.clone();
        placement = placement == null ? SampleStore.Placement.COPY : placement;
        preprocessing = preprocessing == null ? "" : preprocessing;
    }

    /**
     * @param name a SUT name.
     * @return this descriptor logged under that name.
     */
    public ModelDescriptor withSutName(final String name)
    {
        return new ModelDescriptor(name, modelFile, dataset, labels, inputName, outputName, dtype, sampleShape,
            headerBytes, sampleCount, fileGlob, performanceCount, placement, labelOffset, preprocessing);
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
