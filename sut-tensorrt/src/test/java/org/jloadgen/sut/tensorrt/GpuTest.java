package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.cpu.CpuSut;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.InferenceSettings;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.tensorrt.cuda.CudaBackend;
import org.jloadgen.sut.tensorrt.cuda.CudaProbe;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.testing.ParkingRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a machine with an NVIDIA GPU, CUDA 13 and TensorRT 10 (skipped elsewhere, by assumption): the top-k kernel
 * against its CPU reference, and the embedded Fashion-MNIST model through TensorRT against the CPU SUT, in the
 * pipeline's variants. {@code sut-tensorrt/gpu-check} runs these.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class GpuTest
{
    /**
     * Predictions that may differ from ONNX Runtime's on the 10,000 images: FP32 kernels sum in another order, so
     * near-ties can flip (TF32 is off in these builds, which keeps it to a handful at most).
     */
    static final int TOLERATED_DIFFERENCE = 5;

    private static long cpuCorrect = -1;

    @TempDir
    Path dir;

    @BeforeEach
    void requireAGpuAndScoreOnTheCpuOnce()
    {
        final CudaProbe.Result probe = CudaProbe.run();
        assumeTrue(probe.usable(), probe.describe());
        if (cpuCorrect < 0)
        {
            try (CpuSut cpu = CpuSut.open(fashion(), InferenceSettings.defaults(TestScenario.OFFLINE)))
            {
                final TestResult result = ParkingRun.run(cpu, cpu.library(), Sims.accuracy(TestScenario.OFFLINE),
                    dir.resolve("cpu"));
                cpuCorrect = cpu.accuracy(result.accuracyFile()).correct();
            }
        }
    }

    private static ModelDescriptor fashion()
    {
        return FashionMnist.prepare(FashionMnist.defaultCacheDir());
    }

    private TensorRtSut open(final TestScenario scenario, final String... extra)
    {
        final Map<String, String> o = FashionMnistAccuracyTest.options(fashion(),
            FashionMnist.defaultCacheDir().resolve("engines"));
        o.put("tf32", "false");
        for (int i = 0; i < extra.length; i += 2)
        {
            o.put(extra[i], extra[i + 1]);
        }
        return TensorRtSut.open(TensorRtOptions.parse(o, scenario), CudaBackend.open(), System.out);
    }

    private void assertScoresAsTheCpu(final TensorRtSut sut, final TestScenario scenario, final String name)
    {
        final TestResult result = Sims.run(sut, Sims.accuracy(scenario), dir.resolve(name));
        assertEquals(0, result.errorCount(), result.messages().toString());
        final long correct = sut.accuracy(result.accuracyFile()).correct();
        System.out.println("gpu-check: " + name + ": TensorRT " + correct + " of 10000 correct, CPU SUT " + cpuCorrect);
        assertTrue(Math.abs(correct - cpuCorrect) <= TOLERATED_DIFFERENCE, name + ": TensorRT " + correct
            + " correct, the CPU SUT " + cpuCorrect);
    }

    @Test
    void shouldComputeTheTopKTheCpuReferenceComputes()
    {
        final Random random = new Random(7);
        final int rows = 1_000;
        final int cols = 1_001;
        final int k = 5;
        final long logitBytes = 4L * rows * cols;
        final long idBytes = 4L * rows * k;
        try (CudaBackend backend = CudaBackend.open())
        {
            final Gpu gpu = backend.open(0);
            final long host = gpu.allocatePinned(logitBytes);
            final long ids = gpu.allocatePinned(idBytes);
            final long deviceLogits = gpu.allocate(logitBytes);
            final long deviceIds = gpu.allocate(idBytes);
            final MemorySegment logits = MemorySegment.ofAddress(host).reinterpret(logitBytes);
            for (long i = 0; i < (long)rows * cols; i++)
            {
                final int r = random.nextInt(100);
                logits.setAtIndex(ValueLayout.JAVA_FLOAT, i, r < 3 ? Float.NaN : r < 5 ? Float.NEGATIVE_INFINITY
                    : random.nextInt(17) - 8);
            }
            try (DeviceStream stream = gpu.newStream())
            {
                stream.copyToDevice(deviceLogits, host, logitBytes);
                gpu.topK(stream, deviceLogits, deviceIds, rows, cols, k);
                stream.copyToHost(ids, deviceIds, idBytes);
                stream.synchronize();
            }
            final MemorySegment expected = MemorySegment.ofArray(new int[rows * k]);
            TopK.compute(logits, expected, rows, cols, k);
            assertArrayEquals(expected.toArray(ValueLayout.JAVA_INT),
                MemorySegment.ofAddress(ids).reinterpret(idBytes).toArray(ValueLayout.JAVA_INT));
            gpu.free(deviceLogits);
            gpu.free(deviceIds);
            gpu.freePinned(host);
            gpu.freePinned(ids);
        }
    }

    @Test
    void shouldScoreTheEmbeddedModelAsTheCpuSutDoesInEveryScenario()
    {
        for (final TestScenario scenario : TestScenario.values())
        {
            try (TensorRtSut sut = open(scenario))
            {
                assertEquals(1, sut.layout().topK(), "argmax on the device");
                assertScoresAsTheCpu(sut, scenario, scenario.name());
            }
        }
    }

    @Test
    void shouldScoreTheSameFromDeviceMemoryWithRawOutputsAndOnDemandRows()
    {
        try (TensorRtSut sut = open(TestScenario.OFFLINE, "start-from-device", "true", "copy-streams", "2",
            "infer-streams", "2"))
        {
            assertScoresAsTheCpu(sut, TestScenario.OFFLINE, "start-from-device");
        }
        try (TensorRtSut sut = open(TestScenario.SERVER, "postprocess", "none"))
        {
            assertScoresAsTheCpu(sut, TestScenario.SERVER, "raw-outputs");
        }
        try (TensorRtSut sut = open(TestScenario.OFFLINE, "postprocess", "none", "raw-outputs", "on-demand"))
        {
            assertScoresAsTheCpu(sut, TestScenario.OFFLINE, "on-demand-rows");
        }
    }

    @Test
    void shouldRunServerThroughGraphsAndTimeEveryStage()
    {
        try (TensorRtSut sut = open(TestScenario.SERVER, "batch", "32", "graphs", "auto"))
        {
            final TestResult result = Sims.run(sut, new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.PERFORMANCE_ONLY).serverTargetQps(5_000).minDurationMs(2_000), dir.resolve("server"));
            assertEquals(0, result.errorCount(), result.messages().toString());
            final SutStatistics.Snapshot stats = sut.statistics().snapshot();
            System.out.print("gpu-check: Server 5000 QPS: " + stats.describe(null));
            assertTrue(stats.counters().get("graph_launches") > 0);
            for (final String stage : new String[] {"h2d", "infer", "d2h"})
            {
                assertEquals(stats.batches(), stats.stage(stage).histogram().getTotalCount(), stage);
            }
        }
    }

    @Test
    void shouldAllocateNothingOnTheIssueAndCompletionThreadsOnAGpu()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (TensorRtSut sut = open(TestScenario.SERVER, "batch", "16", "idle", "backoff", "completion-wait",
            "backoff"))
        {
            final String prefix = sut.name() + "-";
            int clean = 0;
            for (int run = 0; run < 10 && clean < 3; run++)
            {
                final long[] ids = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith(prefix)).mapToLong(Thread::threadId).toArray();
                final long before = java.util.Arrays.stream(threads.getThreadAllocatedBytes(ids)).sum();
                Sims.run(sut, new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
                    .serverTargetQps(5_000).minDurationMs(300).minQueryCount(500), dir.resolve("alloc" + run));
                clean = java.util.Arrays.stream(threads.getThreadAllocatedBytes(ids)).sum() == before ? clean + 1 : 0;
            }
            assertEquals(3, clean, "the issue or completion threads kept allocating on the GPU path");
        }
    }
}
