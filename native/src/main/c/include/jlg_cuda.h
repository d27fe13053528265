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

/**
 * The input prologue of a dense chain, enqueued on a stream: out[r * cols + c] = the element converted to float
 * (input_type 0 float32, 1 uint8, 2 int8), then each of `steps` operations in order with
 * constants[s * cols + c]: op codes 0 multiply, 1 add, 2 subtract, 3 divide, 4 bits each in op_codes (step 0 in the
 * lowest bits). Each operation is rounded on its own (no fused multiply-add), as a CPU runtime computes them.
 *
 * @return cudaSuccess, cudaErrorInvalidValue for bad sizes, or the launch error.
 */
int32_t jlg_cuda_dense_input(const void *input, int32_t input_type, float *out, int32_t rows, int32_t cols,
    const float *constants, int64_t op_codes, int32_t steps, void *stream);

/**
 * Bias and activation in place after a GEMM: y[r * cols + c] = act(y[r * cols + c] + bias[c]); bias may be NULL;
 * activation 0 none, 1 relu.
 *
 * @return cudaSuccess, cudaErrorInvalidValue for bad sizes, or the launch error.
 */
int32_t jlg_cuda_bias_activation(float *y, const float *bias, int32_t rows, int32_t cols, int32_t activation,
    void *stream);

/**
 * Softmax of each row of rows x cols floats, in place (one block per row).
 *
 * @return cudaSuccess, cudaErrorInvalidValue for bad sizes, or the launch error.
 */
int32_t jlg_cuda_softmax(float *y, int32_t rows, int32_t cols, void *stream);

/** cudaRuntimeGetVersion(3) of the runtime this library is linked with (e.g. 13000). */
int32_t jlg_cuda_runtime_version(int32_t *version);

/** cudaGetErrorString(3): never NULL. */
const char *jlg_cuda_error_string(int32_t error);

#ifdef __cplusplus
}
#endif

#endif
