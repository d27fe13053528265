package org.jloadgen.sut.tensorrt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.sut.tensorrt.cuda.CublasBackend;
import org.jloadgen.sut.tensorrt.cuda.CudaProbe;
import org.jloadgen.sut.tensorrt.dense.DenseBackend;
import org.jloadgen.sut.tensorrt.dense.DenseMath;
import org.jloadgen.sut.tensorrt.dense.DenseModel;
import org.jloadgen.sut.tensorrt.dense.DenseModels;
import org.jloadgen.sut.tensorrt.dense.DenseReference;
import org.jloadgen.sut.tensorrt.device.DeviceBackend;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.simulated.SimulatedDenseBackend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The GPU tests of the device bundle, runnable without Maven or JUnit ({@code sut-tensorrt/device-bundle} writes a
 * {@code run} script that starts this): the probe of both backends; the top-k kernel against {@link TopK}; the dense
 * kernels (prologue, bias/relu, softmax) and a cuBLAS GEMM against {@link DenseMath}; then a dense model (the embedded
 * Fashion-MNIST MLP) through the cublas backend against the pure-Java {@link DenseReference} (ONNX Runtime is not in
 * the bundle: it would not fit in its 60 MiB), the same top-1 for every sample, in every scenario, with and without
 * CUDA graphs, from device memory and with raw outputs; no allocation on the hot threads. Where TensorRT is
 * installed the same comparisons run through the TensorRT backend. Each check prints one {@code gpu-check:} line;
 * the figures go to a {@code key=value} file. Exit code 0 when every check passed, 1 when one failed, 2 when the
 * machine has no usable GPU stack.
 */
@Command(name = "device-check", mixinStandardHelpOptions = true,
    description = "GPU tests of the tensorrt SUT's backends (the device bundle's gpu-check).")
public final class DeviceCheck implements Callable<Integer>
{
    /** Samples whose top-1 may differ from the reference: only near-ties (see {@link #NEAR_TIE}), at most this many. */
    static final int TOLERATED_FLIPS = 5;
    /** A reference margin between the best and the second logit below which another summation order may flip. */
    static final float NEAR_TIE = 1e-3f;

    private static final Pattern ENTRY = Pattern.compile(
        "\"qsl_idx\"\\s*:\\s*(\\d+)\\s*,\\s*\"data\"\\s*:\\s*\"([0-9A-Fa-f]*)\"");

    @Option(names = "--model-file", required = true, description = "A dense ONNX model (the embedded MLP).")
    Path model;

    @Option(names = "--dataset", required = true, description = "Its samples: a raw file.")
    Path dataset;

    @Option(names = "--labels", required = true, description = "Its labels (IDX1).")
    Path labels;

    @Option(names = "--header-bytes", defaultValue = "16", description = "Bytes before the first sample.")
    long headerBytes;

    @Option(names = "--out", defaultValue = "out/device-check", description = "Log folder.")
    Path out;

    @Option(names = "--figures", description = "Append key=value figures to this file.")
    Path figuresFile;

    @Option(names = "--backend", defaultValue = "cublas", description = "cublas (a GPU), or cublas-simulated: the "
        + "same checks on the simulated device, a dry run of this check on a machine without a GPU.")
    String backend;

    @Option(names = "--samples", defaultValue = "0", description = "Samples of the dataset to use (0: all).")
    int samples;

    private final PrintStream console = System.out;
    private final Map<String, String> figures = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int passed;

