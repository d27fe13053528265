package org.jloadgen.sut.tensorrt;

import java.util.Arrays;
import java.util.Locale;
import java.util.TreeSet;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.sut.BatcherSettings;

/**
 * How the TensorRT SUT batches and drives each GPU (NVIDIA's LWIS design): the dynamic batcher's cut, issue threads
 * per GPU, copy streams per GPU (each with its own execution context and buffers: the batches in flight), inference
 * streams per GPU, CUDA graphs, where samples come from, post-processing, warm-up and how completions are waited for.
 *
 * @param maxBatchSize      largest batch ({@code batch}).
 * @param batchTimeoutUs    cut a batch this long after its first sample ({@code timeout-us}).
 * @param queueCapacity     samples the batcher queues, a power of two ({@code queue}).
 * @param issueIdle         how an issue thread waits for samples or a free stream ({@code idle}).
 * @param issueCpus         CPUs to pin issue threads to, round-robin ({@code pin}).
 * @param issueThreads      issue threads per GPU ({@code issue-threads}).
 * @param copyStreams       copy streams per GPU, each with its own context and buffers ({@code copy-streams}).
 * @param inferStreams      inference streams per GPU ({@code infer-streams}); copy stream i uses i mod this.
 * @param graphs            {@code auto} (powers of two up to the batch, and the batch), {@code none}, or sizes.
 * @param startFromDevice   copy the loaded samples to each GPU at load time ({@code start-from-device}).
 * @param postprocess       what runs on the output before it is copied back ({@code postprocess}).
 * @param rawOutputsOnDemand with raw outputs: copy a row back only when the accuracy log takes it
 *                          ({@code raw-outputs=on-demand}) instead of every row of every batch ({@code copy}).
 * @param warmupIterations  inferences per batch size before the test ({@code warmup}).
 * @param completionWait    how completion threads wait ({@code completion-wait}).
 * @param stageTimes        time H2D, inference and D2H with CUDA events ({@code stage-times}).
 */
