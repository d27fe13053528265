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
 * here: the runtime version and the argument checks of the top-k launcher. The kernel's results are checked on a
 * GPU by native/src/test/cuda/jlg_cuda_test.cu (ctest) and the TensorRT SUT's GPU tests.
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
