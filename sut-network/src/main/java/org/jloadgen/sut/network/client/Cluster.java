package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.SutDataset;
import org.jloadgen.sut.network.kserve.Datatypes;
import org.jloadgen.sut.network.kserve.Shapes;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataResponse;
import org.jloadgen.sut.network.kserve.proto.ModelReadyRequest;
import org.jloadgen.sut.network.kserve.proto.ServerLiveRequest;
import org.jloadgen.sut.network.kserve.proto.ServerMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ModelStreamInferResponse;
import org.jloadgen.sut.network.kserve.proto.ServerReadyRequest;

/**
 * Connects to every node before a run and checks, with the protocol's own health and metadata calls, that each
 * is live and ready, serves the model, and takes the samples as they are (datatype and shape): whatever is wrong
 * stops the run before it starts, with the node's name and address in the message.
 */
final class Cluster implements AutoCloseable
{
    /** Pause between attempts to reach a node that is not up yet. */
    static final long RETRY_PAUSE_MS = 100;

    private final List<Member> members;

    /**
     * A connected node.
     *
     * @param endpoint   {@code host:port}.
     * @param channels   its channels.
     * @param serverName its ServerMetadata name.
     * @param metadata   its ModelMetadata for the model.
     */
    record Member(String endpoint, ManagedChannel[] channels, String serverName, ModelMetadataResponse metadata)
    {
        String describe()
        {
            return "'" + serverName + "' (" + endpoint + ")";
        }
    }

    private Cluster(final List<Member> members)
    {
        this.members = List.copyOf(members);
    }

