package org.jloadgen.sut.cpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.sut.BatchProcessor;
import org.jloadgen.sut.SampleBatch;
import org.jloadgen.sut.SutStatistics;

/**
 * One worker's inference: hands a batch to ONNX Runtime and completes it with one call, each sample's response
 * being its output row.
 * <p>
 * Input: when the batch's samples are adjacent in the sample slab (MultiStream queries, Offline runs of the loaded
 * set), the tensor is a direct {@link ByteBuffer} over that slab range, so ONNX Runtime reads the samples where
 * they are; otherwise each sample is copied once into this worker's staging buffer. Output: when the output row
 * has a fixed size, ONNX Runtime writes straight into this worker's output buffer (pre-allocated output tensors,
 * one per batch size used); otherwise the result is copied there. Either way the response payloads point into
 * that buffer, which stays untouched until the completion call returns.
 */
final class OnnxBatchProcessor implements BatchProcessor
{
    /** The stage recorded per batch: the ONNX Runtime call, from tensor creation to the outputs being written. */
    static final String STAGE = "inference";

    private final OrtEnvironment env;
    private final OrtSession session;
    private final SampleStore store;
    private final String inputName;
    private final String outputName;
    private final OnnxJavaType inputType;
    private final long[] sampleShape;
    private final long sampleBytes;
    private final long fixedRowBytes;
    private final long[] outputRowShape;
    private final OnnxJavaType outputType;
    private final int maxBatchSize;
    private final Arena arena = Arena.ofShared();
    private final long[][] inputShapes;
    private final OnnxTensor[] pinnedOutputs;
    private final Map<String, OnnxTensor> inputs = new HashMap<>(2);
    private final Map<String, OnnxTensor> outputs = new HashMap<>(2);
    private final Set<String> requested;
    private MemorySegment output;
    private ByteBuffer outputBuffer;
    private MemorySegment staging;
    private ByteBuffer stagingBuffer;
    private final SutStatistics.Recorder recorder;
    private final int stage;
    private long zeroCopyBatches;
    private long stagedBatches;

    /**
     * @param model        the shared model.
     * @param store        the sample store the QSL loads.
     * @param sampleBytes  bytes of one sample.
     * @param maxBatchSize largest batch this worker gets.
     * @param statistics   where the worker records the {@value #STAGE} time of each batch.
     */
    OnnxBatchProcessor(final OnnxModel model, final SampleStore store, final long sampleBytes,
        final int maxBatchSize, final SutStatistics statistics)
    {
        this.recorder = statistics.newRecorder();
        this.stage = statistics.stage(STAGE);
        this.env = model.env();
        this.session = model.session();
        this.store = store;
        this.inputName = model.inputName();
        this.outputName = model.outputName();
        this.inputType = model.inputType();
        final long[] input = model.inputShape();
        this.sampleShape = Arrays.copyOfRange(input, 1, input.length);
        this.sampleBytes = sampleBytes;
        this.fixedRowBytes = model.outputRowBytes();
        final long[] out = model.outputShape();
        this.outputRowShape = Arrays.copyOfRange(out, 1, out.length);
        this.outputType = model.outputType();
        this.maxBatchSize = maxBatchSize;
        this.inputShapes = new long[maxBatchSize + 1][];
        this.pinnedOutputs = new OnnxTensor[maxBatchSize + 1];
        this.requested = Set.of(outputName);
        if (fixedRowBytes >= 0)
        {
            output = arena.allocate(Math.max(1, Math.multiplyExact(fixedRowBytes, (long)maxBatchSize)), 64);
            outputBuffer = output.asByteBuffer().order(ByteOrder.nativeOrder());
        }
    }

    @Override
    public void process(final SampleBatch batch, final QuerySampleResponses responses, final ResponseSink sink)
        throws Exception
    {
        final int n = batch.size();
        final ByteBuffer data = input(batch, n);
        final long rowBytes;
        final long startNs = System.nanoTime();
        try (OnnxTensor tensor = OnnxTensor.createTensor(env, data, inputShape(n), inputType))
        {
            inputs.put(inputName, tensor);
            if (fixedRowBytes >= 0)
            {
                outputs.put(outputName, pinnedOutput(n));
                session.run(inputs, outputs).close();
                rowBytes = fixedRowBytes;
            }
            else
            {
                rowBytes = runAndCopy(n);
            }
        }
        catch (final OrtException ex)
        {
            throw new IllegalStateException("ONNX Runtime failed on a batch of " + n + " sample" + (n == 1 ? "" : "s")
                + " (first QSL index " + batch.sampleIndex(0) + "): " + OnnxModel.message(ex), ex);
        }
        recorder.recordStageNs(stage, System.nanoTime() - startNs);
        final long base = output.address();
        for (int i = 0; i < n; i++)
        {
            responses.data(i, base + i * rowBytes, rowBytes);
        }
        sink.complete(responses, n);
    }

