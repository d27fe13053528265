package org.jloadgen.sut.tensorrt;

import java.util.List;

import org.jloadgen.accuracy.ClassificationAccuracy;

/**
 * What one batch moves, resolved from the engine and the dataset: the input and its sample size, every output (each
 * needs a device buffer, even those not returned) and the one returned, and what a response holds (the returned
 * output's row, or {@code k} int32 class ids from the device top-k).
 *
 * @param input          the input tensor fed with samples.
 * @param sampleShape    one sample's shape.
 * @param sampleBytes    one sample's bytes.
 * @param outputs        every output tensor, in engine order.
 * @param outputRowBytes bytes of one batch row of each output, same order.
 * @param returned       index of the returned output in {@code outputs}.
 * @param topK           class ids per sample computed on the device, or 0 for raw rows.
 * @param classes        columns of the returned output (for the top-k kernel).
 * @param accuracyType   how the accuracy checker reads a response.
 */
public record IoLayout(
    String input,
    long[] sampleShape,
    long sampleBytes,
    List<String> outputs,
    long[] outputRowBytes,
    int returned,
    int topK,
    int classes,
    ClassificationAccuracy.DataType accuracyType)
{
    /**
     * Copies the arrays.
     */
    public IoLayout
    {
        sampleShape = sampleShape.clone();
        outputs = List.copyOf(outputs);
        outputRowBytes = outputRowBytes.clone();
        if (outputs.size() != outputRowBytes.length || returned < 0 || returned >= outputs.size())
        {
            throw new IllegalArgumentException("outputs and row sizes do not match: " + outputs);
        }
    }

    @Override
    public long[] sampleShape()
    {
        return sampleShape.clone();
    }

    @Override
    public long[] outputRowBytes()
    {
        return outputRowBytes.clone();
    }

    /**
     * @param i an output.
     * @return its row bytes.
     */
    public long outputRowBytes(final int i)
    {
        return outputRowBytes[i];
    }

    /**
     * @return the returned output's name.
     */
    public String returnedOutput()
    {
        return outputs.get(returned);
    }

    /**
     * @return bytes of one response: {@code 4 k} with top-k, else the returned output's row.
     */
    public long responseBytes()
    {
        return topK > 0 ? (long)Integer.BYTES * topK : outputRowBytes[returned];
    }
}
