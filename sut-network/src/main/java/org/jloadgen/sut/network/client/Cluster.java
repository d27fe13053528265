package org.jloadgen.sut.network.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleSource;
import org.jloadgen.sut.network.kserve.Datatypes;
import org.jloadgen.sut.network.kserve.Shapes;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataResponse;
import org.jloadgen.sut.network.kserve.proto.ModelReadyRequest;
import org.jloadgen.sut.network.kserve.proto.ServerLiveRequest;
import org.jloadgen.sut.network.kserve.proto.ServerMetadataRequest;
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

    /**
     * How the samples are sent: the input's name and datatype, and whether the model has a batch axis.
     *
     * @param name      input tensor.
     * @param datatype  KServe datatype of the samples.
     * @param batchAxis whether requests carry a batch axis of 1.
     * @param output    the output read from answers, or {@code null} for the first.
     * @param outputDatatype the output's datatype on the first node, or {@code null} when unknown.
     */
    record Input(String name, String datatype, boolean batchAxis, String output, String outputDatatype)
    {
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
            return new Member(endpoint, channels, name, metadata);
        }
        catch (final StatusRuntimeException ex)
        {
            throw new IllegalArgumentException(where + " failed a health or metadata call: "
                + NetworkSut.describe(ex.getStatus()), ex);
        }
    }

    private static GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub deadline(
        final GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub stub, final NetworkSutOptions options)
    {
        return stub.withDeadlineAfter(options.requestTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Picks the input and checks that every node takes the samples unchanged.
     *
     * @param options the client's options.
     * @param source  the samples.
     * @return how requests are built.
     * @throws IllegalArgumentException naming the node, tensor, datatype or shape that does not fit.
     */
    Input checkInput(final NetworkSutOptions options, final SampleSource source)
    {
        final DType dtype = source.dtype();
        final String datatype;
        try
        {
            datatype = Datatypes.of(dtype);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("dataset " + source.description() + ": " + ex.getMessage(), ex);
        }
        final long[] sampleShape = source.sampleShape(0);
        Boolean batchAxis = null;
        String inputName = options.input();
        String outputDatatype = null;
        for (final Member m : members)
        {
            final ModelMetadataResponse meta = m.metadata();
            final String who = "node " + m.describe() + ", model '" + options.model() + "'";
            final ModelMetadataResponse.TensorMetadata input = input(meta, inputName, who);
            inputName = input.getName();
            if (!input.getDatatype().equals(datatype))
            {
                throw new IllegalArgumentException(who + ": input '" + inputName + "' is " + input.getDatatype()
                    + " but the samples are " + dtype + " (" + datatype + "); the client sends samples unconverted, "
                    + "so give a dataset of " + input.getDatatype());
            }
            final long[] shape = Shapes.of(input.getShapeList());
            final boolean batched = Shapes.fits(shape, Shapes.batched(1, sampleShape));
            if (!batched && !Shapes.fits(shape, sampleShape))
            {
                throw new IllegalArgumentException(who + ": input '" + inputName + "' has shape "
                    + Shapes.format(shape) + " but a sample is " + Shapes.format(sampleShape) + " ("
                    + source.description() + ")");
            }
            if (batchAxis != null && batchAxis != batched)
            {
                throw new IllegalArgumentException(who + ": input '" + inputName + "' " + (batched ? "has" : "lacks")
                    + " a batch axis, unlike the first node's");
            }
            batchAxis = batched;
            if (options.output() != null && meta.getOutputsList().stream()
                .noneMatch(o -> o.getName().equals(options.output())))
            {
                throw new IllegalArgumentException(who + " has no output '" + options.output() + "'; it has "
                    + meta.getOutputsList().stream().map(ModelMetadataResponse.TensorMetadata::getName).toList());
            }
            if (outputDatatype == null)
            {
                outputDatatype = meta.getOutputsList().stream()
                    .filter(o -> options.output() == null || o.getName().equals(options.output()))
                    .map(ModelMetadataResponse.TensorMetadata::getDatatype).findFirst().orElse(null);
            }
        }
        return new Input(inputName, datatype, batchAxis != null && batchAxis, options.output(), outputDatatype);
    }

    private static ModelMetadataResponse.TensorMetadata input(final ModelMetadataResponse meta, final String name,
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
