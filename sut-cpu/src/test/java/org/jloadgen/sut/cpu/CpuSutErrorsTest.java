package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.CliRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad inputs through the command line: what can be checked before a run stops {@code jloadgen run} with exit code
 * 2 and a message naming the file and the problem (no log is started); what ONNX Runtime only finds while running
 * ends the run INVALID with the error in the console, the summary's error count and the detail log. Nothing hangs.
 */
class CpuSutErrorsTest
{
    private static final Duration LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    private Path model;
    private Path data;
    private Path labels;
    private Path logs;

    @BeforeEach
    void files() throws IOException
    {
        model = TestModels.imagenetShaped(dir.resolve("model.onnx"));
        data = TestModels.imagenetNpy(dir.resolve("val.npy"));
        labels = TestModels.labels(dir.resolve("labels.txt"), TestModels.imagenetLabels());
        logs = dir.resolve("logs");
    }

    private CliRun run(final String... extra)
    {
        final List<String> args = new java.util.ArrayList<>(List.of("run", "--sut", "cpu", "--scenario", "Offline",
            "--completion-wait", "SLEEP", "--server-wait", "SLEEP", "--no-audit-config", "--out", logs.toString()));
        args.addAll(List.of(extra));
        return assertTimeoutPreemptively(LIMIT, () -> Runs.cli(args.toArray(String[]::new)));
    }

    private void assertStoppedBeforeTheRun(final CliRun run, final String... fragments)
    {
        assertEquals(2, run.exitCode(), run.err());
        for (final String fragment : fragments)
        {
            assertTrue(run.err().contains(fragment), () -> "'" + fragment + "' not in: " + run.err());
        }
        // No run happened, but the logs say why: one error record with the reason, and the summary's trailer.
        final String detail = assertDoesNotThrow(() -> Files.readString(logs.resolve("mlperf_log_detail.txt")));
        assertFalse(detail.contains("\"loaded_qsl_set\""), "nothing was loaded or issued");
        assertTrue(detail.contains("\"key\": \"error_runtime\", \"value\": \"SUT 'cpu' could not be started: "),
            detail);
        assertTrue(assertDoesNotThrow(() -> Files.readString(logs.resolve("mlperf_log_summary.txt")))
            .endsWith("1 ERROR encountered. See detailed log.\n"));
    }

    @Test
    void shouldNameAMissingModelFile()
    {
        final Path missing = dir.resolve("nowhere/resnet50.onnx");
        assertStoppedBeforeTheRun(run("--model-file", missing.toString(), "--dataset", data.toString()),
            "model file not found: " + missing);
    }

    @Test
    void shouldReportACorruptModelWithOnnxRuntimesReason() throws IOException
    {
        final Path corrupt = Files.write(dir.resolve("corrupt.onnx"), "this is not a protobuf".getBytes());
        assertStoppedBeforeTheRun(run("--model-file", corrupt.toString(), "--dataset", data.toString()),
            "cannot load ONNX model " + corrupt, "Protobuf parsing failed");
    }

    @Test
    void shouldRejectADatasetWhoseSampleShapeDoesNotMatchTheModelInput() throws IOException
    {
        final Path rows = TestModels.rowsNpy(dir.resolve("rows.npy"), 6, 8);
        assertStoppedBeforeTheRun(run("--model-file", model.toString(), "--dataset", rows.toString()),
            "a sample is <f4 [8] but model model.onnx input 'input' expects float32 [N,3,224,224] "
                + "(sample shapes differ)");
    }

    @Test
    void shouldRejectADatasetOfAnotherElementType()
    {
        final ModelDescriptor fashion = Runs.fashion();
        assertStoppedBeforeTheRun(run("--model-file", fashion.modelFile().toString(), "--dataset", data.toString()),
            "samples are <f4 [3,224,224] but model model.onnx input 'pixels' expects uint8 [N,1,28,28] "
                + "(element types differ");
    }

    @Test
    void shouldRejectPerImageFilesOfDifferentShapes() throws IOException
    {
        final Path images = TestModels.imagenetFiles(dir.resolve("images"));
        TestModels.npy(images.resolve("ILSVRC2012_val_00000099.JPEG.npy"), "<f4", new long[] {3, 224, 223},
            new byte[3 * 224 * 223 * 4]);
        assertStoppedBeforeTheRun(run("--model-file", model.toString(), "--dataset", images.toString()),
            "ILSVRC2012_val_00000099.JPEG.npy) is [3,224,223], sample 0 is [3,224,224]; a batch needs samples of "
                + "one shape");
    }

