package org.jloadgen.sut.tensorrt.simulated;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceException;

/**
 * A simulated CUDA event: each record takes the next generation; the stream's thread marks the generation complete
 * (with a timestamp) when it reaches the record. Complete means the last recorded generation is.
 */
final class SimulatedEvent implements DeviceEvent
{
    private final SimulatedGpu gpu;
    private final boolean timing;
    private final AtomicLong recorded = new AtomicLong();
    private volatile long completed;
    private volatile long timeNs;

    SimulatedEvent(final SimulatedGpu gpu, final boolean timing)
    {
        this.gpu = gpu;
        this.timing = timing;
    }

    long nextGeneration()
    {
        return recorded.incrementAndGet();
    }

    long currentGeneration()
    {
        return recorded.get();
    }

    void complete(final long generation, final long nowNs)
    {
        timeNs = nowNs;
        completed = generation;
    }

    boolean reached(final long generation)
    {
        return completed >= generation;
    }

    @Override
    public boolean isComplete()
    {
        gpu.throwIfFailed();
        return completed >= recorded.get();
    }

    @Override
    public void synchronize()
    {
        // Like a blocking-sync event: a short spin, then sleeps; allocation-free, so a completion thread may wait here.
        for (int spins = 0; !isComplete(); spins++)
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

    @Override
    public long elapsedNs(final DeviceEvent start)
    {
        final SimulatedEvent from = (SimulatedEvent)start;
        if (!timing || !from.timing)
        {
            throw new DeviceException("cudaEventElapsedTime: an event was created with cudaEventDisableTiming");
        }
        return timeNs - from.timeNs;
    }

    @Override
    public void close()
    {
        gpu.eventClosed();
    }
}
