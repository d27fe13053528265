/*
 * jlg_cuda: JLoadGen's device kernels (built only where nvcc exists, into libjlg_cuda.so, apart from
 * libjlg_native.so so that the latter never needs CUDA). Launched from Java through FFM with the stream
 * handle (cudaStream_t) of the caller's CUDA runtime; the library links the shared libcudart, so the
 * stream belongs to the same runtime as the JavaCPP presets'.
 *
 * Every function returns a cudaError_t value (0 = cudaSuccess). This header is an input of
 * bindings/jextract.sh: keep it free of macros jextract cannot see through.
 */
#ifndef JLG_CUDA_H
#define JLG_CUDA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest k jlg_cuda_topk accepts. */
enum { JLG_TOPK_MAX = 64 };

/**
 * Top-k class ids of each row of float32 logits, best first, enqueued on a stream (no synchronisation):
 * ids[r * k + j] is the j-th best column of row r. Order: a number beats NaN, a larger value beats a smaller
 * one, and of equal values the lower column wins (so k = 1 is the argmax that keeps the first maximum).
 *
 * @param logits device pointer to rows x cols floats, row-major.
 * @param ids    device pointer to rows x k int32 values.
 * @param rows   number of rows (samples), >= 0.
 * @param cols   columns per row (classes), >= k.
 * @param k      1 .. JLG_TOPK_MAX.
 * @param stream a cudaStream_t, or NULL for the legacy default stream.
 * @return cudaSuccess, cudaErrorInvalidValue for bad sizes, or the launch error.
 */
int32_t jlg_cuda_topk(const float *logits, int32_t *ids, int32_t rows, int32_t cols, int32_t k, void *stream);

/** cudaRuntimeGetVersion(3) of the runtime this library is linked with (e.g. 13000). */
int32_t jlg_cuda_runtime_version(int32_t *version);

/** cudaGetErrorString(3): never NULL. */
const char *jlg_cuda_error_string(int32_t error);

#ifdef __cplusplus
}
#endif

#endif
