package org.jloadgen.sut.tensorrt.simulated;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.jloadgen.sut.tensorrt.TopK;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceGraph;
import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * A simulated CUDA stream: a JVM thread that runs the stream's ops in order, taking the configured time for copies
 * and inferences. Any thread may enqueue (as with CUDA); enqueuing takes a pooled op, so it allocates nothing, and
 * waits while the stream has {@value #DEPTH} ops outstanding (CUDA's launch queue blocks the same way). Capture
 * records the capturing thread's ops into a graph instead of running them.
 */
final class SimulatedStream implements DeviceStream
{
    /** Ops a stream holds before enqueuing waits. */
    static final int DEPTH = 1024;

    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final SimulatedGpu gpu;
    private final ManyToManyConcurrentArrayQueue<Op> free = new ManyToManyConcurrentArrayQueue<>(DEPTH);
    private final ManyToOneConcurrentArrayQueue<Op> pending = new ManyToOneConcurrentArrayQueue<>(DEPTH);
    private final SimulatedEvent syncEvent;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Thread capturing;
    private List<Op> captured;

    SimulatedStream(final SimulatedGpu gpu, final String name)
    {
        this.gpu = gpu;
        for (int i = 0; i < DEPTH; i++)
        {
            free.offer(new Op());
        }
        this.syncEvent = new SimulatedEvent(gpu, false);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    private Op claim(final Op.Kind kind)
    {
        gpu.checkCurrent();
        Op op;
        while ((op = free.poll()) == null)
        {
            Thread.onSpinWait();
        }
        op.kind = kind;
        return op;
    }

    private void submit(final Op op)
    {
        if (capturing == Thread.currentThread())
        {
            captured.add(op.copy());
            op.clear();
            free.offer(op);
            return;
        }
        while (!pending.offer(op))
        {
            Thread.onSpinWait();
        }
    }

    private void copy(final Op.Direction direction, final long destination, final long source, final long bytes)
    {
        final Op op = claim(Op.Kind.COPY);
        op.direction = direction;
        op.destination = destination;
        op.source = source;
        op.bytes = bytes;
        submit(op);
    }

    @Override
    public void copyToDevice(final long device, final long host, final long bytes)
    {
        copy(Op.Direction.H2D, device, host, bytes);
    }

    @Override
    public void copyToHost(final long host, final long device, final long bytes)
    {
        copy(Op.Direction.D2H, host, device, bytes);
    }

    @Override
    public void copyOnDevice(final long destination, final long source, final long bytes)
    {
        copy(Op.Direction.D2D, destination, source, bytes);
    }

    @Override
    public void record(final DeviceEvent event)
    {
        final Op op = claim(Op.Kind.RECORD);
        op.event = (SimulatedEvent)event;
        op.generation = op.event.nextGeneration();
        submit(op);
    }

    @Override
    public void waitFor(final DeviceEvent event)
    {
        final Op op = claim(Op.Kind.WAIT);
        op.event = (SimulatedEvent)event;
        // Waits for the event's latest record at the time of this call, as cudaStreamWaitEvent does.
        op.generation = op.event.currentGeneration();
        submit(op);
    }

    void infer(final SimulatedContext context, final int rows, final long input, final long output)
    {
        final Op op = claim(Op.Kind.INFER);
        op.context = context;
        op.rows = rows;
        op.source = input;
        op.destination = output;
        submit(op);
    }

    void topK(final long logits, final long ids, final int rows, final int cols, final int k)
    {
        final Op op = claim(Op.Kind.TOPK);
        op.source = logits;
        op.destination = ids;
        op.rows = rows;
        op.cols = cols;
        op.k = k;
        submit(op);
    }

    void dense(final int kernel, final long source, final long destination, final long weights, final long aux,
        final long codes, final int rows, final int cols, final int inner, final int flags, final float scale)
    {
        final Op op = claim(Op.Kind.DENSE);
        op.kernel = kernel;
        op.source = source;
        op.destination = destination;
        op.weights = weights;
        op.aux = aux;
        op.codes = codes;
        op.rows = rows;
        op.cols = cols;
        op.inner = inner;
        op.flags = flags;
        op.scale = scale;
        submit(op);
    }

    void launch(final SimulatedGraph graph)
    {
        final Op op = claim(Op.Kind.GRAPH);
        op.graph = graph;
        gpu.spin(gpu.settings().graphLaunchNs());
        submit(op);
    }

    @Override
    public void synchronize()
    {
        record(syncEvent);
        syncEvent.synchronize();
    }

    @Override
    public void beginCapture()
    {
        gpu.checkCurrent();
        if (capturing != null)
        {
            throw new DeviceException("cudaStreamBeginCapture: the stream is already capturing");
        }
        captured = new ArrayList<>();
        capturing = Thread.currentThread();
    }

    @Override
    public DeviceGraph endCapture()
    {
        if (capturing != Thread.currentThread())
        {
            throw new DeviceException("cudaStreamEndCapture: this thread is not capturing on the stream");
        }
        capturing = null;
        final SimulatedGraph graph = new SimulatedGraph(gpu, captured);
        captured = null;
        gpu.graphCreated();
        return graph;
    }

    @Override
    public long handle()
    {
        return thread.threadId();
    }

    private void run()
    {
        final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 50_000);
        while (running)
        {
            final Op op = pending.poll();
            if (op == null)
            {
                idle.idle();
                continue;
            }
            idle.reset();
            try
            {
                execute(op);
            }
            catch (final RuntimeException ex)
            {
                // A fault of the device, not of this thread: sticky, and the stream goes on so no waiter hangs.
                gpu.fail(new DeviceException("simulated " + op.kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " failed on GPU " + gpu.ordinal() + ": " + ex, ex));
            }
            op.clear();
            free.offer(op);
        }
    }

    private void execute(final Op op)
    {
        switch (op.kind)
        {
            case COPY -> executeCopy(op);
            case RECORD -> op.event.complete(op.generation, System.nanoTime());
            case WAIT ->
            {
                for (int spins = 0; running && !op.event.reached(op.generation); spins++)
                {
                    if (spins < 100)
                    {
                        Thread.onSpinWait();
                    }
                    else
                    {
                        LockSupport.parkNanos(10_000);
                    }
                }
            }
            case INFER -> gpu.runInference(op.context, op.rows, op.source, op.destination);
            case TOPK -> executeTopK(op);
            case DENSE ->
            {
                if (!gpu.failed())
                {
                    SimulatedDenseKernels.execute(gpu, op, EVERYTHING);
                }
            }
            case GRAPH ->
            {
                gpu.graphLaunched(op.graph);
                for (final Op captured : op.graph.ops)
                {
                    execute(captured);
                }
            }
            default -> throw new IllegalStateException("unknown op " + op.kind);
        }
    }

    private void executeCopy(final Op op)
    {
        if (gpu.failed())
        {
            return;
        }
        try
        {
            gpu.checkCopy(op.direction, op.destination, op.source, op.bytes);
        }
        catch (final DeviceException ex)
        {
            gpu.fail(ex);
            return;
        }
        MemorySegment.copy(EVERYTHING, op.source, EVERYTHING, op.destination, op.bytes);
        gpu.sleepFor(op.bytes);
    }

    private void executeTopK(final Op op)
    {
        if (gpu.failed())
        {
            return;
        }
        gpu.topKRan();
        TopK.compute(EVERYTHING.asSlice(op.source, (long)op.rows * op.cols * Float.BYTES),
            EVERYTHING.asSlice(op.destination, (long)op.rows * op.k * Integer.BYTES), op.rows, op.cols, op.k);
    }

    @Override
    public void close()
    {
        running = false;
        try
        {
            thread.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        gpu.streamClosed();
    }
}
