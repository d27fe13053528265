// Top-k class ids over logits, on the device, so that only class ids cross PCIe for classification models.
// One block per row; k rounds, each a block-wide arg-best over the columns not yet chosen. For the small k of
// classification (1, 5) and rows of up to a few thousand classes this is one pass per round over data that sits in
// L1/L2 after the first, and it is obviously the same order as the CPU reference (org.jloadgen.sut.tensorrt.TopK).
#include <cuda_runtime.h>
#include <math.h>

#include "jlg_cuda.h"

namespace
{
constexpr int kThreads = 128;

// Whether (va, ia) comes before (vb, ib): numbers before NaN, larger first, lower column first among equals.
__device__ __forceinline__ bool better(float va, int ia, float vb, int ib)
{
    const bool nanA = isnan(va);
    const bool nanB = isnan(vb);
    if (nanA != nanB)
    {
        return nanB;
    }
    if (!nanA && va != vb)
    {
        return va > vb;
    }
    return ia < ib;
}

__global__ void topk_kernel(const float *__restrict__ logits, int32_t *__restrict__ ids, int cols, int k)
{
    __shared__ float bestValue[kThreads];
    __shared__ int bestIndex[kThreads];
    __shared__ int chosen[JLG_TOPK_MAX];
    const float *row = logits + static_cast<size_t>(blockIdx.x) * static_cast<size_t>(cols);
    const int t = static_cast<int>(threadIdx.x);
    for (int round = 0; round < k; round++)
    {
        float v = 0.0f;
        int index = -1;
        for (int c = t; c < cols; c += kThreads)
        {
            bool taken = false;
            for (int j = 0; j < round; j++)
            {
                taken |= chosen[j] == c;
            }
            if (taken)
            {
                continue;
            }
            const float x = row[c];
            if (index < 0 || better(x, c, v, index))
            {
                v = x;
                index = c;
            }
        }
        bestValue[t] = v;
        bestIndex[t] = index;
        __syncthreads();
        for (int stride = kThreads / 2; stride > 0; stride >>= 1)
        {
            if (t < stride)
            {
                const int other = bestIndex[t + stride];
                if (other >= 0 && (bestIndex[t] < 0 || better(bestValue[t + stride], other, bestValue[t], bestIndex[t])))
                {
                    bestValue[t] = bestValue[t + stride];
                    bestIndex[t] = other;
                }
            }
            __syncthreads();
        }
        if (t == 0)
        {
            chosen[round] = bestIndex[0];
            ids[static_cast<size_t>(blockIdx.x) * static_cast<size_t>(k) + static_cast<size_t>(round)] = bestIndex[0];
        }
        __syncthreads();
    }
}
}

extern "C" int32_t jlg_cuda_topk(const float *logits, int32_t *ids, int32_t rows, int32_t cols, int32_t k,
    void *stream)
{
    if (rows < 0 || k < 1 || k > JLG_TOPK_MAX || cols < k || (rows > 0 && (logits == nullptr || ids == nullptr)))
    {
        return static_cast<int32_t>(cudaErrorInvalidValue);
    }
    if (rows == 0)
    {
        return static_cast<int32_t>(cudaSuccess);
    }
    topk_kernel<<<static_cast<unsigned>(rows), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(logits, ids, cols, k);
    return static_cast<int32_t>(cudaGetLastError());
}

extern "C" int32_t jlg_cuda_runtime_version(int32_t *version)
{
    int v = 0;
    const cudaError_t error = cudaRuntimeGetVersion(&v);
    *version = v;
    return static_cast<int32_t>(error);
}

extern "C" const char *jlg_cuda_error_string(int32_t error)
{
    return cudaGetErrorString(static_cast<cudaError_t>(error));
}