    private ByteBuffer input(final SampleBatch batch, final int n)
    {
        final int first = batch.position(0);
        final long bytes = n * sampleBytes;
        if (batch.contiguous() && store.isContiguous(first, n)
            && (store.placement() == SampleStore.Placement.MAPPED || store.strideBytes() == sampleBytes))
        {
            zeroCopyBatches++;
            final MemorySegment range = store.placement() == SampleStore.Placement.COPY
                ? store.slab().asSlice(store.offset(first), bytes) : store.range(first, n);
            return range.asByteBuffer().order(ByteOrder.nativeOrder());
        }
        stagedBatches++;
        if (staging == null)
        {
            // Allocated on first use: Offline runs of a copied slab may never need it.
            staging = arena.allocate(Math.max(1, sampleBytes * maxBatchSize), 64);
            stagingBuffer = staging.asByteBuffer().order(ByteOrder.nativeOrder());
        }
        if (store.placement() == SampleStore.Placement.COPY)
        {
            final MemorySegment slab = store.slab();
            for (int i = 0; i < n; i++)
            {
                MemorySegment.copy(slab, store.offset(batch.position(i)), staging, i * sampleBytes, sampleBytes);
            }
        }
        else
        {
            for (int i = 0; i < n; i++)
            {
                MemorySegment.copy(store.sample(batch.position(i)), 0, staging, i * sampleBytes, sampleBytes);
            }
        }
        return stagingBuffer.slice(0, (int)bytes).order(ByteOrder.nativeOrder());
    }

    private long[] inputShape(final int n)
    {
        long[] shape = inputShapes[n];
        if (shape == null)
        {
            shape = new long[sampleShape.length + 1];
            shape[0] = n;
            for (int i = 0; i < sampleShape.length; i++)
            {
                // A dynamic dimension other than the batch takes the dataset's value, checked to fit before the run.
                shape[i + 1] = sampleShape[i] >= 0 ? sampleShape[i] : datasetDim(i);
            }
            inputShapes[n] = shape;
        }
        return shape;
    }

    private long datasetDim(final int axis)
    {
        return store.source().sampleShape(0)[axis];
    }

    private OnnxTensor pinnedOutput(final int n) throws OrtException
    {
        OnnxTensor tensor = pinnedOutputs[n];
        if (tensor == null)
        {
            final long[] shape = new long[outputRowShape.length + 1];
            shape[0] = n;
            System.arraycopy(outputRowShape, 0, shape, 1, outputRowShape.length);
            final ByteBuffer view = outputBuffer.slice(0, (int)(n * fixedRowBytes)).order(ByteOrder.nativeOrder());
            tensor = OnnxTensor.createTensor(env, view, shape, outputType);
            pinnedOutputs[n] = tensor;
        }
        return tensor;
    }

    private long runAndCopy(final int n) throws OrtException
    {
        try (OrtSession.Result result = session.run(inputs, requested))
        {
            final OnnxValue value = result.get(0);
            if (!(value instanceof final OnnxTensor tensor))
            {
                throw new IllegalStateException("output '" + outputName + "' is not a tensor: " + value.getInfo());
            }
            final long[] shape = tensor.getInfo().getShape();
            if (shape.length == 0 || shape[0] != n)
            {
                throw new IllegalStateException("output '" + outputName + "' has shape " + TensorTypes.format(shape,
                    null) + " for a batch of " + n + "; its first axis must be the batch");
            }
            final ByteBuffer bytes = tensor.getByteBuffer();
            final long total = bytes.remaining();
            if (output == null || output.byteSize() < total)
            {
                output = arena.allocate(Math.max(64, total * 2), 64);
            }
            MemorySegment.copy(MemorySegment.ofBuffer(bytes), 0, output, 0, total);
            return total / n;
        }
    }

    /**
     * @return batches handed to ONNX Runtime as views of the sample slab.
     */
    long zeroCopyBatches()
    {
        return zeroCopyBatches;
    }

    /**
     * @return batches copied into the staging buffer first.
     */
    long stagedBatches()
    {
        return stagedBatches;
    }

    @Override
    public void close()
    {
        for (final OnnxTensor tensor : pinnedOutputs)
        {
            if (tensor != null)
            {
                tensor.close();
            }
        }
        arena.close();
    }
}