    /**
     * @param args see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new DeviceCheck()).execute(args));
    }

    @Override
    public Integer call() throws IOException
    {
        final CudaProbe.Result tensorRt = CudaProbe.run();
        final CudaProbe.Result cublas = CudaProbe.runCublas();
        console.println("gpu-check: probe, TensorRT backend: " + tensorRt.describe());
        console.println("gpu-check: probe, cublas backend: " + cublas.describe());
        figures.put("probe.tensorrt", tensorRt.usable() ? tensorRt.tensorRt() : "missing");
        figures.put("probe.cublas", cublas.usable() ? "usable" : "missing");
        final boolean simulated = "cublas-simulated".equals(backend);
        if (!simulated && !"cublas".equals(backend))
        {
            throw new CommandLine.ParameterException(new CommandLine(this), "--backend must be cublas or "
                + "cublas-simulated, got '" + backend + "'");
        }
        if (!cublas.usable() && !simulated)
        {
            writeFigures();
            return 2;
        }
        if (simulated)
        {
            console.println("gpu-check: DRY RUN on the simulated device (--backend cublas-simulated): no GPU figures");
        }
        kernelChecks(simulated);
        final DenseModel dense = DenseModel.read(model);
        final Reference reference = reference(dense);
        console.printf(Locale.ROOT, "gpu-check: reference: %s, pure-Java FP32: %d of %d correct%n", dense.describe(),
            reference.correct, reference.top1.length);
        figures.put("accuracy.reference", Long.toString(reference.correct));
        backendChecks(backend, reference);
        if (tensorRt.usable() && !simulated)
        {
            backendChecks("tensorrt", reference);
        }
        else
        {
            console.println("gpu-check: TensorRT backend: skipped, TensorRT is not installed here ("
                + tensorRt.problem() + ")");
            figures.put("tests.tensorrt", "skipped (no TensorRT)");
        }
        hotPathCheck();
        figures.put("tests.passed", Integer.toString(passed));
        figures.put("tests.failed", Integer.toString(failures.size()));
        console.println("gpu-check: tests: " + passed + " passed, " + failures.size() + " failed"
            + (failures.isEmpty() ? "" : " " + failures));
        writeFigures();
        return failures.isEmpty() ? 0 : 1;
    }

    private void writeFigures() throws IOException
    {
        if (figuresFile == null)
        {
            return;
        }
        final StringBuilder text = new StringBuilder();
        figures.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(figuresFile, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND);
    }

    private void result(final String name, final boolean ok, final String detail)
    {
        console.println("gpu-check: test " + name + ": " + (ok ? "PASSED" : "FAILED") + " (" + detail + ")");
        figures.put("test." + name, ok ? "passed" : "FAILED");
        if (ok)
        {
            passed++;
        }
        else
        {
            failures.add(name);
        }
    }

    private void check(final String name, final Callable<String> test)
    {
        try
        {
            result(name, true, test.call());
        }
        catch (final AssertionError | Exception ex)
        {
            result(name, false, ex.getMessage());
        }
    }

    // ---------------------------------------------------------------- kernels

    private void kernelChecks(final boolean simulated)
    {
        try (DenseBackend dense = simulated ? new SimulatedDenseBackend(SimulationSettings.DEFAULT)
            : CublasBackend.open())
        {
            final Gpu gpu = dense.open(0);
            console.println("gpu-check: device 0: " + gpu.identity() + "; " + dense.describe());
            figures.put("gpu", gpu.identity());
            check("topk-kernel", () -> topKKernel(gpu));
            check("dense-kernels", () -> denseKernels(dense, gpu));
        }
    }

    private static String topKKernel(final Gpu gpu)
    {
        final Random random = new Random(7);
        final int rows = 1_000;
        final int cols = 1_001;
        final int k = 5;
        final long logitBytes = 4L * rows * cols;
        final long idBytes = 4L * rows * k;
        final long host = gpu.allocatePinned(logitBytes);
        final long ids = gpu.allocatePinned(idBytes);
        final long deviceLogits = gpu.allocate(logitBytes);
        final long deviceIds = gpu.allocate(idBytes);
        try (DeviceStream stream = gpu.newStream())
        {
            final MemorySegment logits = MemorySegment.ofAddress(host).reinterpret(logitBytes);
            for (long i = 0; i < (long)rows * cols; i++)
            {
                final int r = random.nextInt(100);
                logits.setAtIndex(ValueLayout.JAVA_FLOAT, i, r < 3 ? Float.NaN : r < 5 ? Float.NEGATIVE_INFINITY
                    : random.nextInt(17) - 8);
            }
            stream.copyToDevice(deviceLogits, host, logitBytes);
            gpu.topK(stream, deviceLogits, deviceIds, rows, cols, k);
            stream.copyToHost(ids, deviceIds, idBytes);
            stream.synchronize();
            final int[] expected = new int[rows * k];
            TopK.compute(logits, MemorySegment.ofArray(expected), rows, cols, k);
            final int[] actual = MemorySegment.ofAddress(ids).reinterpret(idBytes).toArray(ValueLayout.JAVA_INT);
            for (int i = 0; i < expected.length; i++)
            {
                if (expected[i] != actual[i])
                {
                    throw new AssertionError("row " + i / k + " rank " + i % k + ": kernel " + actual[i] + ", CPU "
                        + expected[i]);
                }
            }
            return rows + " rows x " + cols + " logits with ties, NaN and -inf, k " + k + ": equal to TopK";
        }
        finally
        {
            gpu.free(deviceLogits);
            gpu.free(deviceIds);
            gpu.freePinned(host);
            gpu.freePinned(ids);
        }
    }

    private static String denseKernels(final DenseBackend backend, final Gpu gpu) throws Exception
    {
        // One dense model of random weights through one context of the cublas backend, against DenseMath.
        final int rows = 37;
        final Path file = Files.createTempFile("jloadgen-dense-check", ".onnx");
        try
        {
            Files.write(file, DenseModels.randomMlp(new Random(11), 300, 70, 9));
            final DenseModel dense = DenseModel.read(file);
            final byte[] input = new byte[rows * 300];
            new Random(5).nextBytes(input);
            final float[] expected = new DenseReference(dense).infer(MemorySegment.ofArray(input), rows);
            final float[] actual = DenseModels.runOnce(backend, gpu, file, input, rows, dense.classes());
            double worst = 0;
            for (int i = 0; i < expected.length; i++)
            {
                worst = Math.max(worst, Math.abs(expected[i] - actual[i]) / Math.max(1e-3, Math.abs(expected[i])));
            }
            if (!(worst < 1e-4))
            {
                throw new AssertionError("largest relative difference " + worst + " (prologue, cuBLAS GEMM, bias/relu, "
                    + "softmax against DenseMath)");
            }
            return String.format(Locale.ROOT, "%s, %d rows: largest relative difference %.2e from DenseMath",
                dense.describe(), rows, worst);
        }
        finally
        {
            Files.deleteIfExists(file);
        }
    }

    // ---------------------------------------------------------------- backends against the reference

    /**
     * The reference's predictions.
     *
     * @param top1    per sample.
     * @param margin  per sample, best minus second logit.
     * @param correct against the labels.
     */
    private record Reference(int[] top1, float[] margin, long correct)
    {
    }

