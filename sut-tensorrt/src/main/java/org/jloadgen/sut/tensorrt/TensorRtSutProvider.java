package org.jloadgen.sut.tensorrt;

import java.nio.file.Path;
import java.util.Optional;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.cuda.CudaBackend;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;

/**
 * {@code --sut tensorrt}: an ONNX model (or a serialized engine) on TensorRT and CUDA, on every GPU, with NVIDIA's
 * LWIS design; {@code --sut-opt backend=simulated} runs the same pipeline on simulated devices. Options:
 * {@link TensorRtOptions} and {@code sut-tensorrt/README.md}. On a machine without a usable GPU it stops before
 * the run with what is missing (the command exits 2).
 */
public final class TensorRtSutProvider implements SutProvider
{
    /** The name given to {@code --sut}. */
    public static final String NAME = "tensorrt";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public String description()
    {
        return "an ONNX model on TensorRT 10 + CUDA (JavaCPP) with per-GPU copy/inference streams, CUDA graphs and "
            + "device top-k: --model-file, --dataset, --labels, --sut-opt batch=,copy-streams=,graphs=,"
            + "start-from-device=,postprocess=,backend=simulated (no GPU); see sut-tensorrt/README.md";
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final TensorRtOptions options = TensorRtOptions.parse(context.options(), context.scenario());
        final DeviceBackend backend = options.backend() == TensorRtOptions.Backend.SIMULATED
            ? new SimulatedBackend(options.simulation()) : CudaBackend.open();
        return new Instance(TensorRtSut.open(options, backend, System.out));
    }

    /**
     * The TensorRT SUT as the command line runs it.
     */
    public static final class Instance implements SutInstance
    {
        private final TensorRtSut sut;

        /**
         * @param sut an open SUT; closed with this instance.
         */
        public Instance(final TensorRtSut sut)
        {
            this.sut = sut;
        }

        /**
         * @return the SUT.
         */
        public TensorRtSut tensorRtSut()
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
        public void close()
        {
            sut.close();
        }
    }
}
