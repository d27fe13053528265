package org.jloadgen.sut.tensorrt.device;

/**
 * One device: memory, streams, events and the post-processing kernel. Thread use: a thread that issues work for this
 * device calls {@link #makeCurrent()} once first.
 */
public interface Gpu extends AutoCloseable
{
    /**
     * @return the device ordinal.
     */
    int ordinal();

    /**
     * @return e.g. {@code NVIDIA H100 80GB HBM3}.
     */
    String name();

    /**
     * @return what an engine built on this device is tied to (name and compute capability, e.g.
     *         {@code NVIDIA H100 80GB HBM3 sm_90}): part of the engine cache key.
     */
    String identity();

    /**
     * Binds the calling thread to this device ({@code cudaSetDevice}).
     */
    void makeCurrent();

    /**
     * @return a new non-blocking stream.
     */
    DeviceStream newStream();

    /**
     * @param timing        whether {@link DeviceEvent#elapsedNs} works (timing events cost a little more).
     * @param blockingSync  whether {@link DeviceEvent#synchronize()} sleeps instead of spinning.
     * @return a new event.
     */
    DeviceEvent newEvent(boolean timing, boolean blockingSync);

    /**
     * @param bytes size.
     * @return the address of new device memory.
     * @throws DeviceException when the device is out of memory.
     */
    long allocate(long bytes);

    /**
     * @param bytes size.
     * @return the address of new pinned host memory (readable by the host, DMA-able by the device).
     */
    long allocatePinned(long bytes);

    /**
     * @param address from {@link #allocate}.
     */
    void free(long address);

    /**
     * @param address from {@link #allocatePinned}.
     */
    void freePinned(long address);

    /**
     * Pins existing host memory in place ({@code cudaHostRegister}, portable to every device), so that copies from it
     * are DMA without a staging copy; close the result to unpin.
     *
     * @param address start.
     * @param bytes   size.
     * @return the registration.
     * @throws DeviceException when the memory cannot be pinned.
     */
    AutoCloseable register(long address, long bytes);

    /**
     * Enqueues the top-k post-processing kernel ({@code libjlg_cuda.so}): {@code ids[r * k + j]} = the j-th best
     * column of row r of {@code rows x cols} float32 logits. Allocates nothing.
     *
     * @param stream the stream.
     * @param logits device address of the logits.
     * @param ids    device address of {@code rows x k} int32 ids.
     * @param rows   rows.
     * @param cols   columns.
     * @param k      ids per row.
     */
    void topK(DeviceStream stream, long logits, long ids, int rows, int cols, int k);

    /**
     * @return whether {@link #topK} can run (the kernel library is loaded).
     */
    boolean hasTopK();

    /**
     * Frees the device's streams and memory still held by the backend.
     */
    @Override
    void close();
}
