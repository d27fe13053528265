package org.jloadgen.sut.tensorrt.simulated;

import java.lang.foreign.MemorySegment;

import org.jloadgen.sut.tensorrt.device.EngineTensor;

/**
 * What a simulated engine computes: one input, one output, both with a dynamic batch axis. The simulated device
 * calls {@link #infer} on its inference stream's thread.
 */
public interface SimulatedModel
{
    /**
     * @return the input (batch axis first, -1).
     */
    EngineTensor input();

    /**
     * @return the output (batch axis first, -1; the rest fixed).
     */
    EngineTensor output();

    /**
     * Computes a batch.
     *
     * @param input  {@code batch} samples, back to back.
     * @param output {@code batch} output rows, back to back.
     * @param batch  samples.
     */
    void infer(MemorySegment input, MemorySegment output, int batch);
}
