package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.samples.DType;
import org.jloadgen.sut.CacheDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TensorRtOptionsTest
{
    @TempDir
    Path dir;

    private static Map<String, String> base(final String... extra)
    {
        final Map<String, String> o = new LinkedHashMap<>();
        o.put("model-file", "m.onnx");
        o.put("dataset", "d.npy");
        for (int i = 0; i < extra.length; i += 2)
        {
            o.put(extra[i], extra[i + 1]);
        }
        return o;
    }

    private static String error(final TestScenario scenario, final String... extra)
    {
        return assertThrows(IllegalArgumentException.class, () -> TensorRtOptions.parse(base(extra), scenario))
            .getMessage();
    }

    @Test
    void shouldPickThePipelineDefaultsPerScenario()
    {
        final PipelineSettings offline = TensorRtOptions.parse(base(), TestScenario.OFFLINE).pipeline();
        assertEquals(256, offline.maxBatchSize());
        assertEquals(0, offline.batchTimeoutUs());
        assertEquals(4, offline.copyStreams());
        assertArrayEquals(new int[0], offline.graphSizes());
        final PipelineSettings server = TensorRtOptions.parse(base(), TestScenario.SERVER).pipeline();
        assertEquals(64, server.maxBatchSize());
        assertEquals(1_000, server.batchTimeoutUs());
        assertArrayEquals(new int[] {1, 2, 4, 8, 16, 32, 64}, server.graphSizes());
        assertEquals(CompletionWait.YIELD, server.completionWait());
        final PipelineSettings single = TensorRtOptions.parse(base(), TestScenario.SINGLE_STREAM).pipeline();
        assertEquals(1, single.maxBatchSize());
        assertEquals(1, single.copyStreams());
        assertEquals(CompletionWait.SPIN, single.completionWait());
        for (final TestScenario scenario : TestScenario.values())
        {
            final TensorRtOptions o = TensorRtOptions.parse(base(), scenario);
            assertEquals(Postprocess.AUTO, o.pipeline().postprocess());
            assertEquals(TensorRtOptions.Backend.CUDA, o.backend());
            assertNull(o.gpus(), "all GPUs");
            assertEquals(CacheDirectory.root().resolve("tensorrt"), o.engine().cacheDir());
            assertFalse(o.pipeline().startFromDevice());
        }
    }

    @Test
    void shouldParseEveryOption()
    {
        final TensorRtOptions o = TensorRtOptions.parse(base("engine", "e.plan", "input", "x", "output", "y",
            "name", "trt", "gpus", "1,0", "batch", "32", "timeout-us", "250", "queue", "1024", "idle", "yield", "pin",
            "0-1", "issue-threads", "2", "copy-streams", "3", "infer-streams", "2", "graphs", "1,4,32",
            "start-from-device", "yes", "postprocess", "topk:5", "raw-outputs", "on-demand", "warmup", "7",
            "completion-wait", "block", "stage-times", "off", "fp16", "true", "int8", "1", "tf32", "no",
            "workspace", "2GiB",
            "builder-opt-level", "5", "opt-batch", "16", "engine-cache", "off", "label-offset", "1"),
            TestScenario.SERVER);
        final PipelineSettings p = o.pipeline();
        assertEquals(32, p.maxBatchSize());
        assertEquals(250, p.batchTimeoutUs());
        assertEquals(1024, p.queueCapacity());
        assertEquals(CompletionWaitStrategy.YIELD, p.issueIdle());
        assertArrayEquals(new int[] {0, 1}, p.issueCpus());
        assertEquals(2, p.issueThreads());
        assertEquals(3, p.copyStreams());
        assertEquals(2, p.inferStreams());
        assertArrayEquals(new int[] {1, 4, 32}, p.graphSizes());
        assertTrue(p.startFromDevice());
        assertEquals(new Postprocess(Postprocess.Kind.TOPK, 5), p.postprocess());
        assertTrue(p.rawOutputsOnDemand());
        assertEquals(7, p.warmupIterations());
        assertEquals(CompletionWait.BLOCK, p.completionWait());
        assertFalse(p.stageTimes());
        assertEquals(4, p.batcherSettings(2).workers(), "2 issue threads on each of 2 GPUs");
        final EngineSettings e = o.engine();
        assertEquals(Path.of("e.plan"), e.engineFile());
        assertEquals("x", e.inputName());
        assertEquals("y", e.outputName());
        assertTrue(e.fp16());
        assertTrue(e.int8());
        assertFalse(e.tf32());
        assertEquals(2L << 30, e.workspaceBytes());
        assertEquals(5, e.builderOptimizationLevel());
        assertEquals(16, e.optBatch());
        assertNull(e.cacheDir(), "engine-cache=off");
        assertArrayEquals(new int[] {1, 0}, o.gpus());
        assertEquals("trt", o.sutName());
        assertEquals(1, o.dataset().labelOffset());
        assertTrue(o.batchGiven());
    }

    @Test
    void shouldParseTheSimulationOptions()
    {
        final SimulationSettings s = TensorRtOptions.parse(base("backend", "simulated", "sim-devices", "3",
            "sim-input", "float32:3x224x224", "sim-classes", "1000", "sim-copy-gbps", "12.5", "sim-infer-us", "400",
            "sim-infer-us-per-sample", "3", "sim-enqueue-us", "20", "sim-graph-launch-us", "2", "sim-fail-after", "9"),
            TestScenario.OFFLINE).simulation();
        assertEquals(3, s.devices());
        assertEquals(DType.FLOAT32, s.inputType());
        assertArrayEquals(new long[] {3, 224, 224}, s.inputShape());
        assertEquals(1000, s.classes());
        assertEquals(12_500, s.copyBytesPerUs(), 1e-9);
        assertEquals(400_000, s.inferFixedNs());
        assertEquals(3_000, s.inferPerSampleNs());
        assertEquals(20_000, s.enqueueNs());
        assertEquals(2_000, s.graphLaunchNs());
        assertEquals(9, s.failAfterBatches());
    }

    @Test
    void shouldNameTheOptionTheValueAndWhatItMustBe() throws IOException
    {
        assertEquals("batch must be an integer, got 'lots' (--sut-opt)", error(TestScenario.OFFLINE, "batch",
            "lots"));
        assertEquals("copy-streams must be positive: 0", error(TestScenario.OFFLINE, "copy-streams", "0"));
        assertEquals("infer-streams must be from 1 to copy-streams (2): 3", error(TestScenario.OFFLINE,
            "copy-streams", "2", "infer-streams", "3"));
        assertTrue(error(TestScenario.SERVER, "graphs", "1,512").startsWith("graphs must be auto, none or batch sizes "
            + "from 1 to the batch (64) such as 1,8,64, got '1,512' (--sut-opt)"));
        assertEquals("postprocess must be auto, none, argmax or topk:K (K from 1 to 64), got 'softmax' (--sut-opt)",
            error(TestScenario.OFFLINE, "postprocess", "softmax"));
        assertTrue(error(TestScenario.OFFLINE, "postprocess", "topk:65").startsWith("postprocess must be"));
        assertEquals("completion-wait must be spin, yield, backoff, sleep or block, got 'nap' (--sut-opt)",
            error(TestScenario.OFFLINE, "completion-wait", "nap"));
        assertEquals("backend must be cuda, tensorrt, cublas, cublas-simulated or simulated, got 'opencl' "
            + "(--sut-opt)", error(TestScenario.OFFLINE, "backend", "opencl"));
        assertEquals("raw-outputs must be copy or on-demand, got 'never' (--sut-opt)", error(TestScenario.OFFLINE,
            "raw-outputs", "never"));
        assertEquals("gpus must be all or device ordinals such as 0,1, got 'first' (--sut-opt)",
            error(TestScenario.OFFLINE, "gpus", "first"));
        assertEquals("sim-infer-us applies to backend=simulated only (--sut-opt)", error(TestScenario.OFFLINE,
            "sim-infer-us", "5"));
        assertEquals("sim-input must be DTYPE:SHAPE such as uint8:1x28x28 or float32:3,224,224, got '1x28x28' "
            + "(--sut-opt)", error(TestScenario.OFFLINE, "backend", "simulated", "sim-input", "1x28x28"));
        assertEquals("placement must be copy (the tensorrt SUT copies batches from one pinned slab), got 'mapped' "
            + "(--sut-opt)", error(TestScenario.OFFLINE, "placement", "mapped"));
        assertEquals("workspace must be a size such as 4GiB or 512MB, got 'big' (--sut-opt)",
            error(TestScenario.OFFLINE, "workspace", "big"));
        assertEquals("builder-opt-level must be 0 to 5: 9", error(TestScenario.OFFLINE, "builder-opt-level", "9"));
        assertTrue(error(TestScenario.OFFLINE, "copy-stream", "2").startsWith("--sut-opt copy-stream is not a "
            + "tensorrt SUT option; known: "));
        final Path desc = dir.resolve("trt.desc");
        Files.writeString(desc, "model-file = m.onnx\ndataset = d.npy\nwarmup = twice\n");
        final IllegalArgumentException fromFile = assertThrows(IllegalArgumentException.class,
            () -> TensorRtOptions.parse(Map.of("descriptor", desc.toString()), TestScenario.OFFLINE));
        assertEquals("warmup must be an integer, got 'twice' (" + desc + ":3)", fromFile.getMessage());
    }

    @Test
    void shouldNeedAModelOrEngineAndADataset()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TensorRtOptions.parse(Map.of("dataset", "d"),
            TestScenario.OFFLINE)).getMessage().startsWith("the tensorrt SUT needs a model: --model-file FILE.onnx, "
            + "or a serialized engine: --sut-opt engine=FILE"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TensorRtOptions.parse(
            Map.of("model-file", "m.onnx"), TestScenario.OFFLINE)).getMessage().startsWith(
            "the tensorrt SUT needs a dataset for m.onnx: --dataset"));
    }
}