    private Reference reference(final DenseModel dense) throws IOException
    {
        final byte[] images = Files.readAllBytes(dataset);
        final byte[] labelBytes = Files.readAllBytes(labels);
        final long sampleBytes = (long)dense.features() * dense.input().elementBytes();
        final int available = (int)((images.length - headerBytes) / sampleBytes);
        final int samples = this.samples > 0 ? Math.min(this.samples, available) : available;
        final int classes = dense.classes();
        final DenseReference ref = new DenseReference(dense);
        final int[] top1 = new int[samples];
        final float[] margin = new float[samples];
        long correct = 0;
        for (int start = 0; start < samples; start += 1_000)
        {
            final int n = Math.min(1_000, samples - start);
            final float[] logits = ref.infer(MemorySegment.ofArray(images).asSlice(headerBytes + start * sampleBytes,
                n * sampleBytes), n);
            for (int r = 0; r < n; r++)
            {
                top1[start + r] = (int)DenseReference.top1(logits, r, classes);
                margin[start + r] = DenseReference.margin(logits, r, classes);
                if (labelBytes.length == available + 8 && top1[start + r] == labelBytes[8 + start + r])
                {
                    correct++;
                }
            }
        }
        return new Reference(top1, margin, correct);
    }

    private Map<String, String> options(final String backend, final String... extra)
    {
        final Map<String, String> o = new LinkedHashMap<>();
        o.put("model-file", model.toString());
        o.put("dataset", dataset.toString());
        o.put("labels", labels.toString());
        o.put("header-bytes", Long.toString(headerBytes));
        o.put("backend", backend);
        o.put("tf32", "false");
        o.put("engine-cache", out.resolve("engines").toString());
        if (samples > 0)
        {
            o.put("sample-count", Integer.toString(samples));
        }
        for (int i = 0; i < extra.length; i += 2)
        {
            o.put(extra[i], extra[i + 1]);
        }
        return o;
    }

    private static DeviceBackend open(final TensorRtOptions options)
    {
        return TensorRtSutProvider.backend(options, null);
    }

    private void backendChecks(final String backend, final Reference reference)
    {
        for (final TestScenario scenario : TestScenario.values())
        {
            compare(backend, scenario, scenario.name().toLowerCase(Locale.ROOT), reference);
        }
        compare(backend, TestScenario.SERVER, "server-no-graphs", reference, "graphs", "none");
        compare(backend, TestScenario.OFFLINE, "offline-graphs", reference, "graphs", "auto");
        compare(backend, TestScenario.OFFLINE, "offline-from-device", reference, "start-from-device", "true",
            "copy-streams", "2", "infer-streams", "2");
        compare(backend, TestScenario.SERVER, "server-from-device-graphs", reference, "start-from-device", "true",
            "graphs", "auto");
        compare(backend, TestScenario.OFFLINE, "offline-raw-outputs", reference, "postprocess", "none");
        compare(backend, TestScenario.OFFLINE, "offline-on-demand-rows", reference, "postprocess", "none",
            "raw-outputs", "on-demand");
    }

