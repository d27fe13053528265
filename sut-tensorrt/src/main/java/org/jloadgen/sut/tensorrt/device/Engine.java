package org.jloadgen.sut.tensorrt.device;

import java.util.List;

/**
 * A deserialized engine on one device.
 */
public interface Engine extends AutoCloseable
{
    /**
     * @return its input and output tensors (batch axis first, dynamic dimensions negative).
     */
    List<EngineTensor> tensors();

    /**
     * @return its optimization profiles.
     */
    int profiles();

    /**
     * @param input   an input tensor.
     * @param profile a profile.
     * @return the largest batch the profile accepts for that input (the fixed batch dimension when not dynamic).
     */
    long maxBatch(String input, int profile);

    /**
     * @param profile the optimization profile the context uses (one context per profile at a time).
     * @param stream  the stream the profile is selected on.
     * @return a new execution context with its own activation memory.
     */
    ExecutionContext newContext(int profile, DeviceStream stream);

    /**
     * Frees the engine.
     */
    @Override
    void close();
}
