// Checks jlg_cuda_topk against a CPU reference of the same order on a GPU; exits 77 (skipped) without one.
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
    printf("jlg_cuda_test: %s\n", failed ? "FAILED" : "ok");
    return failed;
}
