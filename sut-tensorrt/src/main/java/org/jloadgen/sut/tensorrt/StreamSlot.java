package org.jloadgen.sut.tensorrt;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceGraph;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Engine;
import org.jloadgen.sut.tensorrt.device.ExecutionContext;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * One batch in flight on a GPU (LWIS's "copy stream" with what belongs to it): its own copy stream, execution
 * context, device input and output buffers, pinned host buffer for what comes back, events, CUDA graphs per
 * captured batch size, and pre-built responses whose payloads already point at their rows of the host buffer, so
 * completing a batch is one call.
 * <p>
 * A slot is owned by one thread at a time and handed on through queues (free queue, then the issue thread, then the
 * completion queue, then the completion thread), which publish its fields.
 * <p>
 * The work of a batch, in stream order (events chain the streams; graphs replace the enqueue and the kernel):
 * <pre>
 * copy stream:  [h2dStart] H2D (one, or per run) [h2dDone]                           wait(inferDone) [d2hStart] D2H
 *                                                                                                   [d2hDone]
 * infer stream:                              wait(h2dDone) [inferStart] enqueue + top-k [inferDone]
 * </pre>
 */
final class StreamSlot implements AutoCloseable
{
    final int index;
    final Gpu gpu;
    final DeviceStream copyStream;
    final DeviceStream inferStream;
    final ExecutionContext context;
    final IoLayout layout;
    final long deviceInput;
    /** Pinned host buffer a scattered batch is gathered into for one H2D copy; 0 where no batch is gathered. */
    final long hostInput;
    final long[] deviceOutputs;
    final long deviceIds;
    final long hostOutput;
    final long responseBytes;
    final DeviceEvent h2dStart;
    final DeviceEvent h2dDone;
    final DeviceEvent inferStart;
    final DeviceEvent inferDone;
    final DeviceEvent d2hStart;
    final DeviceEvent d2hDone;
    final QuerySampleResponses responses;
    final GraphSelector graphs;
    final DeviceGraph[] graphsBySize;
    final ResponseCallback fetchRow;

    // Per batch, written by the issue thread, read by the completion thread.
    int size;
    long firstSampleIndex;
    ResponseSink sink;
    boolean rowsOnDevice;

    // Counts, written by whichever thread holds the slot (read after the run).
    long graphLaunches;
    long enqueues;
    long paddedSamples;

    private final Arena arena = Arena.ofShared();
    private final List<DeviceEvent> events = new ArrayList<>();

    /**
     * Allocates the slot's buffers, binds them to a new context and prebuilds the responses.
     *
     * @param index       the slot's number on its GPU.
     * @param gpu         the GPU (current on the calling thread).
     * @param engine      the engine.
     * @param profile     the optimization profile of this slot's context.
     * @param inferStream the inference stream it shares.
     * @param fetchStream the stream on-demand row fetches use (the completion thread's).
     * @param layout      inputs and outputs.
     * @param maxBatch    the largest batch.
     * @param graphSizes  the sizes graphs are captured for.
     * @param timing      whether events time the stages.
     * @param blockingSync whether the last event sleeps its waiters.
     * @param gathers     whether batches may be gathered on the host ({@link #hostInput}).
     */
    StreamSlot(final int index, final Gpu gpu, final Engine engine, final int profile, final DeviceStream inferStream,
        final DeviceStream fetchStream, final IoLayout layout, final int maxBatch, final int[] graphSizes,
        final boolean timing, final boolean blockingSync, final boolean gathers)
    {
        this.index = index;
        this.gpu = gpu;
        this.layout = layout;
        this.inferStream = inferStream;
        this.copyStream = gpu.newStream();
        this.context = engine.newContext(profile, inferStream);
        context.prepare(layout.input(), layout.sampleShape());
        this.deviceInput = gpu.allocate(Math.max(1, maxBatch * layout.sampleBytes()));
        context.bind(layout.input(), deviceInput);
        this.hostInput = gathers ? gpu.allocatePinned(maxBatch * layout.sampleBytes()) : 0;
        this.deviceOutputs = new long[layout.outputs().size()];
        for (int o = 0; o < deviceOutputs.length; o++)
        {
            deviceOutputs[o] = gpu.allocate(Math.max(1, maxBatch * layout.outputRowBytes(o)));
            context.bind(layout.outputs().get(o), deviceOutputs[o]);
        }
        this.deviceIds = layout.topK() > 0 ? gpu.allocate((long)maxBatch * layout.topK() * Integer.BYTES) : 0;
        this.responseBytes = layout.responseBytes();
        this.hostOutput = gpu.allocatePinned(Math.max(1, maxBatch * responseBytes));
        this.h2dStart = event(timing, false);
        this.h2dDone = event(timing, false);
        this.inferStart = event(timing, false);
        this.inferDone = event(timing, false);
        this.d2hStart = event(timing, false);
        this.d2hDone = event(timing, blockingSync);
        this.responses = new QuerySampleResponses(maxBatch, arena);
        for (int i = 0; i < maxBatch; i++)
        {
            responses.set(i, 0, hostOutput + i * responseBytes, responseBytes, 0);
        }
        this.graphs = new GraphSelector(graphSizes);
        this.graphsBySize = new DeviceGraph[graphSizes.length];
        final long rowBytes = layout.outputRowBytes(layout.returned());
        final long returnedOutput = deviceOutputs[layout.returned()];
        this.fetchRow = (r, i) ->
        {
            // Raw rows left on the device: fetch the one the accuracy log takes (untimed, completion thread).
            fetchStream.copyToHost(hostOutput + i * rowBytes, returnedOutput + i * rowBytes, rowBytes);
            fetchStream.synchronize();
        };
    }

    private DeviceEvent event(final boolean timing, final boolean blockingSync)
    {
        final DeviceEvent event = gpu.newEvent(timing, blockingSync);
        events.add(event);
        return event;
    }

    /**
     * Captures one graph per batch size: the enqueue (and the top-k kernel) with that size's shape and this slot's
     * addresses. Each size runs once outside the capture first, so TensorRT's lazy set-up is not captured.
     */
    void captureGraphs()
    {
        for (int g = 0; g < graphsBySize.length; g++)
        {
            final int size = graphs.size(g);
            context.setBatch(size);
            enqueueDirect(size);
            inferStream.synchronize();
            inferStream.beginCapture();
            enqueueDirect(size);
            graphsBySize[g] = inferStream.endCapture();
        }
    }

    /**
     * Fills the responses of a batch: ids of the batch, payloads at their rows (pre-set).
     *
     * @param i          entry.
     * @param responseId the sample's response id.
     */
    void setResponse(final int i, final long responseId)
    {
        responses.set(i, responseId, hostOutput + i * responseBytes, responseBytes, 0);
    }

    /**
     * Enqueues the inference of {@code n} samples already in {@link #deviceInput}: the smallest captured graph that
     * holds them (its extra rows compute on stale input and are not returned), else an enqueue with shape
     * {@code n}; then the top-k kernel when asked. Inference stream, after {@code h2dDone}.
     *
     * @param n samples.
     */
    void enqueueInference(final int n)
    {
        inferStream.waitFor(h2dDone);
        inferStream.record(inferStart);
        final int g = graphs.pick(n);
        if (g >= 0)
        {
            graphsBySize[g].launch(inferStream);
            graphLaunches++;
            paddedSamples += graphs.size(g) - n;
        }
        else
        {
            context.setBatch(n);
            enqueueDirect(n);
            enqueues++;
        }
        inferStream.record(inferDone);
    }

    private void enqueueDirect(final int rows)
    {
        context.enqueue(inferStream);
        if (layout.topK() > 0)
        {
            gpu.topK(inferStream, deviceOutputs[layout.returned()], deviceIds, rows, layout.classes(), layout.topK());
        }
    }

    /**
     * Enqueues the copy back of {@code n} responses (class ids, or raw rows unless they stay on the device), then
     * {@code d2hDone}. Copy stream, after {@code inferDone}.
     *
     * @param n            samples.
     * @param rowsOnDemand leave raw rows on the device; the accuracy log's callback fetches its rows.
     */
    void enqueueOutputCopy(final int n, final boolean rowsOnDemand)
    {
        copyStream.waitFor(inferDone);
        copyStream.record(d2hStart);
        rowsOnDevice = rowsOnDemand && layout.topK() == 0;
        if (!rowsOnDevice)
        {
            copyStream.copyToHost(hostOutput, layout.topK() > 0 ? deviceIds : deviceOutputs[layout.returned()],
                n * responseBytes);
        }
        copyStream.record(d2hDone);
    }

    @Override
    public void close()
    {
        for (final DeviceGraph graph : graphsBySize)
        {
            if (graph != null)
            {
                graph.close();
            }
        }
        context.close();
        copyStream.close();
        for (final DeviceEvent event : events)
        {
            event.close();
        }
        gpu.free(deviceInput);
        for (final long output : deviceOutputs)
        {
            gpu.free(output);
        }
        if (deviceIds != 0)
        {
            gpu.free(deviceIds);
        }
        gpu.freePinned(hostOutput);
        if (hostInput != 0)
        {
            gpu.freePinned(hostInput);
        }
        arena.close();
    }
}
