// Checks jlg_cuda_topk against a CPU reference of the same order, and the dense-chain kernels (input prologue,
// bias/relu, softmax) against the same arithmetic on the CPU, on a GPU; exits 77 (skipped) without one.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jlg_cuda.h"

static int better(float va, int ia, float vb, int ib)
{
    if (isnan(va) != isnan(vb))
    {
        return isnan(vb);
    }
    if (!isnan(va) && va != vb)
    {
        return va > vb;
    }
    return ia < ib;
}

static void reference(const float *row, int cols, int k, int *out)
{
    for (int round = 0; round < k; round++)
    {
        int best = -1;
        for (int c = 0; c < cols; c++)
        {
            int taken = 0;
            for (int j = 0; j < round; j++)
            {
                taken |= out[j] == c;
            }
            if (!taken && (best < 0 || better(row[c], c, row[best], best)))
            {
                best = c;
            }
        }
        out[round] = best;
    }
}

static int check(int rows, int cols, int k, unsigned seed)
{
    const size_t n = (size_t)rows * (size_t)cols;
    float *logits = (float *)malloc(n * sizeof(float));
    int *ids = (int *)malloc((size_t)rows * (size_t)k * sizeof(int));
    int *expected = (int *)malloc((size_t)k * sizeof(int));
    srand(seed);
    for (size_t i = 0; i < n; i++)
    {
        const int r = rand() % 100;
        // Few distinct values, so ties are common; some NaN and infinities.
        logits[i] = r < 3 ? NAN : r < 5 ? -INFINITY : r < 6 ? INFINITY : (float)(rand() % 17) - 8.0f;
    }
    float *dLogits = NULL;
    int *dIds = NULL;
    int failures = 0;
    if (cudaMalloc((void **)&dLogits, n * sizeof(float)) != cudaSuccess
        || cudaMalloc((void **)&dIds, (size_t)rows * (size_t)k * sizeof(int)) != cudaSuccess)
    {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(dLogits, logits, n * sizeof(float), cudaMemcpyHostToDevice);
    const int error = jlg_cuda_topk(dLogits, dIds, rows, cols, k, NULL);
    if (error != 0 || cudaDeviceSynchronize() != cudaSuccess)
    {
        fprintf(stderr, "jlg_cuda_topk: %s\n", jlg_cuda_error_string(error));
        return 1;
    }
    cudaMemcpy(ids, dIds, (size_t)rows * (size_t)k * sizeof(int), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; r++)
    {
        reference(logits + (size_t)r * (size_t)cols, cols, k, expected);
        if (memcmp(expected, ids + (size_t)r * (size_t)k, (size_t)k * sizeof(int)) != 0 && failures++ < 5)
        {
            fprintf(stderr, "rows %d cols %d k %d: row %d differs (first id %d, expected %d)\n", rows, cols, k, r,
                ids[(size_t)r * (size_t)k], expected[0]);
        }
    }
    cudaFree(dLogits);
    cudaFree(dIds);
    free(logits);
    free(ids);
    free(expected);
    return failures != 0;
}

// The prologue (uint8 -> float, * scale, - per-feature mean, / std) and bias/relu must round as the CPU does, step by
// step: equal bits. Softmax within 1e-6.
static int check_dense(int rows, int cols, unsigned seed)
{
    const size_t n = (size_t)rows * (size_t)cols;
    unsigned char *input = (unsigned char *)malloc(n);
    float *constants = (float *)malloc(3 * (size_t)cols * sizeof(float));
    float *bias = (float *)malloc((size_t)cols * sizeof(float));
    float *expected = (float *)malloc(n * sizeof(float));
    float *actual = (float *)malloc(n * sizeof(float));
    srand(seed);
    for (size_t i = 0; i < n; i++)
    {
        input[i] = (unsigned char)(rand() % 256);
    }
    for (int c = 0; c < cols; c++)
    {
        constants[c] = 1.0f / 255.0f;
        constants[cols + c] = (float)(rand() % 1000) / 1000.0f;
        constants[2 * cols + c] = 0.25f + (float)(rand() % 1000) / 1000.0f;
        bias[c] = (float)(rand() % 2000 - 1000) / 1000.0f;
    }
    // op codes: step 0 multiply (0), step 1 subtract (2), step 2 divide (3)
    const int64_t ops = 0 | (2 << 4) | (3 << 8);
    for (size_t i = 0; i < n; i++)
    {
        const int c = (int)(i % (size_t)cols);
        volatile float v = (float)input[i];
        v = v * constants[c];
        v = v - constants[cols + c];
        v = v / constants[2 * cols + c];
        v = v + bias[c];
        expected[i] = v > 0.0f ? v : 0.0f;
    }
    unsigned char *dInput = NULL;
    float *dOut = NULL;
    float *dConstants = NULL;
    float *dBias = NULL;
    if (cudaMalloc((void **)&dInput, n) != cudaSuccess || cudaMalloc((void **)&dOut, n * sizeof(float)) != cudaSuccess
        || cudaMalloc((void **)&dConstants, 3 * (size_t)cols * sizeof(float)) != cudaSuccess
        || cudaMalloc((void **)&dBias, (size_t)cols * sizeof(float)) != cudaSuccess)
    {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(dInput, input, n, cudaMemcpyHostToDevice);
    cudaMemcpy(dConstants, constants, 3 * (size_t)cols * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dBias, bias, (size_t)cols * sizeof(float), cudaMemcpyHostToDevice);
    int error = jlg_cuda_dense_input(dInput, 1, dOut, rows, cols, dConstants, ops, 3, NULL);
    if (error == 0)
    {
        error = jlg_cuda_bias_activation(dOut, dBias, rows, cols, 1, NULL);
    }
    if (error != 0 || cudaDeviceSynchronize() != cudaSuccess)
    {
        fprintf(stderr, "dense kernels: %s\n", jlg_cuda_error_string(error));
        return 1;
    }
    cudaMemcpy(actual, dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
    int failures = 0;
    for (size_t i = 0; i < n; i++)
    {
        if (memcmp(&expected[i], &actual[i], sizeof(float)) != 0 && failures++ < 5)
        {
            fprintf(stderr, "dense rows %d cols %d: element %zu is %.9g, expected %.9g\n", rows, cols, i,
                (double)actual[i], (double)expected[i]);
        }
    }
    // Softmax of the same rows in place.
    error = jlg_cuda_softmax(dOut, rows, cols, NULL);
    if (error != 0 || cudaDeviceSynchronize() != cudaSuccess)
    {
        fprintf(stderr, "jlg_cuda_softmax: %s\n", jlg_cuda_error_string(error));
        return 1;
    }
    cudaMemcpy(actual, dOut, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; r++)
    {
        const float *row = expected + (size_t)r * (size_t)cols;
        double max = -INFINITY;
        double sum = 0;
        for (int c = 0; c < cols; c++)
        {
            max = row[c] > max ? row[c] : max;
        }
        for (int c = 0; c < cols; c++)
        {
            sum += exp(row[c] - max);
        }
        for (int c = 0; c < cols; c++)
        {
            const double p = exp(row[c] - max) / sum;
            if (fabs(p - actual[(size_t)r * (size_t)cols + (size_t)c]) > 1e-6 && failures++ < 5)
            {
                fprintf(stderr, "softmax row %d col %d: %.9g, expected %.9g\n", r, c,
                    (double)actual[(size_t)r * (size_t)cols + (size_t)c], p);
            }
        }
    }
    cudaFree(dInput);
    cudaFree(dOut);
    cudaFree(dConstants);
    cudaFree(dBias);
    free(input);
    free(constants);
    free(bias);
    free(expected);
    free(actual);
    return failures != 0;
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    {
        printf("jlg_cuda_test: no CUDA device, skipped\n");
        return 77;
    }
    if (jlg_cuda_topk(NULL, NULL, 1, 10, 1, NULL) != (int)cudaErrorInvalidValue
        || jlg_cuda_topk(NULL, NULL, 1, 3, 4, NULL) != (int)cudaErrorInvalidValue
        || jlg_cuda_topk(NULL, NULL, 0, 10, 1, NULL) != 0)
    {
        fprintf(stderr, "argument checks failed\n");
        return 1;
    }
    int failed = 0;
    failed |= check(1, 10, 1, 1);
    failed |= check(257, 10, 1, 2);
    failed |= check(64, 1000, 5, 3);
    failed |= check(3, 1001, 64, 4);
    failed |= check(1024, 129, 3, 5);
    failed |= check_dense(1, 784, 6);
    failed |= check_dense(300, 784, 7);
    failed |= check_dense(33, 1000, 8);
    printf("jlg_cuda_test: %s\n", failed ? "FAILED" : "ok");
    return failed;
}
