package org.jloadgen.sut.tensorrt.simulated;

/**
 * One unit of work on a simulated stream, pooled per stream so that enqueuing allocates nothing.
 */
final class Op
{
    /** What an op does. */
    enum Kind
    {
        /** Copy {@code bytes} from {@code source} to {@code destination}. */
        COPY,
        /** Mark {@code event} complete with {@code generation}. */
        RECORD,
        /** Wait until {@code event} reaches {@code generation}. */
        WAIT,
        /** Run {@code context}'s model on {@code rows} samples. */
        INFER,
        /** Top-k of {@code rows x cols} logits at {@code source} into {@code destination}. */
        TOPK,
        /** Run {@code graph}'s ops. */
        GRAPH,
        /** A kernel of the cublas backend's dense chain ({@code kernel}: a {@code SimulatedDenseKernels} code). */
        DENSE
    }

    /** Copy directions. */
    enum Direction
    {
        /** Host to device. */
        H2D,
        /** Device to host. */
        D2H,
        /** Device to device. */
        D2D
    }

    Kind kind;
    Direction direction;
    long destination;
    long source;
    long bytes;
    int rows;
    int cols;
    int k;
    SimulatedEvent event;
    long generation;
    SimulatedContext context;
    SimulatedGraph graph;
    int kernel;
    long weights;
    long aux;
    long codes;
    int inner;
    int flags;
    float scale;

    Op copy()
    {
        final Op op = new Op();
        op.kind = kind;
        op.direction = direction;
        op.destination = destination;
        op.source = source;
        op.bytes = bytes;
        op.rows = rows;
        op.cols = cols;
        op.k = k;
        op.event = event;
        op.generation = generation;
        op.context = context;
        op.graph = graph;
        op.kernel = kernel;
        op.weights = weights;
        op.aux = aux;
        op.codes = codes;
        op.inner = inner;
        op.flags = flags;
        op.scale = scale;
        return op;
    }

    void clear()
    {
        event = null;
        context = null;
        graph = null;
    }
}
