package org.jloadgen.sut.tensorrt.device;

/**
 * Captured, instantiated work (a CUDA graph): one launch replays it with the shapes and addresses it was captured
 * with.
 */
public interface DeviceGraph extends AutoCloseable
{
    /**
     * @param stream where to run it.
     */
    void launch(DeviceStream stream);

    /**
     * Destroys the graph.
     */
    @Override
    void close();
}
