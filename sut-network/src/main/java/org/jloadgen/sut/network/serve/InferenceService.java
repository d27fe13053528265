package org.jloadgen.sut.network.serve;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import org.jloadgen.engine.VersionInfo;
import org.jloadgen.sut.network.kserve.Datatypes;
import org.jloadgen.sut.network.kserve.Shapes;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;
import org.jloadgen.sut.network.kserve.proto.ModelInferResponse;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataResponse;
import org.jloadgen.sut.network.kserve.proto.ModelReadyRequest;
import org.jloadgen.sut.network.kserve.proto.ModelReadyResponse;
import org.jloadgen.sut.network.kserve.proto.ModelStreamInferResponse;
import org.jloadgen.sut.network.kserve.proto.ServerLiveRequest;
import org.jloadgen.sut.network.kserve.proto.ServerLiveResponse;
import org.jloadgen.sut.network.kserve.proto.ServerMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ServerMetadataResponse;
import org.jloadgen.sut.network.kserve.proto.ServerReadyRequest;
import org.jloadgen.sut.network.kserve.proto.ServerReadyResponse;

/**
 * The KServe v2 gRPC service of {@code jloadgen serve}: health and metadata as Triton answers them, and
 * {@code ModelInfer} checked against the served model (name, version, input name, datatype, shape and byte count)
 * before its tensor goes to the SUT through the {@link SutBridge}. Errors use the protocol's status codes:
 * NOT_FOUND for an unknown model, INVALID_ARGUMENT for a tensor that does not fit, RESOURCE_EXHAUSTED when every
 * receive slot is in use, UNAVAILABLE once the SUT failed or the server is stopping.
 */
final class InferenceService extends GRPCInferenceServiceGrpc.GRPCInferenceServiceImplBase
{
    /** The only version a served model has. */
    static final String MODEL_VERSION = "1";

    private final ServedModel model;
    private final SutBridge bridge;
    private volatile boolean stopping;
    private volatile String nodeName = "jloadgen";

    /**
     * @param model  what is served.
     * @param bridge the SUT.
     */
    InferenceService(final ServedModel model, final SutBridge bridge)
    {
        this.model = model;
        this.bridge = bridge;
    }

    /**
     * @param name the server's name (ServerMetadata); set before the server takes requests.
     */
    void nodeName(final String name)
    {
        nodeName = name;
    }

    /**
     * Refuses new inferences from now on (graceful shutdown: those in flight still complete).
     */
    void stop()
    {
        stopping = true;
    }

    private boolean ready()
    {
        return !stopping && bridge.failure() == null;
    }

    @Override
    public void serverLive(final ServerLiveRequest request, final StreamObserver<ServerLiveResponse> observer)
    {
        observer.onNext(ServerLiveResponse.newBuilder().setLive(true).build());
        observer.onCompleted();
    }

    @Override
    public void serverReady(final ServerReadyRequest request, final StreamObserver<ServerReadyResponse> observer)
    {
        observer.onNext(ServerReadyResponse.newBuilder().setReady(ready()).build());
        observer.onCompleted();
    }

    @Override
    public void modelReady(final ModelReadyRequest request, final StreamObserver<ModelReadyResponse> observer)
    {
        if (!knownModel(request.getName(), request.getVersion(), observer))
        {
            return;
        }
        observer.onNext(ModelReadyResponse.newBuilder().setReady(ready()).build());
        observer.onCompleted();
    }

    @Override
    public void serverMetadata(final ServerMetadataRequest request,
        final StreamObserver<ServerMetadataResponse> observer)
    {
        observer.onNext(ServerMetadataResponse.newBuilder().setName(nodeName).setVersion(VersionInfo.version())
            .build());
        observer.onCompleted();
    }

    @Override
    public void modelMetadata(final ModelMetadataRequest request,
        final StreamObserver<ModelMetadataResponse> observer)
    {
        if (!knownModel(request.getName(), request.getVersion(), observer))
        {
            return;
        }
        observer.onNext(ModelMetadataResponse.newBuilder().setName(model.name()).addVersions(MODEL_VERSION)
            .setPlatform(model.platform())
            .addInputs(tensor(model.inputName(), model.inputDatatype(), model.inputShape()))
            .addOutputs(tensor(model.outputName(), model.outputDatatype(), model.outputShape()))
            .build());
        observer.onCompleted();
    }

