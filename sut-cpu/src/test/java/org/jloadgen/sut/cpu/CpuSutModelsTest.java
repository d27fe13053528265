package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jloadgen.accuracy.AccuracyLogReader;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.CliRun;
import org.jloadgen.sut.DatasetDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Models other than the embedded one, run the way a user runs them: an ImageNet-shaped classifier (float32
 * [N,3,224,224] to 1000 logits, the shape class of ResNet-50) over a preprocessed .npy, per-image .npy files, a raw
 * file and a descriptor; and a model whose output row size only a run tells.
 */
class CpuSutModelsTest
{
    @TempDir
    Path dir;

    private static String top1(final int correct, final int total)
    {
        return String.format("Accuracy: top-1 accuracy: %.2f%% (%d of %d samples)", 100.0 * correct / total, correct,
            total);
    }

    @Test
    void shouldRunAnImagenetShapedModelOverAPreprocessedNpyFromTheCommandLine() throws IOException
    {
        final Path model = TestModels.imagenetShaped(dir.resolve("resnet-like.onnx"));
        final Path data = TestModels.imagenetNpy(dir.resolve("val.npy"));
        final Path labels = TestModels.labels(dir.resolve("val_map.txt"), TestModels.imagenetLabels());

        final CliRun run = Runs.cli("run", "--sut", "cpu", "--model-file", model.toString(), "--dataset",
            data.toString(), "--labels", labels.toString(), "--scenario", "Offline", "--mode", "AccuracyOnly",
            "--sut-opt", "batch=5", "--completion-wait", "SLEEP", "--no-audit-config", "--out",
            dir.resolve("logs").toString());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains(top1(TestModels.IMAGE_COUNT, TestModels.IMAGE_COUNT)), run.out());
        final MlLogParser log = MlLogParser.parse(dir.resolve("logs/mlperf_log_detail.txt"));
        assertEquals(0, log.errorCount());
        assertEquals("ONNXRuntime-CPU(resnet-like.onnx)", log.value("sut_name"));
        assertEquals((long)TestModels.IMAGE_COUNT, ((Number)log.value("qsl_reported_total_count")).longValue());
        final org.jloadgen.sut.SutStatistics.Snapshot stats = org.jloadgen.sut.SutStatistics.Snapshot.read(
            dir.resolve("logs").resolve(org.jloadgen.sut.SutStatistics.FILE_NAME));
        assertEquals(TestModels.IMAGE_COUNT, stats.samples());
        assertEquals(stats.batches(), stats.stage("inference").histogram().getTotalCount());
        assertTrue(run.out().contains("SUT statistics: " + stats.batches() + " batches"), run.out());
    }

    @Test
    void shouldRunFromADescriptorOverPerImageFilesWithALabelOffset() throws IOException
    {
        TestModels.imagenetShaped(dir.resolve("model.onnx"));
        TestModels.imagenetFiles(dir.resolve("preprocessed"));
        final int[] oneBased = TestModels.imagenetLabels();
        for (int i = 0; i < oneBased.length; i++)
        {
            oneBased[i]++;
        }
        TestModels.labels(dir.resolve("labels.txt"), oneBased);
        final Path descriptor = dir.resolve("resnet.desc");
        Files.writeString(descriptor, """
            # A ResNet-50-style job: paths are relative to this file.
            name = tiny-resnet
            model-file = model.onnx
            dataset = preprocessed
            labels = labels.txt
            label-offset = -1
            input = input
            output = logits
            preprocessing = resized to 224x224, NCHW, mean-subtracted (as MLPerf's reference)
            batch = 4
            """);

        final CliRun run = Runs.cli("run", "--sut", "cpu", "--descriptor", descriptor.toString(), "--scenario",
            "Server", "--mode", "AccuracyOnly", "--set", "server_target_qps=5000", "--completion-wait", "SLEEP",
            "--server-wait", "SLEEP", "--no-audit-config", "--out", dir.resolve("logs").toString());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains(top1(TestModels.IMAGE_COUNT, TestModels.IMAGE_COUNT)), run.out());
        assertEquals("tiny-resnet", MlLogParser.parse(dir.resolve("logs/mlperf_log_detail.txt")).value("sut_name"));
    }

    @Test
    void shouldReadARawFileWithAHeaderAndAnExplicitShapeAndDtype() throws IOException
    {
        final Path model = TestModels.imagenetShaped(dir.resolve("model.onnx"));
        final int header = 100;
        final ByteBuffer raw = ByteBuffer.allocate(header + TestModels.IMAGE_COUNT * TestModels.IMAGE_FLOATS * 4)
            .order(ByteOrder.LITTLE_ENDIAN);
        raw.position(header);
        for (int i = 0; i < TestModels.IMAGE_COUNT; i++)
        {
            for (final float v : TestModels.image(i))
            {
                raw.putFloat(v);
            }
        }
        final Path data = Files.write(dir.resolve("images.f32"), raw.array());
        final Path labels = TestModels.labels(dir.resolve("labels.txt"), TestModels.imagenetLabels());
        final CpuSutOptions options = CpuSutOptions.parse(Map.of("model-file", model.toString(), "dataset",
            data.toString(), "labels", labels.toString(), "header-bytes", Integer.toString(header), "dtype", "float32",
            "sample-shape", "3x224x224", "performance-count", "5"), TestScenario.MULTI_STREAM);
        try (CpuSutProvider.Instance instance = CpuSutProvider.instance(options))
        {
            final CpuSut sut = instance.cpuSut();
            assertEquals(5, sut.library().performanceSampleCount());
            final TestResult result = Runs.engine(sut, new TestSettings().scenario(TestScenario.MULTI_STREAM)
                .mode(TestMode.ACCURACY_ONLY).multiStreamSamplesPerQuery(4), dir.resolve("logs"));
            assertEquals(0, result.errorCount(), () -> result.messages().toString());
            assertEquals("top-1 accuracy: 100.00% (12 of 12 samples)",
                instance.accuracyReport(result.accuracyFile()).orElseThrow()
                    .replaceAll("; \\d+ repeated entries ignored", ""));
        }
    }

    @Test
    void shouldCopyOutputRowsWhoseSizeOnlyTheRunTells() throws IOException
    {
        final int width = 7;
        final int count = 30;
        final Path model = TestModels.dynamicIdentity(dir.resolve("identity.onnx"));
        final Path data = TestModels.rowsNpy(dir.resolve("rows.npy"), count, width);
        final int[] labels = new int[count];
        for (int i = 0; i < count; i++)
        {
            labels[i] = i % width;
        }
        final Path labelFile = TestModels.labels(dir.resolve("labels.txt"), labels);
        final ModelDescriptor descriptor = new ModelDescriptor(null, model, null, null, new DatasetDescriptor(data,
            labelFile, null, null, 0, -1, null, 0, null, 0, null));
        try (CpuSut sut = CpuSut.open(descriptor, InferenceSettings.defaults(TestScenario.OFFLINE)))
        {
            assertEquals(-1, sut.model().outputRowBytes());
            final TestResult result = Runs.engine(sut, new TestSettings().scenario(TestScenario.OFFLINE)
                .mode(TestMode.ACCURACY_ONLY), dir.resolve("logs"));
            assertEquals(0, result.errorCount(), () -> result.messages().toString());
            assertEquals(count, sut.accuracy(result.accuracyFile()).correct());
            // Each payload is the whole row: width float32 values.
            final List<Integer> sizes = new ArrayList<>();
            AccuracyLogReader.read(result.accuracyFile(), e -> sizes.add(e.data().length));
            assertEquals(count, sizes.size());
            assertTrue(sizes.stream().allMatch(s -> s == width * 4), sizes::toString);
        }
    }
}
