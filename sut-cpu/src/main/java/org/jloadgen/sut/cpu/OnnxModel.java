package org.jloadgen.sut.cpu;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.SutDataset;

/**
 * An ONNX model loaded into one ONNX Runtime CPU session, shared by every worker ({@code OrtSession.run} is
 * thread-safe), with the one input the samples feed and the one output returned as the response. Everything that
 * can be checked before a run is checked here, with messages that name the file and the tensor: the file exists
 * and parses, the input and output exist and are tensors of a type the Java API handles, and the first input axis
 * is the batch axis.
 */
public final class OnnxModel implements SutDataset.ModelInput, AutoCloseable
{
    /** ONNX Runtime's session config key for intra-op thread spinning. */
    static final String SPINNING_CONFIG = "session.intra_op.allow_spinning";

    private final Path file;
    private final OrtEnvironment env;
    private final OrtSession session;
    private final String inputName;
    private final String outputName;
    private final OnnxJavaType inputType;
    private final long[] inputShape;
    private final OnnxJavaType outputType;
    private final long[] outputShape;

    private OnnxModel(final Path file, final OrtEnvironment env, final OrtSession session, final String inputName,
        final TensorInfo input, final String outputName, final TensorInfo output)
    {
        this.file = file;
        this.env = env;
        this.session = session;
        this.inputName = inputName;
        this.outputName = outputName;
        this.inputType = input.type;
        this.inputShape = input.getShape();
        this.outputType = output.type;
        this.outputShape = output.getShape();
    }