    private void compare(final String backend, final TestScenario scenario, final String variant,
        final Reference reference, final String... extra)
    {
        final String name = backend + "-" + variant;
        check(name, () ->
        {
            final TensorRtOptions options = TensorRtOptions.parse(options(backend, extra), scenario);
            try (TensorRtSut sut = TensorRtSut.open(options, open(options), null))
            {
                final TestResult result = run(sut, new TestSettings().scenario(scenario)
                    .mode(TestMode.ACCURACY_ONLY).serverTargetQps(20_000), out.resolve(name));
                if (result.errorCount() != 0)
                {
                    throw new AssertionError(result.errorCount() + " errors: " + result.messages());
                }
                final long correct = sut.accuracy(result.accuracyFile()).correct();
                final int[] predicted = predictions(result.accuracyFile(), reference.top1.length,
                    sut.layout().topK() > 0 ? 0 : sut.layout().classes());
                int flips = 0;
                int nearTies = 0;
                int missing = 0;
                for (int i = 0; i < predicted.length; i++)
                {
                    if (predicted[i] < 0)
                    {
                        missing++;
                    }
                    else if (predicted[i] != reference.top1[i])
                    {
                        flips++;
                        nearTies += reference.margin[i] < NEAR_TIE ? 1 : 0;
                    }
                }
                figures.put("accuracy." + name, Long.toString(correct));
                final String detail = String.format(Locale.ROOT, "%d of %d correct, reference %d; %d samples with "
                    + "another top-1 (%d near-ties), %d missing", correct, predicted.length, reference.correct, flips,
                    nearTies, missing);
                if (missing > 0 || flips > TOLERATED_FLIPS || flips != nearTies)
                {
                    throw new AssertionError(detail);
                }
                return detail + "; " + sut.settings().describe();
            }
        });
    }

    private static int[] predictions(final Path accuracyLog, final int samples, final int rawClasses)
        throws IOException
    {
        final int[] predicted = new int[samples];
        java.util.Arrays.fill(predicted, -1);
        final Matcher m = ENTRY.matcher(Files.readString(accuracyLog));
        while (m.find())
        {
            final int index = Integer.parseInt(m.group(1));
            final byte[] data = HexFormat.of().parseHex(m.group(2));
            final ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
            if (rawClasses == 0)
            {
                predicted[index] = b.getInt(0);
            }
            else
            {
                final float[] row = new float[rawClasses];
                b.asFloatBuffer().get(row);
                predicted[index] = (int)DenseReference.top1(row, 0, rawClasses);
            }
        }
        return predicted;
    }

    private static TestResult run(final TensorRtSut sut, final TestSettings settings, final Path dir)
    {
        final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP)
            .serverWait(ServerWaitStrategy.SLEEP).completionTimeoutMs(60_000);
        final LogSettings logs = new LogSettings().outputDirectory(dir).copySummaryToStdout(false);
        return new TestRunner(sut, sut.library(), settings, logs, engine, null, List.of(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    // ---------------------------------------------------------------- hot path

    private void hotPathCheck()
    {
        check(backend + "-hot-path-allocation", () ->
        {
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final TensorRtOptions options = TensorRtOptions.parse(options(backend, "batch", "16", "idle", "backoff",
                "completion-wait", "backoff"), TestScenario.SERVER);
            try (TensorRtSut sut = TensorRtSut.open(options, open(options), null))
            {
                final String prefix = sut.name() + "-";
                int clean = 0;
                for (int r = 0; r < 10 && clean < 3; r++)
                {
                    final long[] ids = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().startsWith(prefix)).mapToLong(Thread::threadId).toArray();
                    final long before = java.util.Arrays.stream(threads.getThreadAllocatedBytes(ids)).sum();
                    run(sut, new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
                        .serverTargetQps(5_000).minDurationMs(300).minQueryCount(500), out.resolve("alloc" + r));
                    clean = java.util.Arrays.stream(threads.getThreadAllocatedBytes(ids)).sum() == before ? clean + 1
                        : 0;
                }
                if (clean < 3)
                {
                    throw new AssertionError("the issue or completion threads kept allocating");
                }
                return "issue and completion threads allocated nothing in 3 Server runs in a row";
            }
        });
    }
}
