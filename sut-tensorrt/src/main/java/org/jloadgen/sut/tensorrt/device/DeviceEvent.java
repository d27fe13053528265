package org.jloadgen.sut.tensorrt.device;

/**
 * A CUDA event: marks a point in a stream's work. Querying and waiting allocate nothing.
 */
public interface DeviceEvent extends AutoCloseable
{
    /**
     * @return whether the work before the last record has completed ({@code cudaEventQuery}).
     * @throws DeviceException when that work failed.
     */
    boolean isComplete();

    /**
     * Waits for the work before the last record ({@code cudaEventSynchronize}).
     *
     * @throws DeviceException when that work failed.
     */
    void synchronize();

    /**
     * @param start an earlier event of the same device, both completed, both timing events.
     * @return nanoseconds from {@code start} to this event (the device's timer: about 0.5 us resolution).
     */
    long elapsedNs(DeviceEvent start);

    /**
     * Destroys the event.
     */
    @Override
    void close();
}
