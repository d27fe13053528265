package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuSutOptionsTest
{
    @TempDir
    Path dir;

    @Test
    void shouldUseTheEmbeddedModelWithoutModelOrDataset()
    {
        final CpuSutOptions o = CpuSutOptions.parse(Map.of(), TestScenario.OFFLINE);
        assertNull(o.model());
        assertEquals(InferenceSettings.defaults(TestScenario.OFFLINE), o.inference());
    }

    @Test
    void shouldPickLatencyFriendlyDefaultsPerScenario()
    {
        final InferenceSettings single = InferenceSettings.defaults(TestScenario.SINGLE_STREAM);
        assertEquals(1, single.maxBatchSize());
        assertEquals(0, single.batchTimeoutUs());
        assertEquals(1, single.workers());
        final InferenceSettings multi = InferenceSettings.defaults(TestScenario.MULTI_STREAM);
        assertEquals(0, multi.batchTimeoutUs());
        assertTrue(multi.maxBatchSize() >= 8, "a default MultiStream query is one batch");
        final InferenceSettings server = InferenceSettings.defaults(TestScenario.SERVER);
        assertTrue(server.batchTimeoutUs() > 0);
        assertTrue(server.maxBatchSize() <= InferenceSettings.defaults(TestScenario.OFFLINE).maxBatchSize());
        assertEquals(2, server.workers());
    }

    @Test
    void shouldDeclareEveryOptionWithTheDefaultsThePerScenarioSettingsUse()
    {
        // The help (run --sut cpu --help) and the parser come from one list; its defaults are the settings' own.
        final java.util.Map<String, org.jloadgen.sut.SutOption> declared = new java.util.HashMap<>();
        CpuSutOptions.OPTIONS.forEach(o -> declared.put(o.key(), o));
        for (final String key : java.util.List.of("model-file", "dataset", "labels", "batch", "timeout-us", "workers",
            "intra-op-threads", "idle", "pin", "queue", "name", "cache-dir", "placement"))
        {
            assertTrue(declared.containsKey(key), key);
        }
        final InferenceSettings offline = InferenceSettings.defaults(TestScenario.OFFLINE);
        final InferenceSettings server = InferenceSettings.defaults(TestScenario.SERVER);
        final InferenceSettings multi = InferenceSettings.defaults(TestScenario.MULTI_STREAM);
        assertEquals("per scenario: Offline and Server " + offline.maxBatchSize() + ", MultiStream "
            + multi.maxBatchSize() + ", SingleStream 1", declared.get("batch").defaultValue());
        assertEquals(server.maxBatchSize(), offline.maxBatchSize());
        assertEquals("per scenario: Server " + server.batchTimeoutUs() + ", else 0",
            declared.get("timeout-us").defaultValue());
        assertEquals("per scenario: Offline and Server " + server.workers() + ", else 1",
            declared.get("workers").defaultValue());
        assertEquals(Integer.toString(offline.queueCapacity()), declared.get("queue").defaultValue());
        assertEquals(Integer.toString(offline.intraOpThreads()), declared.get("intra-op-threads").defaultValue());
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("workerz", "2"), TestScenario.SERVER));
        assertTrue(unknown.getMessage().contains("workerz"), unknown.getMessage());
    }

    @Test
    void shouldParseEveryInferenceOption()
    {
        final InferenceSettings s = CpuSutOptions.parse(Map.of("batch", "64", "timeout-us", "1_500", "workers", "3",
            "intra-op-threads", "2", "ort-spinning", "yes", "idle", "sleep", "pin", "0-1,3", "queue", "4096"),
            TestScenario.SERVER).inference();
        assertEquals(64, s.maxBatchSize());
        assertEquals(1_500, s.batchTimeoutUs());
        assertEquals(3, s.workers());
        assertEquals(2, s.intraOpThreads());
        assertTrue(s.ortSpinning());
        assertEquals(CompletionWaitStrategy.SLEEP, s.workerIdle());
        assertArrayEquals(new int[] {0, 1, 3}, s.workerCpus());
        assertEquals(4096, s.queueCapacity());
        assertEquals(4096, s.batcherSettings().queueCapacity());
        assertEquals("batch 64, timeout 1500 us, 3 workers x 2 intra-op threads (spinning), idle SLEEP, pinned to "
            + "CPUs 0,1,3", s.describe());
        assertArrayEquals(new int[0], CpuSutOptions.parse(Map.of("pin", "none"), TestScenario.SERVER).inference()
            .workerCpus());
    }

    @Test
    void shouldParseSampleShapesInTheUsualSpellings()
    {
        assertArrayEquals(new long[] {3, 224, 224}, CpuSutOptions.shape("3,224,224"));
        assertArrayEquals(new long[] {3, 224, 224}, CpuSutOptions.shape("3x224x224"));
        assertArrayEquals(new long[] {3, 224, 224}, CpuSutOptions.shape("[3, 224, 224]"));
        assertArrayEquals(new long[] {3, 224, 224}, CpuSutOptions.shape("(3, 224, 224)"));
        assertArrayEquals(new long[0], CpuSutOptions.shape("()"));
        assertThrows(IllegalArgumentException.class, () -> CpuSutOptions.shape("3,-1"));
        assertThrows(IllegalArgumentException.class, () -> CpuSutOptions.shape("3,big"));
    }

    @Test
    void shouldReadADescriptorAndLetTheCommandLineOverrideIt() throws IOException
    {
        final Path desc = dir.resolve("sub/job.desc");
        Files.createDirectories(desc.getParent());
        Files.writeString(desc, """
            # comment line

            model-file = models/resnet50.onnx
            dataset    = /data/imagenet/val.npy
            labels     = val_map.txt
            dtype      = float32
            sample-shape = 3,224,224
            header-bytes = 0
            placement  = mapped
            label-offset = 1
            preprocessing = resized 256, center crop 224, mean/std normalised, NCHW
            batch = 16
            """);
        final CpuSutOptions o = CpuSutOptions.parse(Map.of("descriptor", desc.toString(), "batch", "8",
            "labels", "other.txt"), TestScenario.OFFLINE);
        final ModelDescriptor model = o.model();
        final org.jloadgen.sut.DatasetDescriptor m = model.data();
        assertEquals(desc.getParent().resolve("models/resnet50.onnx").toAbsolutePath().normalize(), model.modelFile());
        assertEquals(Path.of("/data/imagenet/val.npy"), m.dataset());
        assertEquals(Path.of("other.txt"), m.labels(), "the command line wins");
        assertEquals(DType.FLOAT32, m.dtype());
        assertArrayEquals(new long[] {3, 224, 224}, m.sampleShape());
        assertEquals(SampleStore.Placement.MAPPED, m.placement());
        assertEquals(1, m.labelOffset());
        assertEquals("resized 256, center crop 224, mean/std normalised, NCHW", m.preprocessing());
        assertEquals(8, o.inference().maxBatchSize());
        assertTrue(o.batchGiven());
    }

    @Test
    void shouldNameTheFileAndLineOfABadDescriptor() throws IOException
    {
        final Path desc = dir.resolve("bad.desc");
        Files.writeString(desc, "model-file = m.onnx\nthis line has no equals sign\n");
        final IllegalArgumentException noEquals = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.readDescriptor(desc));
        assertTrue(noEquals.getMessage().startsWith(desc + ":2: expected 'key = value'"), noEquals.getMessage());

        Files.writeString(desc, "model-file = m.onnx\nmodle = x\n");
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.readDescriptor(desc));
        assertTrue(unknown.getMessage().startsWith(desc + ":2: key 'modle' is not a cpu SUT option"),
            unknown.getMessage());

        Files.writeString(desc, "batch = 1\nbatch = 2\n");
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.readDescriptor(desc));
        assertTrue(twice.getMessage().contains(":2: 'batch' is given twice"), twice.getMessage());

        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("descriptor", dir.resolve("none.desc").toString()),
                TestScenario.OFFLINE));
        assertTrue(missing.getMessage().startsWith("descriptor not found: "), missing.getMessage());
    }

    @Test
    void shouldRejectBadValuesByName()
    {
        assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("placement", "disk", "model-file", "m", "dataset", "d"),
                TestScenario.OFFLINE), "placement must be copy or mapped");
        final IllegalArgumentException idle = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("idle", "nap"), TestScenario.OFFLINE));
        assertTrue(idle.getMessage().contains("idle must be auto, spin, park, yield, backoff or sleep"));
        final IllegalArgumentException spin = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("ort-spinning", "maybe"), TestScenario.OFFLINE));
        assertTrue(spin.getMessage().contains("ort-spinning must be true or false"));
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("timeout-us", "-5"), TestScenario.OFFLINE));
        assertTrue(negative.getMessage().contains("timeout-us must not be negative"));
        final IllegalArgumentException queue = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("queue", "1000"), TestScenario.OFFLINE));
        assertTrue(queue.getMessage().contains("queue must be a power of two of at least the batch size 128"),
            queue.getMessage());
        final IllegalArgumentException noData = assertThrows(IllegalArgumentException.class,
            () -> CpuSutOptions.parse(Map.of("dataset", "val.npy"), TestScenario.OFFLINE));
        assertTrue(noData.getMessage().contains("needs a model"));
    }
}
