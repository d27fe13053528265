package org.jloadgen.sut.tensorrt.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * Says whether this machine can run the CUDA backend, before JavaCPP's loader is touched (its JNI glue needs
 * {@code libcuda.so.1}, and fails with an {@link UnsatisfiedLinkError} that does not say what to install). Through
 * FFM only: the NVIDIA driver library {@code libcuda.so.1} ({@code cuInit}, device count, the CUDA version the
 * driver supports), the CUDA 13 runtime {@code libcudart.so.13}, and TensorRT 10 ({@code libnvinfer.so.10} with its
 * version, {@code libnvonnxparser.so.10}). Each step that fails says what is missing and stops the probe.
 */
public final class CudaProbe
{
    /** The driver library. */
    public static final String DRIVER_LIBRARY = "libcuda.so.1";
    /** The CUDA runtime the JavaCPP presets (cuda 13.1) link. */
    public static final String RUNTIME_LIBRARY = "libcudart.so.13";
    /** TensorRT. */
    public static final String TENSORRT_LIBRARY = "libnvinfer.so.10";
    /** cuBLAS, which the cublas backend needs instead of TensorRT. */
    public static final String CUBLAS_LIBRARY = "libcublas.so.13";
    /** cuBLAS's Lt library, which libcublas loads. */
    public static final String CUBLAS_LT_LIBRARY = "libcublasLt.so.13";
    /** TensorRT's ONNX parser. */
    public static final String ONNX_PARSER_LIBRARY = "libnvonnxparser.so.10";
    /** The lowest driver CUDA version the CUDA 13 runtime runs on (13.0). */
    public static final int MIN_DRIVER_CUDA_VERSION = 13_000;
    /** The TensorRT major version the presets are built for. */
    public static final int TENSORRT_MAJOR = 10;
    /** How to run without a GPU, added to every failure. */
    public static final String HINT = "--sut-opt backend=simulated runs the same pipeline on a simulated device";

    private CudaProbe()
    {
    }

    /**
     * What the probe found.
     *
     * @param usable        whether every step passed.
     * @param problem       what is missing, when not usable.
     * @param devices       CUDA devices (0 when the driver is missing).
     * @param driverCuda    the CUDA version the driver supports, e.g. 13000.
     * @param tensorRt      TensorRT's version, e.g. {@code 10.15.1}, or {@code null}.
     */
    public record Result(boolean usable, String problem, int devices, int driverCuda, String tensorRt)
    {
        /**
         * @return e.g. {@code driver for CUDA 13.0, 2 GPUs, TensorRT 10.15.1}.
         */
        public String describe()
        {
            return usable ? String.format(Locale.ROOT, "driver for CUDA %d.%d, %d GPU%s, %s",
                driverCuda / 1000, driverCuda % 1000 / 10, devices, devices == 1 ? "" : "s", tensorRt == null
                    ? "cuBLAS 13 (no TensorRT needed)" : "TensorRT " + tensorRt) : problem;
        }
    }

    /**
     * Prints what the probe found for each backend ({@code sut-tensorrt/gpu-check} and the device bundle's
     * {@code run} start with this): exit code 0 when the backend asked for can run, 2 when not.
     *
     * @param args {@code --tensorrt} (the default) or {@code --cublas}.
     */
    public static void main(final String[] args)
    {
        final boolean cublas = args.length > 0 && "--cublas".equals(args[0]);
        final Result tensorRt = run();
        final Result dense = runCublas();
        System.out.println("gpu-check: CUDA probe, TensorRT backend: " + tensorRt.describe());
        System.out.println("gpu-check: CUDA probe, cublas backend: " + dense.describe());
        System.exit((cublas ? dense : tensorRt).usable() ? 0 : 2);
    }

    /**
     * Runs the probe for the cublas backend (driver, CUDA runtime, cuBLAS; no TensorRT) with the process's library
     * path.
     *
     * @return the result; never throws.
     */
    public static Result runCublas()
    {
        return runCublas(CudaProbe::lookup);
    }

    /**
     * Runs the probe for the cublas backend with a given way of opening libraries.
     *
     * @param libraries opens a library by file name.
     * @return the result; never throws.
     */
    public static Result runCublas(final Libraries libraries)
    {
        try
        {
            return probe(libraries, false);
        }
        catch (final Throwable t)
        {
            return failed("probing CUDA failed unexpectedly: " + t, 0, 0);
        }
    }

    /**
     * Runs the probe with the process's library path.
     *
     * @return the result; never throws.
     */
    public static Result run()
    {
        return run(CudaProbe::lookup);
    }

    /**
     * Runs the probe with a given way of opening libraries (tests give one that finds nothing, or fakes).
     *
     * @param libraries opens a library by file name, or returns empty when it is not there.
     * @return the result; never throws.
     */
    public static Result run(final Libraries libraries)
    {
        try
        {
            return probe(libraries, true);
        }
        catch (final Throwable t)
        {
            return failed("probing CUDA failed unexpectedly: " + t, 0, 0);
        }
    }

    /**
     * Opens shared libraries by name.
     */
    @FunctionalInterface
    public interface Libraries
    {
        /**
         * @param fileName e.g. {@code libcuda.so.1}.
         * @return its symbols, or empty when it cannot be opened.
         */
        Optional<SymbolLookup> open(String fileName);
    }