public record PipelineSettings(
    int maxBatchSize,
    long batchTimeoutUs,
    int queueCapacity,
    CompletionWaitStrategy issueIdle,
    int[] issueCpus,
    int issueThreads,
    int copyStreams,
    int inferStreams,
    String graphs,
    boolean startFromDevice,
    Postprocess postprocess,
    boolean rawOutputsOnDemand,
    int warmupIterations,
    CompletionWait completionWait,
    boolean stageTimes)
{
    /** Default batcher queue in samples. */
    public static final int QUEUE_CAPACITY_DEFAULT = 1 << 16;
    /** Default warm-up inferences per batch size. */
    public static final int WARMUP_DEFAULT = 3;

    /**
     * Checks the values.
     */
    public PipelineSettings
    {
        issueCpus = issueCpus == null ? new int[0] : issueCpus.clone();
        require(maxBatchSize > 0, "batch must be positive: " + maxBatchSize);
        require(batchTimeoutUs >= 0, "timeout-us must not be negative: " + batchTimeoutUs);
        require(queueCapacity >= maxBatchSize && Integer.bitCount(queueCapacity) == 1,
            "queue must be a power of two of at least the batch size " + maxBatchSize + ": " + queueCapacity);
        require(issueThreads > 0, "issue-threads must be positive: " + issueThreads);
        require(copyStreams > 0, "copy-streams must be positive: " + copyStreams);
        require(inferStreams > 0 && inferStreams <= copyStreams,
            "infer-streams must be from 1 to copy-streams (" + copyStreams + "): " + inferStreams);
        require(warmupIterations >= 0, "warmup must not be negative: " + warmupIterations);
        graphSizes(maxBatchSize, graphs);
    }

    private static void require(final boolean ok, final String message)
    {
        if (!ok)
        {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The defaults, chosen from NVIDIA's LWIS configurations rather than measured here (no GPU on the development
     * machine): Offline fills large batches on 4 copy streams and skips graphs; Server cuts batches of up to 64
     * after 1 ms and launches graphs; SingleStream runs one sample on one stream with spinning threads; MultiStream
     * one query per batch.
     *
     * @param scenario the scenario.
     * @return its defaults.
     */
    public static PipelineSettings defaults(final TestScenario scenario)
    {
        return switch (scenario)
        {
            case OFFLINE -> new PipelineSettings(256, 0, QUEUE_CAPACITY_DEFAULT, CompletionWaitStrategy.BACKOFF, null,
                1, 4, 1, "none", false, Postprocess.AUTO, false, WARMUP_DEFAULT, CompletionWait.BACKOFF, true);
            case SERVER -> new PipelineSettings(64, 1_000, QUEUE_CAPACITY_DEFAULT, CompletionWaitStrategy.YIELD, null,
                1, 4, 1, "auto", false, Postprocess.AUTO, false, WARMUP_DEFAULT, CompletionWait.YIELD, true);
            case SINGLE_STREAM -> new PipelineSettings(1, 0, QUEUE_CAPACITY_DEFAULT, CompletionWaitStrategy.SPIN, null,
                1, 1, 1, "auto", false, Postprocess.AUTO, false, WARMUP_DEFAULT, CompletionWait.SPIN, true);
            case MULTI_STREAM -> new PipelineSettings(64, 0, QUEUE_CAPACITY_DEFAULT, CompletionWaitStrategy.SPIN, null,
                1, 2, 1, "auto", false, Postprocess.AUTO, false, WARMUP_DEFAULT, CompletionWait.YIELD, true);
        };
    }

    /**
     * @param maxBatchSize the largest batch.
     * @param graphs       {@code auto}, {@code none} or a list such as {@code 1,8,64}.
     * @return the batch sizes to capture graphs for, ascending, none above {@code maxBatchSize}.
     * @throws IllegalArgumentException for a size above the batch or a malformed list.
     */
    public static int[] graphSizes(final int maxBatchSize, final String graphs)
    {
        final String g = graphs.strip().toLowerCase(Locale.ROOT);
        if (g.equals("none"))
        {
            return new int[0];
        }
        final TreeSet<Integer> sizes = new TreeSet<>();
        if (g.equals("auto"))
        {
            for (int size = 1; size < maxBatchSize; size <<= 1)
            {
                sizes.add(size);
            }
            sizes.add(maxBatchSize);
        }
        else
        {
            for (final String part : g.split("\\s*,\\s*"))
            {
                final int size;
                try
                {
                    size = Integer.parseInt(part);
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalArgumentException("graphs must be auto, none or batch sizes such as 1,8,64: '"
                        + graphs + "'", ex);
                }
                require(size > 0 && size <= maxBatchSize, "graphs: batch size " + size + " is outside 1.."
                    + maxBatchSize + " (the batch option)");
                sizes.add(size);
            }
        }
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * @return the graph sizes these settings capture.
     */
    public int[] graphSizes()
    {
        return graphSizes(maxBatchSize, graphs);
    }

    @Override
    public int[] issueCpus()
    {
        return issueCpus.clone();
    }

    /**
     * @param gpus GPUs in use.
     * @return the batcher's settings: one worker per issue thread of every GPU.
     */
    public BatcherSettings batcherSettings(final int gpus)
    {
        return new BatcherSettings(maxBatchSize, batchTimeoutUs, issueThreads * gpus, queueCapacity, issueIdle,
            issueCpus);
    }

    /**
     * @param batch a new maximum batch size.
     * @return these settings with it (and graph sizes that fit it).
     */
    public PipelineSettings withMaxBatchSize(final int batch)
    {
        final String g = graphs.strip().equalsIgnoreCase("auto") || graphs.strip().equalsIgnoreCase("none") ? graphs
            : Arrays.stream(graphSizes(maxBatchSize, graphs)).filter(s -> s <= batch).mapToObj(Integer::toString)
                .reduce((a, b) -> a + "," + b).orElse("none");
        return new PipelineSettings(batch, batchTimeoutUs, Math.max(queueCapacity, Integer.highestOneBit(batch) << 1),
            issueIdle, issueCpus, issueThreads, copyStreams, inferStreams, g, startFromDevice, postprocess,
            rawOutputsOnDemand, warmupIterations, completionWait, stageTimes);
    }

    /**
     * @param resolved the post-processing chosen for the model.
     * @return these settings with it.
     */
    public PipelineSettings withPostprocess(final Postprocess resolved)
    {
        return new PipelineSettings(maxBatchSize, batchTimeoutUs, queueCapacity, issueIdle, issueCpus, issueThreads,
            copyStreams, inferStreams, graphs, startFromDevice, resolved, rawOutputsOnDemand, warmupIterations,
            completionWait, stageTimes);
    }

    /**
     * @return one line for the console.
     */
    public String describe()
    {
        final int[] g = graphSizes();
        return "batch " + maxBatchSize + ", timeout " + batchTimeoutUs + " us; per GPU " + issueThreads
            + " issue thread" + (issueThreads == 1 ? "" : "s") + ", " + copyStreams + " copy stream"
            + (copyStreams == 1 ? "" : "s") + ", " + inferStreams + " inference stream" + (inferStreams == 1 ? "" : "s")
            + "; graphs " + (g.length == 0 ? "none" : Arrays.toString(g)) + "; samples from "
            + (startFromDevice ? "device memory" : "pinned host memory") + "; post-processing " + postprocess.describe()
            + (postprocess.kind() == Postprocess.Kind.NONE && rawOutputsOnDemand ? " fetched on demand" : "")
            + "; completion " + completionWait.name().toLowerCase(Locale.ROOT) + ", warm-up " + warmupIterations;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof final PipelineSettings that && maxBatchSize == that.maxBatchSize
            && batchTimeoutUs == that.batchTimeoutUs && queueCapacity == that.queueCapacity
            && issueIdle == that.issueIdle && Arrays.equals(issueCpus, that.issueCpus)
            && issueThreads == that.issueThreads && copyStreams == that.copyStreams
            && inferStreams == that.inferStreams && graphs.equals(that.graphs)
            && startFromDevice == that.startFromDevice && postprocess.equals(that.postprocess)
            && rawOutputsOnDemand == that.rawOutputsOnDemand && warmupIterations == that.warmupIterations
            && completionWait == that.completionWait && stageTimes == that.stageTimes;
    }

    @Override
    public int hashCode()
    {
        return java.util.Objects.hash(maxBatchSize, batchTimeoutUs, queueCapacity, issueIdle, issueThreads,
            copyStreams, inferStreams, graphs, startFromDevice, postprocess, rawOutputsOnDemand, warmupIterations,
            completionWait, stageTimes) * 31 + Arrays.hashCode(issueCpus);
    }
}