    private static ModelMetadataResponse.TensorMetadata tensor(final String name, final String datatype,
        final long[] shape)
    {
        final ModelMetadataResponse.TensorMetadata.Builder t = ModelMetadataResponse.TensorMetadata.newBuilder()
            .setName(name).setDatatype(datatype);
        for (final long d : shape)
        {
            t.addShape(d);
        }
        return t.build();
    }

    @Override
    public void modelInfer(final ModelInferRequest request, final StreamObserver<ModelInferResponse> observer)
    {
        infer(request, PendingInfer.Responder.unary(observer));
    }

    @Override
    public StreamObserver<ModelInferRequest> modelStreamInfer(
        final StreamObserver<ModelStreamInferResponse> responses)
    {
        return new StreamSession(responses);
    }

    /**
     * Checks a request and hands it to the SUT; what goes wrong is answered at once.
     */
    private void infer(final ModelInferRequest request, final PendingInfer.Responder responder)
    {
        try
        {
            checkModel(request.getModelName(), request.getModelVersion());
            if (!ready())
            {
                throw Status.UNAVAILABLE.withDescription(stopping ? "the server is shutting down"
                    : "the SUT failed: " + bridge.failureMessage()).asRuntimeException();
            }
            final int entries = checkRequest(request);
            bridge.submit(new PendingInfer(model, responder, request.getId(), entries),
                request.getRawInputContents(0));
        }
        catch (final StatusRuntimeException ex)
        {
            responder.fail(request.getId(), ex.getStatus());
        }
    }

    /**
     * One {@code ModelStreamInfer} stream (Triton's extension): each request is handled as a unary one and answered
     * on the stream, in completion order, with its id; a request's error is an {@code error_message} answer and the
     * stream goes on. Answers come from several SUT threads, so writes to the stream are serialized. When the client
     * ends its side, the stream ends once every request has been answered.
     */
    private final class StreamSession implements StreamObserver<ModelInferRequest>, PendingInfer.Responder
    {
        private final StreamObserver<ModelStreamInferResponse> responses;
        private final AtomicInteger pending = new AtomicInteger();
        private volatile boolean halfClosed;
        private boolean ended;

        StreamSession(final StreamObserver<ModelStreamInferResponse> responses)
        {
            this.responses = responses;
        }

        @Override
        public void onNext(final ModelInferRequest request)
        {
            pending.incrementAndGet();
            infer(request, this);
        }

        @Override
        public void onError(final Throwable t)
        {
            // The client went away; what is in flight is answered into a closed stream and dropped.
            synchronized (responses)
            {
                ended = true;
            }
        }

        @Override
        public void onCompleted()
        {
            halfClosed = true;
            endIfDone();
        }

        @Override
        public void respond(final ModelInferResponse response)
        {
            send(ModelStreamInferResponse.newBuilder().setInferResponse(response).build());
        }

        @Override
        public void fail(final String requestId, final Status status)
        {
            send(ModelStreamInferResponse.newBuilder().setErrorMessage(status.getCode() + ": "
                + status.getDescription()).setInferResponse(ModelInferResponse.newBuilder().setModelName(model.name())
                .setId(requestId)).build());
        }

        private void send(final ModelStreamInferResponse message)
        {
            synchronized (responses)
            {
                if (!ended)
                {
                    responses.onNext(message);
                }
            }
            pending.decrementAndGet();
            endIfDone();
        }

        private void endIfDone()
        {
            if (halfClosed && pending.get() == 0)
            {
                synchronized (responses)
                {
                    if (!ended)
                    {
                        ended = true;
                        responses.onCompleted();
                    }
                }
            }
        }
    }

