package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Path;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.tensorrt.cuda.CudaProbe;
import org.jloadgen.testing.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jloadgen run --sut tensorrt --sut-opt backend=cublas...} as a user types it: the embedded model on the
 * cublas backend's host logic (simulated device), and without a GPU the probe's message for cuBLAS with exit code 2.
 */
class CublasCliTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunTheEmbeddedModelOnTheCublasBackendsHostLogic() throws IOException
    {
        final ModelDescriptor fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final Path logs = dir.resolve("logs");
        final CliRun run = CliRun.of("run", "--sut", "tensorrt", "--model-file", fashion.modelFile().toString(),
            "--dataset", fashion.data().dataset().toString(), "--labels", fashion.data().labels().toString(),
            "--sut-opt", "header-bytes=16", "--sut-opt", "sample-count=300", "--scenario", "Offline", "--mode",
            "AccuracyOnly", "--sut-opt", "backend=cublas-simulated", "--sut-opt", "engine-cache=" + dir.resolve("e"),
            "--no-audit-config", "--completion-wait", "SLEEP", "--out", logs.toString());
        assertEquals(ExitCodes.VALID, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("Accuracy: top-1 accuracy: "), run.out());
        assertTrue(run.out().contains(" of 300 samples)"), run.out());
        final SutStatistics.Snapshot stats = SutStatistics.Snapshot.read(logs.resolve(SutStatistics.FILE_NAME));
        assertEquals("cuBLAS(model.onnx)", stats.sutName());
        assertEquals(300, stats.samples());
    }

    @Test
    void shouldStopSayingWhatIsMissingForCublasWithoutAGpu()
    {
        assumeFalse(CudaProbe.runCublas().usable(), "this machine has a usable GPU and cuBLAS");
        final ModelDescriptor fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final CliRun run = CliRun.of("run", "--sut", "tensorrt", "--model-file", fashion.modelFile().toString(),
            "--dataset", fashion.data().dataset().toString(), "--sut-opt", "header-bytes=16", "--sut-opt",
            "backend=cublas", "--no-audit-config", "--out", dir.resolve("logs").toString());
        assertEquals(ExitCodes.USAGE, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("SUT 'tensorrt' could not be started: " + CudaProbe.runCublas().problem()),
            run.err());
    }
}
