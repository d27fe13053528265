package org.jloadgen.sut.tensorrt.device;

/**
 * An execution context: one batch at a time of an {@link Engine}, with its own tensor addresses. Set up once
 * ({@link #prepare}, {@link #bind}); then per batch {@link #setBatch} and {@link #enqueue}, which allocate nothing.
 */
public interface ExecutionContext extends AutoCloseable
{
    /**
     * Names the input {@link #setBatch} shapes and the sample shape after its batch axis.
     *
     * @param input       the input tensor.
     * @param sampleShape one sample's shape.
     */
    void prepare(String input, long[] sampleShape);

    /**
     * Sets the prepared input's shape to {@code [n, sample shape...]}.
     *
     * @param n samples in the batch.
     */
    void setBatch(int n);

    /**
     * @param tensor  an input or output.
     * @param address its device memory.
     */
    void bind(String tensor, long address);

    /**
     * @param tensor a tensor.
     * @return its shape for the current batch.
     */
    long[] shape(String tensor);

    /**
     * Enqueues the inference of the current batch.
     *
     * @param stream the stream.
     */
    void enqueue(DeviceStream stream);

    /**
     * Frees the context.
     */
    @Override
    void close();
}