    /**
     * Loads a model.
     *
     * @param file           the ONNX file.
     * @param inputName      the input to feed, or {@code null} for the model's only input.
     * @param outputName     the output to return, or {@code null} for its first output.
     * @param intraOpThreads ONNX Runtime threads per run (the calling worker included).
     * @param spinning       whether the intra-op threads spin between runs.
     * @return the model.
     * @throws IllegalArgumentException when the file is missing or is not a model this SUT can run, saying why.
     */
    public static OnnxModel open(final Path file, final String inputName, final String outputName,
        final int intraOpThreads, final boolean spinning)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("model file not found: " + file);
        }
        final OrtEnvironment env = OrtEnvironment.getEnvironment();
        final OrtSession session;
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions())
        {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(1);
            options.addConfigEntry(SPINNING_CONFIG, spinning ? "1" : "0");
            session = env.createSession(file.toString(), options);
        }
        catch (final OrtException ex)
        {
            throw new IllegalArgumentException("cannot load ONNX model " + file + ": " + message(ex), ex);
        }
        try
        {
            final Map<String, NodeInfo> inputs = session.getInputInfo();
            final Map<String, NodeInfo> outputs = session.getOutputInfo();
            final String in = pick(file, "input", inputName, inputs, true);
            final String out = pick(file, "output", outputName, outputs, false);
            final TensorInfo input = tensor(file, "input", in, inputs.get(in));
            final TensorInfo output = tensor(file, "output", out, outputs.get(out));
            if (input.getShape().length == 0)
            {
                throw new IllegalArgumentException(file + ": input '" + in + "' is a scalar; the cpu SUT needs a "
                    + "batch axis first, e.g. [N,3,224,224]");
            }
            if (output.getShape().length == 0)
            {
                throw new IllegalArgumentException(file + ": output '" + out + "' is a scalar; the cpu SUT needs one "
                    + "row per sample, e.g. [N,1000]");
            }
            final long batchDim = input.getShape()[0];
            if (batchDim > 1)
            {
                throw new IllegalArgumentException(file + ": input '" + in + "' " + TensorTypes.format(
                    input.getShape(), "N") + " has a fixed batch axis of " + batchDim + "; export the model with a "
                    + "dynamic batch axis (or 1)");
            }
            return new OnnxModel(file, env, session, in, input, out, output);
        }
        catch (final OrtException ex)
        {
            closeQuietly(session);
            throw new IllegalArgumentException("cannot inspect ONNX model " + file + ": " + message(ex), ex);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(session);
            throw ex;
        }
    }

    private static String pick(final Path file, final String what, final String requested,
        final Map<String, NodeInfo> nodes, final boolean onlyOne)
    {
        if (requested != null)
        {
            if (!nodes.containsKey(requested))
            {
                throw new IllegalArgumentException(file + " has no " + what + " '" + requested + "'; its " + what
                    + "s: " + nodes.keySet());
            }
            if (onlyOne && nodes.size() > 1)
            {
                throw new IllegalArgumentException(file + " has " + nodes.size() + " inputs " + nodes.keySet()
                    + "; the cpu SUT feeds exactly one");
            }
            return requested;
        }
        if (nodes.isEmpty())
        {
            throw new IllegalArgumentException(file + " has no " + what);
        }
        if (onlyOne && nodes.size() > 1)
        {
            throw new IllegalArgumentException(file + " has " + nodes.size() + " inputs " + nodes.keySet()
                + "; the cpu SUT feeds exactly one");
        }
        return nodes.keySet().iterator().next();
    }

    private static TensorInfo tensor(final Path file, final String what, final String name, final NodeInfo node)
    {
        if (!(node.getInfo() instanceof final TensorInfo info))
        {
            throw new IllegalArgumentException(file + ": " + what + " '" + name + "' is not a tensor: "
                + node.getInfo());
        }
        if (info.type == OnnxJavaType.STRING || info.type == OnnxJavaType.UNKNOWN
            || info.type == OnnxJavaType.BFLOAT16 && what.equals("input"))
        {
            throw new IllegalArgumentException(file + ": " + what + " '" + name + "' holds "
                + TensorTypes.name(info.type) + " elements, which the cpu SUT cannot pass through");
        }
        return info;
    }

    /**
     * Checks that samples fit the input: same element type, and each known dimension after the batch axis equal.
     *
     * @param dtype   the samples' dtype.
     * @param shape   one sample's shape.
     * @param dataset what the samples are, for the message.
     * @throws IllegalArgumentException saying what differs.
     */
    @Override
    public void checkSamples(final DType dtype, final long[] shape, final String dataset)
    {
        final String expected = "model " + file.getFileName() + " input '" + inputName + "' expects "
            + TensorTypes.name(inputType) + " " + describeShape();
        SutDataset.checkSampleFits(dtype, shape, TensorTypes.onnxType(dtype) == inputType ? dtype : null,
            inputShape, expected, dataset);
    }

    @Override
    public DType dtype()
    {
        return TensorTypes.dtype(inputType);
    }

    @Override
    public String describeShape()
    {
        return TensorTypes.format(inputShape, "N");
    }

    /**
     * @return the model file.
     */
    public Path file()
    {
        return file;
    }

    /**
     * @return the ONNX Runtime environment.
     */
    public OrtEnvironment env()
    {
        return env;
    }

    /**
     * @return the session, shared by all workers.
     */
    public OrtSession session()
    {
        return session;
    }

    /**
     * @return the input's name.
     */
    public String inputName()
    {
        return inputName;
    }

    /**
     * @return the output's name.
     */
    public String outputName()
    {
        return outputName;
    }

    /**
     * @return the input's element type.
     */
    public OnnxJavaType inputType()
    {
        return inputType;
    }

    /**
     * @return the input's shape, batch axis first; -1 marks a dynamic dimension.
     */
    public long[] inputShape()
    {
        return inputShape.clone();
    }

    /**
     * @return the output's element type.
     */
    public OnnxJavaType outputType()
    {
        return outputType;
    }

    /**
     * @return the output's shape, batch axis first; -1 marks a dynamic dimension.
     */
    public long[] outputShape()
    {
        return outputShape.clone();
    }

    @Override
    public long[] fixedSampleShape()
    {
        final long[] shape = Arrays.copyOfRange(inputShape, 1, inputShape.length);
        return Arrays.stream(shape).allMatch(d -> d >= 0) ? shape : null;
    }

    /**
     * @return whether the batch axis is fixed at 1, so batches hold one sample.
     */
    public boolean batchOfOne()
    {
        return inputShape[0] == 1;
    }

    /**
     * @return bytes of one sample's output row when all dimensions after the batch axis are fixed, else -1 (the
     *         row size is then read from each batch's result).
     */
    public long outputRowBytes()
    {
        long elements = 1;
        for (int i = 1; i < outputShape.length; i++)
        {
            if (outputShape[i] < 0)
            {
                return -1;
            }
            elements = Math.multiplyExact(elements, outputShape[i]);
        }
        return Math.multiplyExact(elements, (long)outputType.size);
    }

    /**
     * @return e.g. {@code model.onnx: pixels uint8 [N,1,28,28] -> logits float32 [N,10]}.
     */
    public String describe()
    {
        return file.getFileName() + ": " + inputName + " " + TensorTypes.name(inputType) + " "
            + TensorTypes.format(inputShape, "N") + " -> " + outputName + " " + TensorTypes.name(outputType) + " "
            + TensorTypes.format(outputShape, "N");
    }

    /**
     * Closes the session (the environment is process-wide and stays).
     */
    @Override
    public void close()
    {
        closeQuietly(session);
    }

    /**
     * @param ex an ONNX Runtime error.
     * @return its message without the Java class name.
     */
    static String message(final OrtException ex)
    {
        final String m = ex.getMessage();
        return m == null ? ex.toString() : m.strip();
    }

    private static void closeQuietly(final OrtSession session)
    {
        try
        {
            session.close();
        }
        catch (final OrtException | IllegalStateException ex)
        {
            // Closing twice or a failing close leaves nothing more to free.
        }
    }
}
