package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.cuda.CudaProbe;
import org.jloadgen.testing.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jloadgen run --sut tensorrt} through the real command line.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TensorRtCliTest
{
    @TempDir
    Path dir;

    @Test
    void shouldStopBeforeTheRunSayingWhatIsMissingWithoutAGpu() throws IOException
    {
        assumeFalse(CudaProbe.run().usable(), "this machine has a usable GPU");
        final Sims.Files3 files = Sims.dataset(dir, 20);
        final Path logs = dir.resolve("logs");
        final CliRun run = CliRun.of("run", "--sut", "tensorrt", "--model-file", files.model().toString(),
            "--dataset", files.data().toString(), "--labels", files.labels().toString(), "--no-audit-config",
            "--out", logs.toString());
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.out() + run.err());
        final String problem = CudaProbe.run().problem();
        assertTrue(run.err().contains("SUT 'tensorrt' could not be started: " + problem), run.err());
        assertTrue(run.err().contains("--sut-opt backend=simulated"), run.err());
        final String detail = Files.readString(logs.resolve("mlperf_log_detail.txt"));
        assertTrue(detail.contains("\"key\": \"error_runtime\""), detail);
        assertFalse(detail.contains("\"loaded_qsl_set\""), "nothing was loaded or issued");
    }

    @Test
    void shouldRunOnTheSimulatedDeviceAndWriteTheStatistics() throws IOException
    {
        final Sims.Files3 files = Sims.dataset(dir, 300);
        final Path logs = dir.resolve("logs");
        final CliRun run = CliRun.of("run", "--sut", "tensorrt", "--model-file", files.model().toString(),
            "--dataset", files.data().toString(), "--labels", files.labels().toString(), "--scenario", "Offline",
            "--mode", "AccuracyOnly", "--sut-opt", "backend=simulated", "--sut-opt", "batch=32", "--sut-opt",
            "engine-cache=" + files.cache(), "--sut-opt", "sim-devices=2", "--no-audit-config", "--completion-wait",
            "SLEEP", "--out", logs.toString());
        assertEquals(ExitCodes.VALID, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("Accuracy: top-1 accuracy: 100.00% (300 of 300 samples)"), run.out());
        assertTrue(run.out().contains("jloadgen: tensorrt: built in "), run.out());
        final SutStatistics.Snapshot stats = SutStatistics.Snapshot.read(logs.resolve(SutStatistics.FILE_NAME));
        assertEquals(300, stats.samples());
        assertEquals("TensorRT(model.onnx)", stats.sutName());
        for (final String stage : new String[] {"enqueue", "h2d", "infer", "d2h"})
        {
            assertEquals(stats.batches(), stats.stage(stage).histogram().getTotalCount(), stage);
        }
        assertTrue(run.out().contains("SUT statistics: " + stats.batches() + " batches, 300 samples"), run.out());
    }

    @Test
    void shouldListTheTensorRtSut()
    {
        final CliRun run = CliRun.of("run", "--list-suts");
        assertTrue(run.out().contains("tensorrt: an ONNX model on TensorRT 10"), run.out());
    }
}
