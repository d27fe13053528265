package org.jloadgen.sut.tensorrt.simulated;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.jloadgen.sut.tensorrt.SimulationSettings;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Gpu;

/**
 * A simulated GPU. "Device memory" is off-heap memory the JVM allocates; the device checks, as a real one would
 * fault, that every copy and inference stays inside its allocations and copies in the right direction, that the
 * enqueuing thread made the device current, and it counts everything (copies, inferences by batch size, graph
 * launches, live objects) for the tests. After a failure (a bad address, {@code sim-fail-after}) it is sticky, as a
 * CUDA context is: every later query throws.
 */
public final class SimulatedGpu implements Gpu
{
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** What a region of memory is. */
    private enum Kind
    {
        DEVICE, PINNED, REGISTERED
    }

    /** An allocation or registration: [start, end). */
    private record Region(long end, Kind kind, Arena arena)
    {
    }

    private final SimulatedBackend backend;
    private final int ordinal;
    private final SimulationSettings settings;
    private final SimulatedModel model;
    private final ConcurrentSkipListMap<Long, Region> regions = new ConcurrentSkipListMap<>();
    private final AtomicInteger streamNumber = new AtomicInteger();
    private final AtomicLong h2dCopies = new AtomicLong();
    private final AtomicLong h2dBytes = new AtomicLong();
    private final AtomicLong h2dPinnedCopies = new AtomicLong();
    private final AtomicLong d2hCopies = new AtomicLong();
    private final AtomicLong d2dCopies = new AtomicLong();
    private final AtomicLong inferences = new AtomicLong();
    private final AtomicLong graphLaunches = new AtomicLong();
    private final AtomicLong topKLaunches = new AtomicLong();
    private final Map<Integer, LongAdder> batchSizes = new ConcurrentHashMap<>();
    private final AtomicInteger liveStreams = new AtomicInteger();
    private final AtomicInteger liveEvents = new AtomicInteger();
    private final AtomicInteger liveGraphs = new AtomicInteger();
    private final AtomicInteger liveContexts = new AtomicInteger();
    private final AtomicInteger liveEngines = new AtomicInteger();
    private volatile DeviceException failure;

    SimulatedGpu(final SimulatedBackend backend, final int ordinal, final SimulationSettings settings,
        final SimulatedModel model)
    {
        this.backend = backend;
        this.ordinal = ordinal;
        this.settings = settings;
        this.model = model;
    }

    SimulationSettings settings()
    {
        return settings;
    }

    SimulatedModel model()
    {
        return model;
    }

    @Override
    public int ordinal()
    {
        return ordinal;
    }

    @Override
    public String name()
    {
        return "JLoadGen simulated GPU";
    }

    @Override
    public String identity()
    {
        // Every simulated device is of one kind, as identical GPUs are: they share cached engines.
        return "JLoadGen simulated GPU sm_00";
    }

    @Override
    public void makeCurrent()
    {
        backend.currentDevice()[0] = ordinal;
    }

    /**
     * @throws DeviceException when the calling thread did not make this device current (work would go to another).
     */
    void checkCurrent()
    {
        final int current = backend.currentDevice()[0];
        if (current != ordinal)
        {
            throw new DeviceException("thread '" + Thread.currentThread().getName() + "' used GPU " + ordinal
                + " while its current device is " + (current < 0 ? "unset" : "GPU " + current)
                + " (cudaSetDevice missing)");
        }
    }

    @Override
    public DeviceStream newStream()
    {
        liveStreams.incrementAndGet();
        return new SimulatedStream(this, "simulated-gpu" + ordinal + "-stream" + streamNumber.incrementAndGet());
    }

    @Override
    public DeviceEvent newEvent(final boolean timing, final boolean blockingSync)
    {
        liveEvents.incrementAndGet();
        return new SimulatedEvent(this, timing);
    }

    @Override
    public long allocate(final long bytes)
    {
        return allocate(bytes, Kind.DEVICE);
    }

    @Override
    public long allocatePinned(final long bytes)
    {
        return allocate(bytes, Kind.PINNED);
    }

    private long allocate(final long bytes, final Kind kind)
    {
        checkCurrent();
        if (bytes <= 0)
        {
            throw new DeviceException("cudaMalloc: invalid size " + bytes);
        }
        final Arena arena = Arena.ofShared();
        final long address = arena.allocate(bytes, 256).address();
        regions.put(address, new Region(address + bytes, kind, arena));
        return address;
    }

    @Override
    public void free(final long address)
    {
        free(address, Kind.DEVICE);
    }

