package org.jloadgen.sut.tensorrt;

import org.jloadgen.samples.DType;

/**
 * The simulated device ({@code backend=simulated}): how many devices, what the "model" looks like, and how long each
 * stage takes. The device runs the LWIS pipeline's streams, events and graphs on JVM threads and computes a
 * deterministic classifier over the sample bytes (see {@code SimulatedBackend}), so the scheduling can be exercised
 * and timed without a GPU.
 *
 * @param devices          simulated GPUs ({@code sim-devices}).
 * @param inputType        the model input's element type ({@code sim-input=uint8:1x28x28}).
 * @param inputShape       the model input's shape after the batch axis.
 * @param classes          columns of the float32 output ({@code sim-classes}).
 * @param copyBytesPerUs   copy bandwidth in bytes per microsecond, 0 for instant ({@code sim-copy-gbps} x 1000).
 * @param inferFixedNs     device time of every inference ({@code sim-infer-us}).
 * @param inferPerSampleNs device time per sample ({@code sim-infer-us-per-sample}).
 * @param enqueueNs        host time of enqueuing an inference without a graph ({@code sim-enqueue-us}).
 * @param graphLaunchNs    host time of launching a graph ({@code sim-graph-launch-us}).
 * @param failAfterBatches fail the inference after this many batches per device, 0 for never ({@code sim-fail-after}).
 */
public record SimulationSettings(
    int devices,
    DType inputType,
    long[] inputShape,
    int classes,
    double copyBytesPerUs,
    long inferFixedNs,
    long inferPerSampleNs,
    long enqueueNs,
    long graphLaunchNs,
    long failAfterBatches)
{
    /** The default: one device, a Fashion-MNIST-shaped model, no time spent. */
    public static final SimulationSettings DEFAULT = new SimulationSettings(1, DType.UINT8, new long[] {1, 28, 28}, 10,
        0, 0, 0, 0, 0, 0);

    /**
     * Checks the values.
     */
    public SimulationSettings
    {
        inputShape = inputShape.clone();
        if (devices <= 0 || classes <= 0 || copyBytesPerUs < 0 || inferFixedNs < 0 || inferPerSampleNs < 0
            || enqueueNs < 0 || graphLaunchNs < 0 || failAfterBatches < 0)
        {
            throw new IllegalArgumentException("simulation settings must not be negative (devices and classes "
                + "positive): " + this);
        }
    }

    @Override
    public long[] inputShape()
    {
        return inputShape.clone();
    }

    @Override
    public String toString()
    {
        return "devices " + devices + ", input " + inputType + " " + java.util.Arrays.toString(inputShape) + ", "
            + classes + " classes, copy " + copyBytesPerUs + " B/us, infer " + inferFixedNs + " ns + "
            + inferPerSampleNs
            + " ns/sample, enqueue " + enqueueNs + " ns, graph launch " + graphLaunchNs + " ns, fail after "
            + failAfterBatches;
    }
}