    /**
     * Connects to the nodes and checks them.
     *
     * @param options the client's options.
     * @return the connected nodes.
     * @throws IllegalArgumentException naming the node that is not reachable, not ready or lacks the model.
     */
    static Cluster connect(final NetworkSutOptions options)
    {
        final List<Member> members = new ArrayList<>();
        try
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.connectTimeoutMs());
            for (final String endpoint : options.endpoints())
            {
                final ManagedChannel[] channels = new ManagedChannel[options.connections()];
                for (int i = 0; i < channels.length; i++)
                {
                    channels[i] = channel(endpoint, options);
                }
                try
                {
                    members.add(check(endpoint, channels, options, deadlineNs));
                }
                catch (final RuntimeException ex)
                {
                    shutdown(channels);
                    throw ex;
                }
            }
            return new Cluster(members);
        }
        catch (final RuntimeException ex)
        {
            members.forEach(m -> shutdown(m.channels()));
            throw ex;
        }
    }

    private static ManagedChannel channel(final String endpoint, final NetworkSutOptions options)
    {
        final ChannelCredentials credentials;
        if (options.tls())
        {
            final TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder();
            if (options.tlsCa() != null)
            {
                try
                {
                    tls.trustManager(options.tlsCa().toFile());
                }
                catch (final IOException ex)
                {
                    throw new IllegalArgumentException("cannot read tls-ca " + options.tlsCa() + ": " + ex.getMessage(),
                        ex);
                }
            }
            credentials = tls.build();
        }
        else
        {
            credentials = InsecureChannelCredentials.create();
        }
        final ManagedChannelBuilder<?> builder = Grpc.newChannelBuilder(endpoint, credentials)
            // Listeners run on the transport's event loop: the answer completes the sample with no hand-off.
            .directExecutor()
            .maxInboundMessageSize(options.maxMessageBytes());
        if (options.tlsAuthority() != null)
        {
            builder.overrideAuthority(options.tlsAuthority());
        }
        return builder.build();
    }

    private static Member check(final String endpoint, final ManagedChannel[] channels,
        final NetworkSutOptions options, final long deadlineNs)
    {
        final ManagedChannel control = channels[0];
        final String where = "node " + endpoint;
        // Fail-fast calls, retried while the node may still be starting, so the error says why it is unreachable.
        StatusRuntimeException last = null;
        while (true)
        {
            try
            {
                final boolean live = GRPCInferenceServiceGrpc.newBlockingStub(control)
                    .withDeadlineAfter(Math.max(1, options.requestTimeoutMs()), TimeUnit.MILLISECONDS)
                    .serverLive(ServerLiveRequest.getDefaultInstance()).getLive();
                if (live)
                {
                    break;
                }
            }
            catch (final StatusRuntimeException ex)
            {
                last = ex;
            }
            if (System.nanoTime() - deadlineNs >= 0)
            {
                throw new IllegalArgumentException(where + " is not reachable within " + options.connectTimeoutMs()
                    + " ms (connect-timeout-ms): " + (last == null ? "it says it is not live"
                    : NetworkSut.describe(last.getStatus())));
            }
            sleep(RETRY_PAUSE_MS);
            control.resetConnectBackoff();
        }
        final GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub stub =
            GRPCInferenceServiceGrpc.newBlockingStub(control);
        try
        {
            final String name = deadline(stub, options).serverMetadata(ServerMetadataRequest.getDefaultInstance())
                .getName();
            final String who = "node '" + name + "' (" + endpoint + ")";
            if (!deadline(stub, options).serverReady(ServerReadyRequest.getDefaultInstance()).getReady())
            {
                throw new IllegalArgumentException(who + " is live but not ready");
            }
            final String model = options.model() + (options.modelVersion().isEmpty() ? ""
                : " version " + options.modelVersion());
            final boolean ready;
            try
            {
                ready = deadline(stub, options).modelReady(ModelReadyRequest.newBuilder().setName(options.model())
                    .setVersion(options.modelVersion()).build()).getReady();
            }
            catch (final StatusRuntimeException ex)
            {
                throw new IllegalArgumentException(who + " does not serve model '" + model + "': "
                    + NetworkSut.describe(ex.getStatus()), ex);
            }
            if (!ready)
            {
                throw new IllegalArgumentException(who + " has model '" + model + "' but it is not ready");
            }
            final ModelMetadataResponse metadata = deadline(stub, options).modelMetadata(ModelMetadataRequest
                .newBuilder().setName(options.model()).setVersion(options.modelVersion()).build());
            if (options.stream())
            {
                checkStreaming(control, who, options);
            }
            return new Member(endpoint, channels, name, metadata);
        }
        catch (final StatusRuntimeException ex)
        {
            throw new IllegalArgumentException(where + " failed a health or metadata call: "
                + NetworkSut.describe(ex.getStatus()), ex);
        }
    }

    /**
     * Opens a {@code ModelStreamInfer} stream and ends it at once: a server without the extension refuses it.
     */
    private static void checkStreaming(final ManagedChannel control, final String who, final NetworkSutOptions options)
    {
        final CompletableFuture<Status> closed = new CompletableFuture<>();
        final StreamObserver<ModelInferRequest> requests = GRPCInferenceServiceGrpc.newStub(control)
            .withDeadlineAfter(options.requestTimeoutMs(), TimeUnit.MILLISECONDS)
            .modelStreamInfer(new StreamObserver<>()
            {
                @Override
                public void onNext(final ModelStreamInferResponse value)
                {
                    // No request was sent: nothing comes.
                }

                @Override
                public void onError(final Throwable t)
                {
                    closed.complete(Status.fromThrowable(t));
                }

                @Override
                public void onCompleted()
                {
                    closed.complete(Status.OK);
                }
            });
        requests.onCompleted();
        Status status;
        try
        {
            status = closed.get(options.requestTimeoutMs() + 1_000, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking " + who, ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            status = Status.DEADLINE_EXCEEDED.withDescription("no end of the stream within "
                + options.requestTimeoutMs() + " ms");
        }
        if (!status.isOk())
        {
            throw new IllegalArgumentException(who + " does not take ModelStreamInfer (Triton's streaming extension; "
                + "drop stream=true): " + NetworkSut.describe(status));
        }
    }

    private static GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub deadline(
        final GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub stub, final NetworkSutOptions options)
    {
        return stub.withDeadlineAfter(options.requestTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Picks the model input every request carries: {@code input=}, or the model's only input.
     *
     * @param options the client's options.
     * @return the input as the nodes describe it; {@link ModelInput#checkSamples} then checks the samples.
     * @throws IllegalArgumentException naming the node whose model lacks the input or has several.
     */
    ModelInput input(final NetworkSutOptions options)
    {
        String name = options.input();
        for (final Member m : members)
        {
            final String who = "node " + m.describe() + ", model '" + options.model() + "'";
            name = inputNamed(m.metadata(), name, who).getName();
            if (options.output() != null && m.metadata().getOutputsList().stream()
                .noneMatch(o -> o.getName().equals(options.output())))
            {
                throw new IllegalArgumentException(who + " has no output '" + options.output() + "'; it has "
                    + m.metadata().getOutputsList().stream().map(ModelMetadataResponse.TensorMetadata::getName)
                        .toList());
            }
        }
        return new ModelInput(name, options);
    }

    /**
     * The model input as the first node describes it (the toolkit's defaults for raw datasets come from it), and the
     * check that every node takes the samples as they are: same datatype, a shape that fits with or without a
     * batch axis of 1.
     */
    final class ModelInput implements SutDataset.ModelInput
    {
        private final String name;
        private final NetworkSutOptions options;
        private final ModelMetadataResponse.TensorMetadata first;
        private String datatype;
        private boolean batchAxis;

        private ModelInput(final String name, final NetworkSutOptions options)
        {
            this.name = name;
            this.options = options;
            this.first = tensor(members.get(0));
        }

        private ModelMetadataResponse.TensorMetadata tensor(final Member m)
        {
            return m.metadata().getInputsList().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow();
        }

        /**
         * @return the input's name.
         */
        String name()
        {
            return name;
        }

        /**
         * @return the samples' KServe datatype (after {@link #checkSamples}).
         */
        String datatype()
        {
            return datatype;
        }

        /**
         * @return whether requests carry a batch axis of 1 (after {@link #checkSamples}).
         */
        boolean batchAxis()
        {
            return batchAxis;
        }

        /**
         * @return the datatype of the output read from answers on the first node, or {@code null}.
         */
        String outputDatatype()
        {
            return members.get(0).metadata().getOutputsList().stream()
                .filter(o -> options.output() == null || o.getName().equals(options.output()))
                .map(ModelMetadataResponse.TensorMetadata::getDatatype).findFirst().orElse(null);
        }

        @Override
        public DType dtype()
        {
            final DType dtype = Datatypes.dtype(first.getDatatype());
            if (dtype == null)
            {
                throw new IllegalArgumentException("input '" + name + "' is " + first.getDatatype() + ", which no "
                    + "sample file holds");
            }
            return dtype;
        }

        @Override
        public long[] fixedSampleShape()
        {
            final long[] shape = Shapes.of(first.getShapeList());
            // A leading -1 is the batch axis (Triton's models with a max batch size).
            final long[] sample = shape.length > 0 && shape[0] < 0 ? Arrays.copyOfRange(shape, 1, shape.length) : shape;
            return Arrays.stream(sample).allMatch(d -> d >= 0) ? sample : null;
        }

        @Override
        public String describeShape()
        {
            return "'" + name + "' " + first.getDatatype() + " " + Shapes.format(Shapes.of(first.getShapeList()));
        }

        @Override
        public void checkSamples(final DType dtype, final long[] sampleShape, final String dataset)
        {
            final String sampleDatatype;
            try
            {
                sampleDatatype = Datatypes.of(dtype);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException("dataset " + dataset + ": " + ex.getMessage(), ex);
            }
            Boolean batched = null;
            for (final Member m : members)
            {
                final ModelMetadataResponse.TensorMetadata input = tensor(m);
                final String who = "node " + m.describe() + ", model '" + options.model() + "', input '" + name + "'";
                if (!input.getDatatype().equals(sampleDatatype))
                {
                    throw new IllegalArgumentException(who + " is " + input.getDatatype() + " but the samples of "
                        + dataset + " are " + dtype + " (" + sampleDatatype + "); the client sends samples "
                        + "unconverted, so give a dataset of " + input.getDatatype());
                }
                final long[] shape = Shapes.of(input.getShapeList());
                final boolean withBatch = Shapes.fits(shape, Shapes.batched(1, sampleShape));
                if (!withBatch && !Shapes.fits(shape, sampleShape))
                {
                    throw new IllegalArgumentException(who + " has shape " + Shapes.format(shape) + " but a sample of "
                        + dataset + " is " + Shapes.format(sampleShape));
                }
                if (batched != null && batched != withBatch)
                {
                    throw new IllegalArgumentException(who + " " + (withBatch ? "has" : "lacks") + " a batch axis, "
                        + "unlike the first node's");
                }
                batched = withBatch;
            }
            datatype = sampleDatatype;
            batchAxis = batched != null && batched;
        }
    }

    private static ModelMetadataResponse.TensorMetadata inputNamed(final ModelMetadataResponse meta, final String name,
        final String who)
    {
        final List<ModelMetadataResponse.TensorMetadata> inputs = meta.getInputsList();
        if (name != null)
        {
            return inputs.stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(who + " has no input '" + name + "'; it has "
                    + inputs.stream().map(ModelMetadataResponse.TensorMetadata::getName).toList()));
        }
        if (inputs.size() != 1)
        {
            throw new IllegalArgumentException(who + " has " + inputs.size() + " inputs "
                + inputs.stream().map(ModelMetadataResponse.TensorMetadata::getName).toList()
                + "; the client sends one tensor per request: name it with --sut-opt input=NAME");
        }
        return inputs.get(0);
    }

    /**
     * @return the connected nodes.
     */
    List<Member> members()
    {
        return members;
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting", ex);
        }
    }

    private static void shutdown(final ManagedChannel[] channels)
    {
        Arrays.stream(channels).filter(c -> c != null).forEach(ManagedChannel::shutdownNow);
    }

    /**
     * Closes every connection (when the SUT cannot be built after all).
     */
    @Override
    public void close()
    {
        members.forEach(m -> shutdown(m.channels()));
    }
}
