package org.jloadgen.sut.tensorrt.simulated;

import java.util.List;

import org.jloadgen.sut.tensorrt.device.DeviceGraph;
import org.jloadgen.sut.tensorrt.device.DeviceStream;

/**
 * Ops captured from a simulated stream, replayed in order by one launch.
 */
final class SimulatedGraph implements DeviceGraph
{
    final List<Op> ops;
    private final SimulatedGpu gpu;
    private final int rows;

    SimulatedGraph(final SimulatedGpu gpu, final List<Op> ops)
    {
        this.gpu = gpu;
        this.ops = List.copyOf(ops);
        this.rows = ops.stream().filter(op -> op.kind == Op.Kind.INFER).mapToInt(op -> op.rows).max().orElse(0);
    }

    /**
     * @return the batch size its inference was captured with (0 without one).
     */
    int rows()
    {
        return rows;
    }

    @Override
    public void launch(final DeviceStream stream)
    {
        ((SimulatedStream)stream).launch(this);
    }

    @Override
    public void close()
    {
        gpu.graphClosed();
    }
}
