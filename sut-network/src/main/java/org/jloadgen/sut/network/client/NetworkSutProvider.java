package org.jloadgen.sut.network.client;

import java.nio.file.Path;
import java.util.Optional;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.SutDataset;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;

/**
 * {@code --sut network}: loads a cluster of KServe v2 gRPC inference servers (Triton, KServe, OpenVINO Model
 * Server, {@code jloadgen serve}) as one Network-division SUT. Options: {@link NetworkSutOptions}; the dataset is
 * opened by the toolkit ({@link SutDataset}) and checked against the input the nodes describe.
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
    public java.util.List<org.jloadgen.sut.SutOption> options()
    {
        return NetworkSutOptions.OPTIONS;
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final NetworkSutOptions options = NetworkSutOptions.parse(context.options());
        final Cluster cluster = Cluster.connect(options);
        AutoCloseable samples = null;
        final Instance instance;
        try
        {
            final Cluster.ModelInput input = cluster.input(options);
            final SutDataset dataset;
            final SampleStoreLibrary library;
            if (options.dataset() != null)
            {
                dataset = SutDataset.open(options.dataset(), input);
                library = dataset.library();
                samples = dataset;
            }
            else
            {
                dataset = null;
                final SyntheticSource source = new SyntheticSource(context.qslTotalCount(), options.sampleBytes());
                input.checkSamples(DType.UINT8, source.sampleShape(0), source.description());
                library = new SampleStoreLibrary("SyntheticBytesQSL(" + options.sampleBytes() + " B)",
                    SampleStore.builder(source).build(), Math.min(context.qslPerformanceCount(),
                    context.qslTotalCount()));
                samples = library;
            }
            final ModelInferRequest.Builder template = ModelInferRequest.newBuilder().setModelName(options.model())
                .setModelVersion(options.modelVersion());
            if (options.output() != null)
            {
                template.addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder()
                    .setName(options.output()));
            }
            final NetworkQsl qsl = new NetworkQsl(library, samples, template.build(), input.name(), input.datatype(),
                input.batchAxis());
            final NetworkSut sut = new NetworkSut(cluster, qsl, options, options.output());
            instance = new Instance(sut, qsl, dataset, input.outputDatatype());
        }
        catch (final RuntimeException ex)
        {
            cluster.close();
            if (samples != null)
            {
                try
                {
                    samples.close();
                }
                catch (final Exception suppressed)
                {
                    ex.addSuppressed(suppressed);
                }
            }
            throw ex;
        }
        if (options.warmupMs() > 0)
        {
            final String warmed = instance.networkSut().warmUp(options.warmupMs());
            final String failure = instance.networkSut().failure();
            if (failure != null)
            {
                // Before the run: the user hears of it as of any node not fit to run, not as a run that failed.
                instance.networkSut().close();
                throw new IllegalArgumentException("a node failed during the network warm-up: " + failure);
            }
            System.err.println(ConsoleText.wrap("jloadgen: network SUT: warm-up: " + warmed, "  "));
        }
        return instance;
    }

    /**
     * The network SUT as the command line runs it, with top-1 scoring when the dataset has labels.
     */
    static final class Instance implements SutInstance
    {
        private final NetworkSut sut;
        private final NetworkQsl qsl;
        private final SutDataset dataset;
        private final String outputDatatype;

        Instance(final NetworkSut sut, final NetworkQsl qsl, final SutDataset dataset, final String outputDatatype)
        {
            this.sut = sut;
            this.qsl = qsl;
            this.dataset = dataset;
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
            if (dataset == null || !dataset.hasLabels())
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
            return Optional.of(dataset.accuracy(accuracyLog, type).describe());
        }

        @Override
        public void close()
        {
            // Which node answered what: the first thing to read when a cluster run goes wrong. A failure was said
            // once already, by the engine; these counts add up with its own.
            System.err.println(ConsoleText.wrap("jloadgen: network SUT: " + sut.describeTotals() + "\n"
                + sut.describeNodes().replaceAll("(?m)^", "  ") + sut.describeFailures(), "    "));
            sut.close();
        }
    }
}
