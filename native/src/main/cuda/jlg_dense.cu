// Kernels of the cublas backend's dense chains (org.jloadgen.sut.tensorrt.dense): the input prologue (conversion to
// float and element-wise steps), bias with activation after each cuBLAS GEMM, and a row softmax. Element-wise
// kernels use a grid-stride loop; the arithmetic uses the _rn intrinsics so that nvcc fuses nothing into an FMA and
// each step rounds as the CPU reference (DenseMath) and ONNX Runtime round it.
#include <cuda_runtime.h>
#include <math.h>

#include "jlg_cuda.h"

namespace
{
constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;

unsigned blocksFor(long long elements)
{
    const long long blocks = (elements + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

__global__ void dense_input_kernel(const void *__restrict__ input, int inputType, float *__restrict__ out,
    long long elements, int cols, const float *__restrict__ constants, long long opCodes, int steps)
{
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < elements;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
    {
        float v;
        if (inputType == 1)
        {
            v = static_cast<float>(static_cast<const unsigned char *>(input)[i]);
        }
        else if (inputType == 2)
        {
            v = static_cast<float>(static_cast<const signed char *>(input)[i]);
        }
        else
        {
            v = static_cast<const float *>(input)[i];
        }
        const int c = static_cast<int>(i % cols);
        for (int s = 0; s < steps; s++)
        {
            const float k = constants[static_cast<long long>(s) * cols + c];
            switch (static_cast<int>((opCodes >> (4 * s)) & 0xf))
            {
            case 0:
                v = __fmul_rn(v, k);
                break;
            case 1:
                v = __fadd_rn(v, k);
                break;
            case 2:
                v = __fsub_rn(v, k);
                break;
            default:
                v = __fdiv_rn(v, k);
                break;
            }
        }
        out[i] = v;
    }
}

__global__ void bias_activation_kernel(float *__restrict__ y, const float *__restrict__ bias, long long elements,
    int cols, int activation)
{
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < elements;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
    {
        float v = y[i];
        if (bias != nullptr)
        {
            v = __fadd_rn(v, bias[i % cols]);
        }
        if (activation == 1 && !(v > 0.0f) && !isnan(v))
        {
            v = 0.0f;
        }
        y[i] = v;
    }
}

__global__ void softmax_kernel(float *__restrict__ y, int cols)
{
    __shared__ float scratch[kThreads];
    float *row = y + static_cast<size_t>(blockIdx.x) * static_cast<size_t>(cols);
    const int t = static_cast<int>(threadIdx.x);
    float m = -INFINITY;
    for (int c = t; c < cols; c += kThreads)
    {
        m = fmaxf(m, row[c]);
    }
    scratch[t] = m;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride >>= 1)
    {
        if (t < stride)
        {
            scratch[t] = fmaxf(scratch[t], scratch[t + stride]);
        }
        __syncthreads();
    }
    const float max = scratch[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = t; c < cols; c += kThreads)
    {
        const float e = expf(row[c] - max);
        row[c] = e;
        sum += e;
    }
    scratch[t] = sum;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride >>= 1)
    {
        if (t < stride)
        {
            scratch[t] += scratch[t + stride];
        }
        __syncthreads();
    }
    const float total = scratch[0];
    for (int c = t; c < cols; c += kThreads)
    {
        row[c] = row[c] / total;
    }
}
}

extern "C" int32_t jlg_cuda_dense_input(const void *input, int32_t input_type, float *out, int32_t rows,
    int32_t cols, const float *constants, int64_t op_codes, int32_t steps, void *stream)
{
    if (rows < 0 || cols < 1 || steps < 0 || steps > 15 || input_type < 0 || input_type > 2
        || (steps > 0 && constants == nullptr) || (rows > 0 && (input == nullptr || out == nullptr)))
    {
        return static_cast<int32_t>(cudaErrorInvalidValue);
    }
    const long long elements = static_cast<long long>(rows) * cols;
    if (elements == 0)
    {
        return static_cast<int32_t>(cudaSuccess);
    }
    dense_input_kernel<<<blocksFor(elements), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(input, input_type,
        out, elements, cols, constants, static_cast<long long>(op_codes), steps);
    return static_cast<int32_t>(cudaGetLastError());
}

extern "C" int32_t jlg_cuda_bias_activation(float *y, const float *bias, int32_t rows, int32_t cols,
    int32_t activation, void *stream)
{
    if (rows < 0 || cols < 1 || activation < 0 || activation > 1 || (rows > 0 && y == nullptr))
    {
        return static_cast<int32_t>(cudaErrorInvalidValue);
    }
    const long long elements = static_cast<long long>(rows) * cols;
    if (elements == 0)
    {
        return static_cast<int32_t>(cudaSuccess);
    }
    bias_activation_kernel<<<blocksFor(elements), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(y, bias,
        elements, cols, activation);
    return static_cast<int32_t>(cudaGetLastError());
}

extern "C" int32_t jlg_cuda_softmax(float *y, int32_t rows, int32_t cols, void *stream)
{
    if (rows < 0 || cols < 1 || (rows > 0 && y == nullptr))
    {
        return static_cast<int32_t>(cudaErrorInvalidValue);
    }
    if (rows == 0)
    {
        return static_cast<int32_t>(cudaSuccess);
    }
    softmax_kernel<<<static_cast<unsigned>(rows), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(y, cols);
    return static_cast<int32_t>(cudaGetLastError());
}
