package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.tensorrt.cuda.CudaProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * On a machine with an NVIDIA GPU, CUDA 13 and cuBLAS (skipped elsewhere, by assumption): the device bundle's GPU
 * tests ({@link DeviceCheck}: the top-k and dense kernels, the embedded model through the cublas backend against the
 * pure-Java reference in every pipeline variant, the TensorRT backend too where installed, no allocation on the hot
 * threads), run from Maven; {@code sut-tensorrt/gpu-check} runs this.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class CublasGpuTest
{
    @TempDir
    Path dir;

    @Test
    void shouldPassTheDeviceBundlesGpuTests()
    {
        final CudaProbe.Result probe = CudaProbe.runCublas();
        assumeTrue(probe.usable(), probe.describe());
        final ModelDescriptor fashion = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final int exit = new CommandLine(new DeviceCheck()).execute("--model-file", fashion.modelFile().toString(),
            "--dataset", fashion.data().dataset().toString(), "--labels", fashion.data().labels().toString(),
            "--header-bytes", Long.toString(fashion.data().headerBytes()), "--out", dir.toString());
        assertEquals(0, exit, "DeviceCheck failed: see the gpu-check: lines above");
    }
}