    /**
     * @param request a ModelInfer request.
     * @return its batch entries.
     * @throws StatusRuntimeException INVALID_ARGUMENT naming what does not fit.
     */
    private int checkRequest(final ModelInferRequest request)
    {
        if (request.getInputsCount() != 1)
        {
            throw invalid("model '" + model.name() + "' has one input, '" + model.inputName() + "'; the request has "
                + request.getInputsCount());
        }
        final ModelInferRequest.InferInputTensor input = request.getInputs(0);
        if (!input.getName().equals(model.inputName()))
        {
            throw invalid("model '" + model.name() + "' has no input '" + input.getName() + "'; its input is '"
                + model.inputName() + "'");
        }
        if (request.getRawInputContentsCount() != 1)
        {
            throw invalid("send input '" + model.inputName() + "' in raw_input_contents (typed contents are not "
                + "supported)");
        }
        if (!input.getDatatype().equals(model.inputDatatype()))
        {
            throw invalid("input '" + model.inputName() + "' is " + model.inputDatatype() + ", the request sends "
                + input.getDatatype());
        }
        final long[] shape = Shapes.of(input.getShapeList());
        final long[] expected = model.inputShape();
        for (int i = 0; i < shape.length; i++)
        {
            if (shape[i] < 0)
            {
                throw invalid("input '" + model.inputName() + "': the request's shape " + Shapes.format(shape)
                    + " has a negative dimension (" + shape[i] + " at axis " + i + "); a request gives every "
                    + "dimension's size, 0 or more (-1 means any size only in the model's metadata)");
            }
        }
        if (!Shapes.fits(expected, shape))
        {
            throw invalid("input '" + model.inputName() + "' has shape " + Shapes.format(expected)
                + ", the request sends " + Shapes.format(shape));
        }
        if (shape[0] < 1)
        {
            throw invalid("input '" + model.inputName() + "': the request's shape " + Shapes.format(shape)
                + " is a batch of 0 samples; the batch axis (the first) must be at least 1");
        }
        if (shape[0] > bridge.slotCount())
        {
            throw invalid("a batch of " + shape[0] + " is more than the server's " + bridge.slotCount()
                + " receive slots");
        }
        final int entries = (int)shape[0];
        final ByteString raw = request.getRawInputContents(0);
        final int elementBytes = Datatypes.elementBytes(input.getDatatype());
        if (elementBytes > 0)
        {
            // Fixed-size elements (every datatype but BYTES): the tensor's bytes are its elements' bytes, exactly.
            final long needed;
            try
            {
                needed = Math.multiplyExact(Shapes.elements(shape), elementBytes);
            }
            catch (final ArithmeticException ex)
            {
                throw invalid("input '" + model.inputName() + "': the request's shape " + Shapes.format(shape)
                    + " has more elements than a tensor can hold");
            }
            if (raw.size() != needed)
            {
                throw invalid("input '" + model.inputName() + "' " + input.getDatatype() + " " + Shapes.format(shape)
                    + " needs " + needed + " bytes (" + Shapes.elements(shape) + " elements of " + elementBytes
                    + " B), raw_input_contents has " + raw.size());
            }
        }
        if (model.readsData() && raw.size() != entries * model.sampleBytes())
        {
            throw invalid("input '" + model.inputName() + "' " + Shapes.format(shape) + " needs " + entries + " x "
                + model.sampleBytes() + " bytes, raw_input_contents has " + raw.size());
        }
        final List<ModelInferRequest.InferRequestedOutputTensor> outputs = request.getOutputsList();
        for (final ModelInferRequest.InferRequestedOutputTensor o : outputs)
        {
            if (!o.getName().equals(model.outputName()))
            {
                throw invalid("model '" + model.name() + "' has no output '" + o.getName() + "'; its output is '"
                    + model.outputName() + "'");
            }
        }
        return entries;
    }

    private static StatusRuntimeException invalid(final String message)
    {
        return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
    }

    private boolean knownModel(final String name, final String version, final StreamObserver<?> observer)
    {
        try
        {
            checkModel(name, version);
            return true;
        }
        catch (final StatusRuntimeException ex)
        {
            observer.onError(ex);
            return false;
        }
    }

    private void checkModel(final String name, final String version)
    {
        if (!name.equals(model.name()))
        {
            throw Status.NOT_FOUND.withDescription("Request for unknown model: '" + name + "' is not found; node "
                + nodeName + " serves '" + model.name() + "'").asRuntimeException();
        }
        if (!version.isEmpty() && !version.equals(MODEL_VERSION))
        {
            throw Status.NOT_FOUND.withDescription("Request for unknown model: '" + name + "' version " + version
                + " is not found; node " + nodeName + " serves version " + MODEL_VERSION).asRuntimeException();
        }
    }
}