    private static Result probe(final Libraries libraries, final boolean tensorRtNeeded) throws Throwable
    {
        final Optional<SymbolLookup> driver = libraries.open(DRIVER_LIBRARY);
        if (driver.isEmpty())
        {
            return failed("the NVIDIA driver library " + DRIVER_LIBRARY + " was not found: --sut tensorrt needs an "
                + "NVIDIA GPU with its driver installed (and the library on the loader's path)", 0, 0);
        }
        final SymbolLookup cuda = driver.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
            final int init = (int)handle(cuda, "cuInit", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT)).invokeExact(0);
            if (init != 0)
            {
                return failed("cuInit failed: " + driverError(cuda, init, arena) + "; no usable NVIDIA GPU", 0, 0);
            }
            final int version = (int)handle(cuda, "cuDriverGetVersion", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS)).invokeExact(out);
            final int driverCuda = version == 0 ? out.get(ValueLayout.JAVA_INT, 0) : 0;
            final int count = (int)handle(cuda, "cuDeviceGetCount", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS)).invokeExact(out);
            final int devices = count == 0 ? out.get(ValueLayout.JAVA_INT, 0) : 0;
            if (count != 0 || devices == 0)
            {
                return failed("the NVIDIA driver sees no GPU" + (count != 0 ? " (cuDeviceGetCount: "
                    + driverError(cuda, count, arena) + ")" : ""), 0, driverCuda);
            }
            if (driverCuda < MIN_DRIVER_CUDA_VERSION)
            {
                return failed(String.format(Locale.ROOT, "the NVIDIA driver supports CUDA %d.%d, the CUDA 13 runtime "
                    + "needs a driver for CUDA 13.0 or newer: update the driver", driverCuda / 1000,
                    driverCuda % 1000 / 10), devices, driverCuda);
            }
            if (libraries.open(RUNTIME_LIBRARY).isEmpty())
            {
                return failed("the CUDA 13 runtime " + RUNTIME_LIBRARY + " was not found: install the CUDA 13 "
                    + "runtime and put its lib64 folder on LD_LIBRARY_PATH", devices, driverCuda);
            }
            if (!tensorRtNeeded)
            {
                for (final String library : new String[] {CUBLAS_LT_LIBRARY, CUBLAS_LIBRARY})
                {
                    if (libraries.open(library).isEmpty())
                    {
                        return failed("cuBLAS (" + library + ") was not found: install CUDA 13's cuBLAS (or a Python "
                            + "environment's nvidia cuBLAS wheel) and put its lib folder on LD_LIBRARY_PATH", devices,
                            driverCuda);
                    }
                }
                return new Result(true, null, devices, driverCuda, null);
            }
            final Optional<SymbolLookup> nvinfer = libraries.open(TENSORRT_LIBRARY);
            if (nvinfer.isEmpty())
            {
                return failed("TensorRT 10 (" + TENSORRT_LIBRARY + ") was not found: install TensorRT 10 and put its "
                    + "lib folder on LD_LIBRARY_PATH", devices, driverCuda);
            }
            final int trt = (int)handle(nvinfer.get(), "getInferLibVersion", FunctionDescriptor.of(
                ValueLayout.JAVA_INT)).invokeExact();
            final String tensorRt = tensorRtVersion(trt);
            if (trt / 10_000 != TENSORRT_MAJOR)
            {
                return failed("TensorRT " + tensorRt + " was found, the presets need TensorRT " + TENSORRT_MAJOR,
                    devices, driverCuda);
            }
            if (libraries.open(ONNX_PARSER_LIBRARY).isEmpty())
            {
                return failed("TensorRT's ONNX parser " + ONNX_PARSER_LIBRARY + " was not found (it ships with "
                    + "TensorRT 10)", devices, driverCuda);
            }
            return new Result(true, null, devices, driverCuda, tensorRt);
        }
    }

    private static Result failed(final String problem, final int devices, final int driverCuda)
    {
        return new Result(false, problem + ". " + HINT + ".", devices, driverCuda, null);
    }

    /**
     * @param version {@code getInferLibVersion()}: major x 10000 + minor x 100 + patch.
     * @return e.g. {@code 10.15.1}.
     */
    public static String tensorRtVersion(final int version)
    {
        return version / 10_000 + "." + version / 100 % 100 + "." + version % 100;
    }

    private static MethodHandle handle(final SymbolLookup library, final String name,
        final FunctionDescriptor descriptor)
    {
        final MemorySegment symbol = library.find(name).orElseThrow(() ->
            new IllegalStateException("symbol " + name + " is missing"));
        return Linker.nativeLinker().downcallHandle(symbol, descriptor);
    }

    private static String driverError(final SymbolLookup cuda, final int code, final Arena arena)
    {
        String name = "";
        try
        {
            final MemorySegment text = arena.allocate(ValueLayout.ADDRESS);
            final int ok = (int)handle(cuda, "cuGetErrorName", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS)).invokeExact(code, text);
            if (ok == 0)
            {
                name = " " + text.get(ValueLayout.ADDRESS, 0).reinterpret(256).getString(0);
            }
        }
        catch (final Throwable t)
        {
            // The name is a courtesy; the code says it all.
        }
        return "CUDA error " + code + name;
    }

    private static Optional<SymbolLookup> lookup(final String fileName)
    {
        try
        {
            return Optional.of(SymbolLookup.libraryLookup(fileName, Arena.global()));
        }
        catch (final IllegalArgumentException ex)
        {
            return Optional.empty();
        }
    }
}
