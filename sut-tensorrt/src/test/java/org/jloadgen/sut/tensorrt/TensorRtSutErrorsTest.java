package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.TestScenario;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.EngineTensor;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;
import org.jloadgen.sut.tensorrt.simulated.SimulatedModel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link TensorRtSut#open} checks before a run, each failure naming the file, tensor or option.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TensorRtSutErrorsTest
{
    @TempDir
    Path dir;

    private Sims.Files3 files;

    @BeforeEach
    void writeDataset() throws IOException
    {
        files = Sims.dataset(dir, 50);
    }

    /** A model whose output is not logits, optionally with a fixed batch axis. */
    private static SimulatedModel model(final long batchAxis, final String outputType)
    {
        return new SimulatedModel()
        {
            @Override
            public EngineTensor input()
            {
                return new EngineTensor("input", true, "uint8", DType.UINT8, 1, new long[] {batchAxis, 1, 28, 28});
            }

            @Override
            public EngineTensor output()
            {
                return outputType.equals("int64")
                    ? new EngineTensor("class", false, "int64", DType.INT64, 8, new long[] {batchAxis})
                    : new EngineTensor("logits", false, "float32", DType.FLOAT32, 4, new long[] {batchAxis, 10});
            }

            @Override
            public void infer(final MemorySegment input, final MemorySegment output, final int batch)
            {
                output.fill((byte)0);
            }
        };
    }

    private String openFails(final Map<String, String> options, final SimulatedModel model)
    {
        final TensorRtOptions parsed = TensorRtOptions.parse(options, TestScenario.OFFLINE);
        final SimulatedBackend backend = model == null ? new SimulatedBackend(parsed.simulation())
            : new SimulatedBackend(parsed.simulation(), model);
        return assertThrows(RuntimeException.class, () -> TensorRtSut.open(parsed, backend, null).close())
            .getMessage();
    }

    private TensorRtSut open(final Map<String, String> options, final SimulatedModel model)
    {
        final TensorRtOptions parsed = TensorRtOptions.parse(options, TestScenario.OFFLINE);
        return TensorRtSut.open(parsed, new SimulatedBackend(parsed.simulation(), model), null);
    }

    @Test
    void shouldNameTheDatasetAndTheInputWhenSamplesDoNotFit()
    {
        final String message = openFails(files.options("sample-shape", "784"), null);
        assertTrue(message.endsWith("a sample is |u1 [784] but model model.onnx input 'input' expects uint8 "
            + "[N,1,28,28] (sample shapes differ)"), message);
        assertTrue(openFails(files.options("sim-input", "float32:1x28x28", "dtype", "uint8"), null)
            .contains("(element types differ"));
        assertEquals("model file not found: " + dir.resolve("none.onnx"), openFails(files.options("model-file",
            dir.resolve("none.onnx").toString()), null));
        assertEquals("model model.onnx has no input 'pixels'; its inputs: [input 'input' uint8 [N,1,28,28]]",
            openFails(files.options("input", "pixels"), null));
        assertTrue(openFails(files.options("output", "probs"), null).startsWith("model model.onnx has no output "
            + "'probs'"));
    }

    @Test
    void shouldRefuseGpusThatAreNotThere()
    {
        assertEquals("gpus=0,2 names GPU 2 but 2 GPUs are visible (ordinals 0 to 1)",
            openFails(files.options("sim-devices", "2", "gpus", "0,2"), null));
    }

    @Test
    void shouldPostProcessOnlyLogits()
    {
        assertTrue(openFails(files.options("postprocess", "argmax"), model(-1, "int64")).startsWith(
            "postprocess=argmax needs float32 logits [N, classes], but model model.onnx has output 'class' int64 [N]"));
        assertTrue(openFails(files.options("postprocess", "topk:11"), null).endsWith("has only 10 classes"));
        try (TensorRtSut sut = open(files.options(), model(-1, "int64")))
        {
            assertEquals(0, sut.layout().topK(), "auto: raw rows of a non-logits output");
            assertEquals(org.jloadgen.accuracy.ClassificationAccuracy.DataType.INT64, sut.layout().accuracyType());
        }
    }

    @Test
    void shouldRunAFixedBatchOfOneAndRefuseAnyOtherBatch()
    {
        try (TensorRtSut sut = open(files.options(), model(1, "float32")))
        {
            assertEquals(1, sut.settings().maxBatchSize(), "the default batch follows a fixed batch axis of 1");
        }
        assertTrue(openFails(files.options("batch", "8"), model(1, "float32")).contains("has a fixed batch axis of 1 "
            + "but batch=8"));
    }

    @Test
    void shouldLoadAGivenEngineAndCheckItsProfilesAgainstTheCopyStreams() throws IOException
    {
        final SimulatedBackend builder = new SimulatedBackend(SimulationSettings.DEFAULT);
        final byte[] plan = builder.build(builder.open(0), new EngineBuild(files.model(), "input",
            new long[] {1, 28, 28}, 64, 64, 1, false, false, true, 0, -1));
        final Path engine = Files.write(dir.resolve("model.plan"), plan);
        final Map<String, String> options = files.options("engine", engine.toString());
        options.remove("model-file");
        assertEquals("the engine of model.plan has 1 optimization profile but copy-streams=4 needs one per execution "
            + "context: lower copy-streams or build the engine from the ONNX model", openFails(options, null));
        options.put("copy-streams", "1");
        options.put("batch", "128");
        assertEquals("the engine of model.plan takes batches of up to 64 (profile 0) but batch=128",
            openFails(options, null));
        options.put("batch", "64");
        try (Sims.Opened o = Sims.open(options, TestScenario.OFFLINE))
        {
            assertEquals(0, o.backend().builds(), "loaded, not built");
            assertTrue(o.sut().describe().contains("engine " + engine), o.sut().describe());
        }
        options.put("engine", dir.resolve("missing.plan").toString());
        assertEquals("engine file not found: " + dir.resolve("missing.plan"), openFails(options, null));
        Files.writeString(engine, "not a plan");
        options.put("engine", engine.toString());
        assertTrue(openFails(options, null).startsWith("deserializeCudaEngine failed for " + engine));
    }

    @Test
    void shouldRebuildACachedEngineThatNoLongerLoads() throws IOException
    {
        try (Sims.Opened first = Sims.open(files.options(), TestScenario.OFFLINE))
        {
            assertEquals(1, first.backend().builds());
        }
        try (Sims.Opened second = Sims.open(files.options(), TestScenario.OFFLINE))
        {
            assertEquals(0, second.backend().builds(), "from the cache");
        }
        try (var engines = Files.list(files.cache()))
        {
            for (final Path engine : engines.filter(p -> p.toString().endsWith(".engine")).toList())
            {
                Files.writeString(engine, "written by another TensorRT");
            }
        }
        try (Sims.Opened third = Sims.open(files.options(), TestScenario.OFFLINE))
        {
            assertEquals(1, third.backend().builds(), "the unusable cached engine was built again");
        }
    }
}