    @Override
    public void freePinned(final long address)
    {
        free(address, Kind.PINNED);
    }

    private void free(final long address, final Kind kind)
    {
        final Region region = regions.get(address);
        if (region == null || region.kind != kind)
        {
            throw new DeviceException((kind == Kind.DEVICE ? "cudaFree" : "cudaFreeHost") + ": 0x"
                + Long.toHexString(address) + " was not allocated as " + kind.name().toLowerCase(java.util.Locale.ROOT)
                + " memory");
        }
        regions.remove(address);
        region.arena.close();
    }

    @Override
    public AutoCloseable register(final long address, final long bytes)
    {
        checkCurrent();
        final Map.Entry<Long, Region> below = regions.floorEntry(address + bytes - 1);
        if (below != null && below.getValue().end > address)
        {
            throw new DeviceException("cudaHostRegister: [0x" + Long.toHexString(address) + ", +" + bytes
                + ") overlaps memory already registered or allocated (cudaErrorHostMemoryAlreadyRegistered)");
        }
        regions.put(address, new Region(address + bytes, Kind.REGISTERED, null));
        return () ->
        {
            if (regions.remove(address) == null)
            {
                throw new DeviceException("cudaHostUnregister: 0x" + Long.toHexString(address) + " is not registered");
            }
        };
    }

    @Override
    public void topK(final DeviceStream stream, final long logits, final long ids, final int rows, final int cols,
        final int k)
    {
        ((SimulatedStream)stream).topK(logits, ids, rows, cols, k);
    }

    @Override
    public boolean hasTopK()
    {
        return true;
    }

    /**
     * Checks that a kernel's operand lies in device memory, as a kernel that reads past its buffer faults.
     *
     * @param address the operand.
     * @param bytes   its size.
     * @param what    for the message.
     */
    void checkDeviceOperand(final long address, final long bytes, final String what)
    {
        requireDevice(address, bytes, what);
    }

    void checkCopy(final Op.Direction direction, final long destination, final long source, final long bytes)
    {
        switch (direction)
        {
            case H2D ->
            {
                requireDevice(destination, bytes, "the destination of a host-to-device copy");
                requireHost(source, bytes, "the source of a host-to-device copy");
                h2dCopies.incrementAndGet();
                h2dBytes.addAndGet(bytes);
                if (kindAt(source, bytes) != null)
                {
                    h2dPinnedCopies.incrementAndGet();
                }
            }
            case D2H ->
            {
                requireDevice(source, bytes, "the source of a device-to-host copy");
                requireHost(destination, bytes, "the destination of a device-to-host copy");
                d2hCopies.incrementAndGet();
            }
            case D2D ->
            {
                requireDevice(source, bytes, "the source of a device-to-device copy");
                requireDevice(destination, bytes, "the destination of a device-to-device copy");
                d2dCopies.incrementAndGet();
            }
            default -> throw new IllegalStateException("unknown direction " + direction);
        }
    }

    private Kind kindAt(final long address, final long bytes)
    {
        final Map.Entry<Long, Region> region = regions.floorEntry(address);
        return region != null && address + bytes <= region.getValue().end ? region.getValue().kind : null;
    }

    private void requireDevice(final long address, final long bytes, final String what)
    {
        if (kindAt(address, bytes) != Kind.DEVICE)
        {
            throw new DeviceException("illegal address: " + what + " [0x" + Long.toHexString(address) + ", +" + bytes
                + ") is not inside one device allocation of GPU " + ordinal);
        }
    }

    private void requireHost(final long address, final long bytes, final String what)
    {
        final Map.Entry<Long, Region> region = regions.floorEntry(address + bytes - 1);
        if (region != null && region.getValue().kind == Kind.DEVICE && region.getValue().end > address)
        {
            throw new DeviceException("invalid copy direction: " + what + " [0x" + Long.toHexString(address)
                + ", +" + bytes + ") is device memory");
        }
    }

    void runInference(final SimulatedContext context, final int rows, final long input, final long output)
    {
        if (failed())
        {
            return;
        }
        final long done = inferences.incrementAndGet();
        batchSizes.computeIfAbsent(rows, r -> new LongAdder()).increment();
        if (settings.failAfterBatches() > 0 && done > settings.failAfterBatches())
        {
            fail(new DeviceException("simulated inference failure on GPU " + ordinal + " after "
                + settings.failAfterBatches() + " inferences (sim-fail-after)"));
            return;
        }
        try
        {
            requireDevice(input, rows * context.sampleBytes(), "the input of an inference");
            requireDevice(output, rows * context.outputRowBytes(), "the output of an inference");
        }
        catch (final DeviceException ex)
        {
            fail(ex);
            return;
        }
        context.engine.model().infer(EVERYTHING.asSlice(input, rows * context.sampleBytes()),
            EVERYTHING.asSlice(output, rows * context.outputRowBytes()), rows);
        sleepNs(settings.inferFixedNs() + settings.inferPerSampleNs() * rows);
    }

