package org.jloadgen.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;

import org.jloadgen.bindings.internal.NativeLibraryLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel library through FFM. Where nvcc built it (and the CUDA runtime loads), the calls that need no GPU run
 * here: the runtime version and the argument checks of the top-k and dense launchers. The kernel's results are
 * checked on a GPU by native/src/test/cuda/jlg_cuda_test.cu (ctest) and the TensorRT SUT's GPU tests.
 */
class CudaKernelsTest
{
    @TempDir
    Path dir;

    @Test
    void shouldLaunchNothingForBadArgumentsAndNameTheError()
    {
        assumeTrue(CudaKernels.isAvailable(), CudaKernels.describe());
        assertEquals(0, CudaKernels.topK(0, 0, 0, 10, 1, 0), "no rows: nothing to launch");
        final int invalid = CudaKernels.topK(0, 0, 4, 10, 1, 0);
        assertTrue(invalid != CudaKernels.CUDA_SUCCESS);
        assertTrue(CudaKernels.errorString(invalid).contains("invalid argument"), CudaKernels.errorString(invalid));
        assertTrue(CudaKernels.topK(8, 8, 1, 3, 4, 0) != CudaKernels.CUDA_SUCCESS, "k above the columns");
        assertTrue(CudaKernels.topK(8, 8, 1, 100, CudaKernels.TOPK_MAX + 1, 0) != CudaKernels.CUDA_SUCCESS);
        assertTrue(CudaKernels.runtimeVersion() >= 13000, "linked with the CUDA 13 runtime");
    }

    @Test
    void shouldCheckTheDenseKernelsArgumentsBeforeLaunching()
    {
        assumeTrue(CudaKernels.isAvailable(), CudaKernels.describe());
        assertEquals(0, CudaKernels.denseInput(0, 1, 0, 0, 784, 0, 0, 0, 0), "no rows: nothing to launch");
        assertEquals(0, CudaKernels.biasActivation(0, 0, 0, 10, 1, 0), "no rows: nothing to launch");
        assertEquals(0, CudaKernels.softmax(0, 0, 10, 0), "no rows: nothing to launch");
        final int nullInput = CudaKernels.denseInput(0, 1, 8, 2, 784, 0, 0, 0, 0);
        assertTrue(CudaKernels.errorString(nullInput).contains("invalid argument"), CudaKernels.errorString(nullInput));
        assertTrue(CudaKernels.denseInput(8, 3, 8, 2, 784, 0, 0, 0, 0) != CudaKernels.CUDA_SUCCESS, "input type 3");
        assertTrue(CudaKernels.denseInput(8, 1, 8, 2, 784, 0, 0, 2, 0) != CudaKernels.CUDA_SUCCESS,
            "steps without constants");
        assertTrue(CudaKernels.denseInput(8, 1, 8, 2, 784, 8, 0, 16, 0) != CudaKernels.CUDA_SUCCESS, "16 steps");
        assertTrue(CudaKernels.biasActivation(8, 0, 2, 10, 2, 0) != CudaKernels.CUDA_SUCCESS, "activation 2");
        assertTrue(CudaKernels.biasActivation(8, 0, 2, 0, 1, 0) != CudaKernels.CUDA_SUCCESS, "no columns");
        assertTrue(CudaKernels.softmax(0, 2, 10, 0) != CudaKernels.CUDA_SUCCESS, "rows without an address");
    }

    @Test
    void shouldSayHowToBuildItWhenItIsMissing()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.load(NativeLibraryLoader.Library.JLG_CUDA, null,
            List.of(dir.resolve("libjlg_cuda.so")), null);
        assertFalse(result.isLoaded());
        assertTrue(result.failure().startsWith("libjlg_cuda.so could not be loaded"), result.failure());
        assertTrue(result.failure().contains("system property jloadgen.cuda.path: not set"), result.failure());
        assertTrue(result.failure().contains("on a machine with nvcc"), result.failure());
        final NativeLibraryLoader.Result wrong = NativeLibraryLoader.load(NativeLibraryLoader.Library.JLG_CUDA,
            NativeLibraryLoader.result().path().toString(), List.of(), null);
        assertFalse(wrong.isLoaded(), "libjlg_native.so is not libjlg_cuda.so");
        assertTrue(wrong.failure().contains("has no symbol jlg_cuda_topk"), wrong.failure());
        if (!CudaKernels.isAvailable())
        {
            assertThrows(UnsatisfiedLinkError.class, () -> CudaKernels.topK(0, 0, 0, 1, 1, 0));
        }
    }
}