    @Test
    void shouldNameMissingLabelsAndMissingData()
    {
        final Path missingLabels = dir.resolve("val_map.txt");
        assertStoppedBeforeTheRun(run("--model-file", model.toString(), "--dataset", data.toString(), "--labels",
            missingLabels.toString()), "labels file not found: " + missingLabels);
        final Path missingData = dir.resolve("val-missing.npy");
        assertStoppedBeforeTheRun(run("--model-file", model.toString(), "--dataset", missingData.toString()),
            "dataset not found: " + missingData);
        assertStoppedBeforeTheRun(run("--model-file", model.toString()), "the cpu SUT needs a dataset");
    }

    @Test
    void shouldRejectTooFewLabels() throws IOException
    {
        final Path few = TestModels.labels(dir.resolve("few.txt"), new int[] {7, 17, 27});
        assertStoppedBeforeTheRun(run("--model-file", model.toString(), "--dataset", data.toString(), "--labels",
            few.toString()), "has 3 labels but the dataset has 12 samples");
    }

    @Test
    void shouldRejectAFixedBatchAxisAboveOne() throws IOException
    {
        final Path fixed = new TinyOnnx().node("Identity", new String[] {"x"}, "y", null, null, null, 0)
            .input("x", TinyOnnx.FLOAT, 4L, 8L).output("y", TinyOnnx.FLOAT, 4L, 8L).write(dir.resolve("fixed.onnx"));
        final Path rows = TestModels.rowsNpy(dir.resolve("rows.npy"), 6, 8);
        assertStoppedBeforeTheRun(run("--model-file", fixed.toString(), "--dataset", rows.toString()),
            "has a fixed batch axis of 4");
    }

    @Test
    void shouldRejectUnknownOptionsAndBadValues()
    {
        assertStoppedBeforeTheRun(run("--sut-opt", "bacth=8"), "--sut-opt bacth is not a cpu SUT option");
        assertStoppedBeforeTheRun(run("--sut-opt", "batch=eight"), "batch must be an integer, got 'eight'");
        assertStoppedBeforeTheRun(run("--sut-opt", "workers=0"), "workers must be positive: 0");
        assertStoppedBeforeTheRun(run("--sut-opt", "input=pixels"), "'input' needs --model-file and --dataset");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Offline", "Server", "SingleStream"})
    void shouldEndTheRunWithOnnxRuntimesErrorWhenABatchFails(final String scenario) throws IOException
    {
        // Dynamic dimensions pass every check before the run; MatMul then finds 8 columns against 16 rows.
        final Path matmul = TestModels.dynamicMatMul(dir.resolve("matmul.onnx"));
        final Path rows = TestModels.rowsNpy(dir.resolve("rows.npy"), 6, 8);
        final List<String> args = new java.util.ArrayList<>(List.of("run", "--sut", "cpu", "--scenario", scenario,
            "--model-file", matmul.toString(), "--dataset", rows.toString(), "--set", "min_duration_ms=200",
            "--set", "server_target_qps=1000", "--completion-wait", "SLEEP", "--server-wait", "SLEEP",
            "--no-audit-config", "--out", logs.toString()));
        final CliRun run = assertTimeoutPreemptively(LIMIT, () -> Runs.cli(args.toArray(String[]::new)));

        assertEquals(3, run.exitCode(), run.err());
        assertTrue(run.err().contains("ONNX Runtime failed on a batch"), run.err());
        assertTrue(run.err().contains("MatMul"), run.err());
        final String summary = Files.readString(logs.resolve("mlperf_log_summary.txt"));
        assertTrue(summary.contains("Result is : INVALID"), summary);
        assertTrue(summary.matches("(?s).*\\d+ ERRORS? encountered\\. See detailed log\\..*"), summary);
        final MlLogParser log = MlLogParser.parse(logs.resolve("mlperf_log_detail.txt"));
        assertTrue(log.errorCount() >= 1);
        assertTrue(log.records().stream().anyMatch(r -> r.isError()
            && String.valueOf(r.value()).contains("ONNX Runtime failed on a batch")
            && String.valueOf(r.value()).contains("MatMul")), () -> log.records().stream()
            .filter(MlLogParser.Record::isError).map(MlLogParser.Record::raw).toList().toString());
    }

    @Test
    void shouldEndAnAccuracyRunWithTheErrorInTheSummaryTrailer() throws IOException
    {
        final Path matmul = TestModels.dynamicMatMul(dir.resolve("matmul.onnx"));
        final Path rows = TestModels.rowsNpy(dir.resolve("rows.npy"), 6, 8);
        final CliRun run = run("--model-file", matmul.toString(), "--dataset", rows.toString(), "--mode",
            "AccuracyOnly");

        assertEquals(3, run.exitCode(), run.err());
        assertTrue(run.err().contains("ONNX Runtime failed on a batch of 6 samples"), run.err());
        final String summary = Files.readString(logs.resolve("mlperf_log_summary.txt"));
        assertTrue(summary.contains("ERROR"), summary);
    }
}
