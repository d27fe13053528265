package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestScenario;
import org.jloadgen.engine.TestResult;
import org.jloadgen.sut.DatasetDescriptor;
import org.jloadgen.sut.cpu.CpuSut;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.InferenceSettings;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;
import org.jloadgen.testing.ParkingRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TensorRT SUT scores the embedded Fashion-MNIST model exactly as the CPU SUT does, on the same data: here the
 * simulated device runs the model through ONNX Runtime, so everything but CUDA itself (the slab, the copy plan, the
 * slots, the device argmax's CPU reference, the responses) is checked against the CPU SUT's 8919 of 10000.
 * {@code GpuTest} makes the same comparison with TensorRT on a GPU.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FashionMnistAccuracyTest
{
    @TempDir
    Path dir;

    /**
     * @param cache where the embedded model is extracted.
     * @return the TensorRT SUT's options for the embedded model and its test set.
     */
    static Map<String, String> options(final ModelDescriptor fashion, final Path cache)
    {
        final DatasetDescriptor data = fashion.data();
        final Map<String, String> o = new LinkedHashMap<>();
        o.put("model-file", fashion.modelFile().toString());
        o.put("dataset", data.dataset().toString());
        o.put("labels", data.labels().toString());
        o.put("header-bytes", Long.toString(data.headerBytes()));
        o.put("sample-count", Long.toString(data.sampleCount()));
        o.put("engine-cache", cache.toString());
        return o;
    }

    @Test
    void shouldScoreTheEmbeddedModelAsTheCpuSutDoes() throws Exception
    {
        final ModelDescriptor fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final long cpuCorrect;
        try (CpuSut cpu = CpuSut.open(fashion, InferenceSettings.defaults(TestScenario.OFFLINE)))
        {
            final TestResult result = ParkingRun.run(cpu, cpu.library(), Sims.accuracy(TestScenario.OFFLINE),
                dir.resolve("cpu"));
            cpuCorrect = cpu.accuracy(result.accuracyFile()).correct();
        }
        final Map<String, String> options = options(fashion, dir.resolve("engines"));
        options.put("backend", "simulated");
        options.put("batch", "128");
        options.put("warmup", "1");
        final TensorRtOptions parsed = TensorRtOptions.parse(options, TestScenario.OFFLINE);
        try (OrtModel model = new OrtModel(fashion.modelFile());
            TensorRtSut trt = TensorRtSut.open(parsed, new SimulatedBackend(parsed.simulation(), model), null))
        {
            final TestResult result = Sims.run(trt, Sims.accuracy(TestScenario.OFFLINE), dir.resolve("trt"));
            assertEquals(0, result.errorCount(), result.messages().toString());
            assertEquals(1, trt.layout().topK(), "argmax on the device");
            assertEquals(cpuCorrect, trt.accuracy(result.accuracyFile()).correct(), "same top-1 as the CPU SUT");
            assertEquals(FashionMnist.KNOWN_CORRECT, cpuCorrect);
        }
    }
}
