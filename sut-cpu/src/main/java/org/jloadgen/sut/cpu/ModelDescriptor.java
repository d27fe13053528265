package org.jloadgen.sut.cpu;

import java.nio.file.Path;

import org.jloadgen.sut.DatasetDescriptor;

/**
 * What the CPU SUT runs and on which data: an ONNX model and the dataset (with its labels) the toolkit's
 * {@link org.jloadgen.sut.SutDataset} opens. Built by {@link CpuSutOptions} from a descriptor file and command-line
 * options; {@code null} means "take it from the model".
 *
 * @param sutName    logged as {@code sut_name}, or {@code null} for one made of the model's file name.
 * @param modelFile  the ONNX model.
 * @param inputName  the model input fed with the samples, or {@code null} for the model's only input.
 * @param outputName the model output returned as the response, or {@code null} for its first output.
 * @param data       the dataset, labels and how to read them.
 */
public record ModelDescriptor(String sutName, Path modelFile, String inputName, String outputName,
    DatasetDescriptor data)
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
        if (data == null)
        {
            throw new IllegalArgumentException("the cpu SUT needs a dataset for " + modelFile
                + ": --dataset FILE.npy|RAW|DIR (or dataset in a --descriptor)");
        }
    }

    /**
     * @param name a SUT name.
     * @return this descriptor logged under that name.
     */
    public ModelDescriptor withSutName(final String name)
    {
        return new ModelDescriptor(name, modelFile, inputName, outputName, data);
    }
}
