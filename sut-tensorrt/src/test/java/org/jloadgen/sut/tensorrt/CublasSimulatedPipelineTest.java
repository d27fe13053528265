package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.tensorrt.dense.DenseModel;
import org.jloadgen.sut.tensorrt.dense.DenseReference;
import org.jloadgen.sut.tensorrt.simulated.SimulatedDenseBackend;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cublas backend's host logic (ONNX weights to the device, one context with its own buffers and GEMM handle per
 * slot, the enqueue order of prologue, GEMMs, bias/activation and top-k, graphs captured per batch size) through the
 * TensorRT SUT's pipeline, on the simulated device, which checks every kernel operand against the device memory
 * allocated for it and computes with the pure-Java reference's arithmetic: so every scenario must score exactly what
 * the reference scores on the same samples.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CublasSimulatedPipelineTest
{
    private static final int SAMPLES = 1_000;
    private static ModelDescriptor fashion;
    private static long referenceCorrect;

    @TempDir
    Path dir;

    @BeforeAll
    static void scoreTheReferenceOnce() throws Exception
    {
        fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final DenseModel model = DenseModel.read(fashion.modelFile());
        final byte[] images = Files.readAllBytes(fashion.data().dataset());
        final byte[] labels = Files.readAllBytes(fashion.data().labels());
        final float[] logits = new DenseReference(model).infer(MemorySegment.ofArray(images)
            .asSlice(FashionMnist.IMAGE_HEADER_BYTES, (long)SAMPLES * 784), SAMPLES);
        long correct = 0;
        for (int r = 0; r < SAMPLES; r++)
        {
            if (DenseReference.top1(logits, r, 10) == labels[FashionMnist.LABEL_HEADER_BYTES + r])
            {
                correct++;
            }
        }
        referenceCorrect = correct;
    }

    private TensorRtSut open(final SimulatedDenseBackend[] backend, final TestScenario scenario,
        final String... extra)
    {
        final Map<String, String> o = FashionMnistAccuracyTest.options(fashion, dir.resolve("engines"));
        o.put("backend", "cublas-simulated");
        o.put("sample-count", Integer.toString(SAMPLES));
        o.put("warmup", "1");
        for (int i = 0; i < extra.length; i += 2)
        {
            o.put(extra[i], extra[i + 1]);
        }
        final TensorRtOptions parsed = TensorRtOptions.parse(o, scenario);
        backend[0] = new SimulatedDenseBackend(parsed.simulation());
        return TensorRtSut.open(parsed, backend[0], null);
    }

    private long score(final TensorRtSut sut, final TestScenario scenario, final String name)
    {
        final TestResult result = Sims.run(sut, Sims.accuracy(scenario), dir.resolve(name));
        assertEquals(0, result.errorCount(), result.messages().toString());
        return sut.accuracy(result.accuracyFile()).correct();
    }

    @Test
    void shouldScoreAsThePureJavaReferenceInEveryScenarioAndLeaveNothingOnTheDevice()
    {
        for (final TestScenario scenario : TestScenario.values())
        {
            final SimulatedDenseBackend[] backend = new SimulatedDenseBackend[1];
            try (TensorRtSut sut = open(backend, scenario))
            {
                assertTrue(sut.name().startsWith("cuBLAS("), sut.name());
                assertEquals(1, sut.layout().topK(), "argmax on the device after the last GEMM");
                assertEquals(referenceCorrect, score(sut, scenario, scenario.name()), scenario.name());
                assertTrue(backend[0].gemms() > 0);
            }
            assertEquals(0, backend[0].liveHandles(), "every cuBLAS handle destroyed");
            assertEquals("streams 0, events 0, graphs 0, contexts 0, engines 0, allocations 0",
                backend[0].device(0).liveObjects());
        }
    }

    @Test
    void shouldScoreTheSameFromDeviceMemoryWithRawOutputsAndTwoInferenceStreams()
    {
        final SimulatedDenseBackend[] backend = new SimulatedDenseBackend[1];
        try (TensorRtSut sut = open(backend, TestScenario.OFFLINE, "start-from-device", "true", "copy-streams", "3",
            "infer-streams", "2", "batch", "100"))
        {
            assertEquals(referenceCorrect, score(sut, TestScenario.OFFLINE, "device"));
            assertTrue(backend[0].device(0).d2dCopies() > 0, "batches gathered on the device");
        }
        try (TensorRtSut sut = open(backend, TestScenario.OFFLINE, "postprocess", "none", "batch", "64"))
        {
            assertEquals(0, sut.layout().topK());
            assertEquals(40, sut.layout().responseBytes(), "10 float32 logits per sample");
            assertEquals(referenceCorrect, score(sut, TestScenario.OFFLINE, "raw"));
        }
    }

    @Test
    void shouldReplayTheGraphOfTheSmallestCapturedSizeThatHoldsEachBatch()
    {
        final SimulatedDenseBackend[] backend = new SimulatedDenseBackend[1];
        try (TensorRtSut sut = open(backend, TestScenario.SERVER, "batch", "16", "graphs", "4,16", "copy-streams",
            "2", "timeout-us", "2000"))
        {
            final long gemmsBefore = backend[0].gemms();
            final TestResult result = Sims.run(sut, new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.ACCURACY_ONLY).serverTargetQps(20_000), dir.resolve("graphs"));
            assertEquals(0, result.errorCount(), result.messages().toString());
            assertEquals(referenceCorrect, sut.accuracy(result.accuracyFile()).correct());
            final SutStatistics.Snapshot stats = sut.statistics().snapshot();
            final long graphs = stats.counters().get("graph_launches");
            final long plain = stats.counters().get("plain_enqueues");
            assertEquals(stats.batches(), graphs + plain);
            assertTrue(graphs > 0, "every batch of 1 to 16 samples fits a captured graph");
            assertEquals(0, plain);
            // A replayed graph enqueues no GEMM from the host: only the captures and warm-up did.
            assertEquals(gemmsBefore, backend[0].gemms());
        }
    }

    @Test
    void shouldRefuseTensorRtOnlyOptionsAndTheModelsItCannotRun() throws Exception
    {
        final Map<String, String> o = FashionMnistAccuracyTest.options(fashion, dir.resolve("engines"));
        o.put("backend", "cublas");
        o.put("fp16", "true");
        final IllegalArgumentException fp16 = assertThrows(IllegalArgumentException.class,
            () -> TensorRtOptions.parse(o, TestScenario.OFFLINE));
        assertEquals("fp16 applies to the TensorRT backend only, not to backend=cublas (--sut-opt)", fp16.getMessage());

        final Path conv = Files.write(dir.resolve("conv.onnx"), org.jloadgen.sut.tensorrt.dense.proto.OnnxDense
            .ModelProto.newBuilder().setGraph(org.jloadgen.sut.tensorrt.dense.proto.OnnxDense.GraphProto.newBuilder()
                .addInput(DenseModelTest.value("x", 2, -1, 1, 28, 28))
                .addOutput(DenseModelTest.value("y", 1, -1, 10))
                .addNode(DenseModelTest.node("features", "Conv", java.util.List.of("x"), "y"))).build()
            .toByteArray());
        o.remove("fp16");
        o.put("backend", "cublas-simulated");
        o.put("model-file", conv.toString());
        final TensorRtOptions parsed = TensorRtOptions.parse(o, TestScenario.OFFLINE);
        final IllegalArgumentException unsupported = assertThrows(IllegalArgumentException.class,
            () -> TensorRtSut.open(parsed, new SimulatedDenseBackend(parsed.simulation()), null));
        assertTrue(unsupported.getMessage().startsWith("model " + conv + ": node 'features' (Conv) is not supported"),
            unsupported.getMessage());
    }
}
