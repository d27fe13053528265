package org.jloadgen.sut.tensorrt.device;

/**
 * A CUDA stream: work enqueued on it runs in order, asynchronously to the host. Enqueuing allocates nothing. One
 * thread at a time enqueues on a stream, except where the SUT says otherwise.
 */
public interface DeviceStream extends AutoCloseable
{
    /**
     * @param device destination (device memory).
     * @param host   source (pinned, registered or pageable host memory).
     * @param bytes  size.
     */
    void copyToDevice(long device, long host, long bytes);

    /**
     * @param host   destination (host memory).
     * @param device source (device memory).
     * @param bytes  size.
     */
    void copyToHost(long host, long device, long bytes);

    /**
     * @param destination device memory.
     * @param source      device memory.
     * @param bytes       size.
     */
    void copyOnDevice(long destination, long source, long bytes);

    /**
     * Records an event after the work enqueued so far.
     *
     * @param event the event.
     */
    void record(DeviceEvent event);

    /**
     * Makes later work on this stream wait for an event recorded on another ({@code cudaStreamWaitEvent}).
     *
     * @param event the event.
     */
    void waitFor(DeviceEvent event);

    /**
     * Waits for everything enqueued so far.
     */
    void synchronize();

    /**
     * Starts capturing this thread's work on the stream into a graph instead of running it.
     */
    void beginCapture();

    /**
     * Ends the capture.
     *
     * @return the captured work, instantiated, to launch on any stream.
     */
    DeviceGraph endCapture();

    /**
     * @return the raw handle ({@code cudaStream_t}) for kernels launched from outside the backend.
     */
    long handle();

    /**
     * Destroys the stream.
     */
    @Override
    void close();
}
