package org.jloadgen.sut.network.client;

import java.nio.file.Path;
import java.util.Optional;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.accuracy.Labels;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.network.SutOptions;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;

/**
 * {@code --sut network}: loads a cluster of KServe v2 gRPC inference servers (Triton, KServe, OpenVINO Model
 * Server, {@code jloadgen serve}) as one Network-division SUT. Options: {@link NetworkSutOptions} and
 * {@link Dataset}.
 */
public final class NetworkSutProvider implements SutProvider
{
    /** The name given to {@code --sut}. */
    public static final String NAME = "network";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public String description()
    {
        return "a cluster of KServe v2 gRPC inference servers (Triton, jloadgen serve...) as one Network SUT: "
            + "--sut-opt endpoints=host:port,...,model=NAME [--dataset FILE or sample-bytes=N] [inflight=N, "
            + "balance=least-outstanding|round-robin, tls=true, timeout-ms=...]";
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final SutOptions o = new SutOptions(NAME, context.options());
        final NetworkSutOptions options = NetworkSutOptions.parse(o);
        final Dataset.Spec data = Dataset.spec(o);
        o.finish();
        final int[] labels = options.labels() == null ? null : Labels.read(options.labels());
        final Cluster cluster = Cluster.connect(options);
        SampleStoreLibrary library = null;
        try
        {
            library = data.open(context.qslTotalCount(), context.qslPerformanceCount());
            if (labels != null && labels.length < library.totalSampleCount())
            {
                throw new IllegalArgumentException("labels " + options.labels() + " has " + labels.length
                    + " labels but the dataset has " + library.totalSampleCount() + " samples");
            }
            final Cluster.Input input = cluster.checkInput(options, library.store().source());
            final ModelInferRequest.Builder template = ModelInferRequest.newBuilder().setModelName(options.model())
                .setModelVersion(options.modelVersion());
            if (input.output() != null)
            {
                template.addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName(input.output()));
            }
            final NetworkQsl qsl = new NetworkQsl(library, template.build(), input.name(), input.datatype(),
                input.batchAxis());
            return new Instance(new NetworkSut(cluster, qsl, options, input.output()), qsl, labels, options,
                input.outputDatatype());
        }
        catch (final RuntimeException ex)
        {
            cluster.close();
            if (library != null)
            {
                library.close();
            }
            throw ex;
        }
    }

    /**
     * The network SUT as the command line runs it, with top-1 scoring when labels are given.
     */
    static final class Instance implements SutInstance
    {
        private final NetworkSut sut;
        private final NetworkQsl qsl;
        private final int[] labels;
        private final NetworkSutOptions options;
        private final String outputDatatype;

        Instance(final NetworkSut sut, final NetworkQsl qsl, final int[] labels, final NetworkSutOptions options,
            final String outputDatatype)
        {
            this.sut = sut;
            this.qsl = qsl;
            this.labels = labels;
            this.options = options;
            this.outputDatatype = outputDatatype;
        }

        /**
         * @return the network SUT.
         */
        NetworkSut networkSut()
        {
            return sut;
        }

        @Override
        public SystemUnderTest sut()
        {
            return sut;
        }

        @Override
        public QuerySampleLibrary qsl()
        {
            return qsl;
        }

        @Override
        public Optional<String> accuracyReport(final Path accuracyLog)
        {
            if (labels == null)
            {
                return Optional.empty();
            }
            final ClassificationAccuracy.DataType type = switch (outputDatatype == null ? "" : outputDatatype)
            {
                case "FP32" -> ClassificationAccuracy.DataType.FLOAT32;
                case "INT32" -> ClassificationAccuracy.DataType.INT32;
                case "INT64" -> ClassificationAccuracy.DataType.INT64;
                default -> ClassificationAccuracy.DataType.AUTO;
            };
            return Optional.of(ClassificationAccuracy.score(accuracyLog, labels, type, options.labelOffset())
                .describe());
        }

        @Override
        public void close()
        {
            // Which node answered what: the first thing to read when a cluster run goes wrong.
            final String failure = sut.failure();
            System.err.println("jloadgen: network SUT: " + (failure != null ? failure + "\n" : "")
                + sut.describeNodes().replaceAll("(?m)^", "  "));
            sut.close();
        }
    }
}
