package org.jloadgen.sut.tensorrt;

import java.util.Optional;

import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.tensorrt.cuda.CublasBackend;
import org.jloadgen.sut.tensorrt.cuda.CudaBackend;
import org.jloadgen.sut.tensorrt.cuda.CudaProbe;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;
import org.jloadgen.sut.tensorrt.simulated.SimulatedDenseBackend;

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
    public java.util.List<org.jloadgen.sut.SutOption> options()
    {
        return TensorRtOptions.OPTIONS;
    }

    @Override
    public String description()
    {
        return "an ONNX model on TensorRT 10 + CUDA (JavaCPP) with per-GPU copy/inference streams, CUDA graphs and "
            + "device top-k: --model-file, --dataset, --labels, --sut-opt batch=,copy-streams=,graphs=,"
            + "start-from-device=,postprocess=,backend=cublas (no TensorRT),simulated (no GPU); see "
            + "sut-tensorrt/README.md";
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final TensorRtOptions options = TensorRtOptions.parse(context.options(), context.scenario());
        final TensorRtSut sut = TensorRtSut.open(options, backend(options, System.out), System.out);
        return SutInstance.of(sut, sut.library(), sut, sut.statistics(),
            log -> sut.hasLabels() ? Optional.of(sut.accuracy(log).describe()) : Optional.empty());
    }

    /**
     * @param options parsed options.
     * @return the backend they name (the fallback to cuBLAS announced on standard output).
     * @throws IllegalArgumentException saying what is missing for CUDA.
     */
    public static DeviceBackend backend(final TensorRtOptions options)
    {
        return backend(options, System.out);
    }

    /**
     * @param options parsed options.
     * @param console where the fallback from TensorRT to cuBLAS is announced, or {@code null}.
     * @return the backend they name: a simulated device, TensorRT or cuBLAS after the probe; {@code cuda} takes
     *         TensorRT where the probe finds it, else cuBLAS where that is there (and no TensorRT-only option was
     *         given).
     * @throws IllegalArgumentException saying what is missing for CUDA.
     */
    static DeviceBackend backend(final TensorRtOptions options, final java.io.PrintStream console)
    {
        return switch (options.backend())
        {
            case SIMULATED -> new SimulatedBackend(options.simulation());
            case CUBLAS_SIMULATED -> new SimulatedDenseBackend(options.simulation());
            case TENSORRT -> CudaBackend.open();
            case CUBLAS -> CublasBackend.open();
            case CUDA ->
            {
                final CudaProbe.Result tensorRt = CudaProbe.run();
                if (tensorRt.usable() || !options.tensorRtOnly().isEmpty() || !CudaProbe.runCublas().usable())
                {
                    yield CudaBackend.open();
                }
                if (console != null)
                {
                    console.println("jloadgen: tensorrt: " + tensorRt.problem().replace(" " + CudaProbe.HINT + ".", "")
                        + " -- the cublas backend runs the model instead (--sut-opt backend=tensorrt insists on "
                        + "TensorRT)");
                }
                yield CublasBackend.open();
            }
        };
    }
}
