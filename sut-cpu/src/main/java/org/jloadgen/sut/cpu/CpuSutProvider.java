package org.jloadgen.sut.cpu;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.spi.TensorSpec;
import org.jloadgen.sut.SutStatistics;

/**
 * {@code --sut cpu}: an ONNX model on ONNX Runtime (CPU) over a dataset the sample store loads, or the embedded
 * Fashion-MNIST model when no model, dataset or descriptor is given. Options: {@link CpuSutOptions}.
 */
public final class CpuSutProvider implements SutProvider
{
    /** The name given to {@code --sut}. */
    public static final String NAME = "cpu";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public String description()
    {
        return "an ONNX model on ONNX Runtime (CPU) with dynamic batching and worker threads: --model-file, "
            + "--dataset, --labels or --descriptor, --sut-opt batch=,timeout-us=,workers=,intra-op-threads=,pin=; "
            + "without a model, the embedded Fashion-MNIST MLP";
    }

    @Override
    public java.util.List<org.jloadgen.sut.SutOption> options()
    {
        return CpuSutOptions.OPTIONS;
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        return instance(CpuSutOptions.parse(context.options(), context.scenario()));
    }

    /**
     * Opens the SUT the options describe.
     *
     * @param options parsed options.
     * @return the SUT with its QSL and accuracy scoring.
     */
    public static Instance instance(final CpuSutOptions options)
    {
        ModelDescriptor model = options.model();
        if (model == null)
        {
            final ModelDescriptor embedded = FashionMnist.prepare(
                options.cacheDir() != null ? options.cacheDir() : FashionMnist.defaultCacheDir());
            model = options.sutName() == null ? embedded : embedded.withSutName(options.sutName());
        }
        return new Instance(CpuSut.open(model, options.inference()));
    }

    /**
     * The CPU SUT as the command line runs it: the SUT, its sample library, and top-1 scoring of its accuracy
     * logs when labels are known.
     */
    public static final class Instance implements SutInstance
    {
        private final CpuSut sut;

        /**
         * @param sut an open SUT; closed with this instance.
         */
        public Instance(final CpuSut sut)
        {
            this.sut = sut;
        }

        /**
         * @return the CPU SUT itself.
         */
        public CpuSut cpuSut()
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
            return sut.library();
        }

        @Override
        public Optional<String> accuracyReport(final Path accuracyLog)
        {
            return sut.hasLabels() ? Optional.of(sut.accuracy(accuracyLog).describe()) : Optional.empty();
        }

        @Override
        public Optional<SutStatistics> statistics()
        {
            return Optional.of(sut.statistics());
        }

        @Override
        public Optional<TensorSpec> inputTensor()
        {
            // The dataset fills the model's dynamic dimensions: those are the samples the SUT was checked against.
            final OnnxModel model = sut.model();
            final long[] sampleShape = sut.library().store().source().sampleShape(0);
            return Optional.of(new TensorSpec(model.inputName(), sut.library().store().source().dtype(),
                sampleShape));
        }

        @Override
        public Optional<TensorSpec> outputTensor()
        {
            final OnnxModel model = sut.model();
            final long[] shape = model.outputShape();
            return Optional.of(new TensorSpec(model.outputName(), TensorTypes.dtype(model.outputType()),
                Arrays.copyOfRange(shape, 1, shape.length)));
        }

        @Override
        public void close()
        {
            sut.close();
        }
    }
}