    void sleepFor(final long copyBytes)
    {
        if (settings.copyBytesPerUs() > 0)
        {
            sleepNs((long)(copyBytes / settings.copyBytesPerUs() * 1_000));
        }
    }

    private static void sleepNs(final long ns)
    {
        if (ns > 0)
        {
            LockSupport.parkNanos(ns);
        }
    }

    /**
     * Busy-waits on the calling thread: the host cost of an enqueue or a graph launch.
     *
     * @param ns how long.
     */
    void spin(final long ns)
    {
        if (ns > 0)
        {
            final long end = System.nanoTime() + ns;
            while (System.nanoTime() - end < 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    void fail(final DeviceException ex)
    {
        if (failure == null)
        {
            failure = ex;
        }
    }

    boolean failed()
    {
        return failure != null;
    }

    void throwIfFailed()
    {
        final DeviceException failed = failure;
        if (failed != null)
        {
            throw new DeviceException(failed.getMessage(), failed);
        }
    }

    void graphLaunched(final SimulatedGraph graph)
    {
        graphLaunches.incrementAndGet();
    }

    void topKRan()
    {
        topKLaunches.incrementAndGet();
    }

    void streamClosed()
    {
        liveStreams.decrementAndGet();
    }

    void eventClosed()
    {
        liveEvents.decrementAndGet();
    }

    void graphCreated()
    {
        liveGraphs.incrementAndGet();
    }

    void graphClosed()
    {
        liveGraphs.decrementAndGet();
    }

    void contextCreated()
    {
        liveContexts.incrementAndGet();
    }

    void contextClosed()
    {
        liveContexts.decrementAndGet();
    }

    void engineCreated()
    {
        liveEngines.incrementAndGet();
    }

    void engineClosed()
    {
        liveEngines.decrementAndGet();
    }

    /**
     * @return host-to-device copies so far.
     */
    public long h2dCopies()
    {
        return h2dCopies.get();
    }

    /**
     * @return bytes copied host to device.
     */
    public long h2dBytes()
    {
        return h2dBytes.get();
    }

    /**
     * @return host-to-device copies whose source was pinned or registered memory.
     */
    public long h2dPinnedCopies()
    {
        return h2dPinnedCopies.get();
    }

    /**
     * @return device-to-host copies so far.
     */
    public long d2hCopies()
    {
        return d2hCopies.get();
    }

    /**
     * @return device-to-device copies so far.
     */
    public long d2dCopies()
    {
        return d2dCopies.get();
    }

    /**
     * @return inferences run (graph launches included).
     */
    public long inferences()
    {
        return inferences.get();
    }

    /**
     * @return graph launches run.
     */
    public long graphLaunches()
    {
        return graphLaunches.get();
    }

    /**
     * @return top-k kernels run (inside graphs included).
     */
    public long topKLaunches()
    {
        return topKLaunches.get();
    }

    /**
     * @return inferences by the batch size the device ran (a graph runs its captured size).
     */
    public Map<Integer, Long> inferencesBySize()
    {
        final Map<Integer, Long> sizes = new TreeMap<>();
        batchSizes.forEach((size, count) -> sizes.put(size, count.sum()));
        return sizes;
    }

    /**
     * @return host memory regions registered now.
     */
    public long registeredRegions()
    {
        return regions.values().stream().filter(r -> r.kind == Kind.REGISTERED).count();
    }

    /**
     * @return streams, events, graphs, contexts, engines and memory allocations alive now, e.g.
     *         {@code streams 0, events 0, graphs 0, contexts 0, engines 0, allocations 0}.
     */
    public String liveObjects()
    {
        return "streams " + liveStreams.get() + ", events " + liveEvents.get() + ", graphs " + liveGraphs.get()
            + ", contexts " + liveContexts.get() + ", engines " + liveEngines.get() + ", allocations "
            + regions.values().stream().filter(r -> r.kind != Kind.REGISTERED).count();
    }

    @Override
    public void close()
    {
        // Streams, events and memory are freed by their owners; what is left shows in liveObjects().
    }
}
