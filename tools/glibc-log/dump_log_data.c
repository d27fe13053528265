/* dump_log_data: prints org.jloadgen.random.GlibcLogData, the tables of the installed glibc's double log.
 *
 * glibc (2.28 and later) computes log(x) from a 128-entry table and two polynomials held in one hidden
 * struct, __log_data: ln2hi, ln2lo, poly[5], poly1[11], tab[128] = {invc, logc}, tab2[128] = {chi, clo}.
 * The symbol is not exported, so this program finds the struct in the libm that the process loaded by its
 * first three values (ln2hi, ln2lo, poly[0]), checks that they occur exactly once and that the tables are
 * self-consistent, and prints them as Java hex-float literals. Build and run it through regenerate.sh.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128
#define POLY 5
#define POLY1 11
#define DOUBLES (2 + POLY + POLY1 + 2 * N + 2 * N)

static uint64_t bits(const double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static void row(const char *name, const double *v, const int n, const int stride)
{
    printf("    static final double[] %s =\n    {\n", name);
    for (int i = 0; i < n; i++)
    {
        printf("%s%a,%s", i % 3 == 0 ? "        " : " ", v[i * stride], i % 3 == 2 || i == n - 1 ? "\n" : "");
    }
    printf("    };\n");
}

int main(void)
{
    Dl_info info;
    double (*volatile log_fn)(double) = log;
    if (!dladdr((void *)log_fn, &info) || info.dli_fname == NULL)
    {
        fprintf(stderr, "dump_log_data: cannot find the library that defines log\n");
        return 1;
    }
    FILE *f = fopen(info.dli_fname, "rb");
    if (f == NULL)
    {
        perror(info.dli_fname);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *image = malloc((size_t)size);
    if (image == NULL || fread(image, 1, (size_t)size, f) != (size_t)size)
    {
        fprintf(stderr, "dump_log_data: cannot read %s\n", info.dli_fname);
        return 1;
    }
    fclose(f);

    const uint64_t head[3] = {bits(0x1.62e42fefa3800p-1), bits(0x1.ef35793c76730p-45), bits(-0x1.0000000000001p-1)};
    long at = -1;
    int found = 0;
    for (long i = 0; i + (long)(DOUBLES * sizeof(double)) <= size; i += 8)
    {
        if (memcmp(image + i, head, sizeof head) == 0)
        {
            at = i;
            found++;
        }
    }
    if (found != 1)
    {
        fprintf(stderr, "dump_log_data: __log_data found %d times in %s (expected once)\n", found, info.dli_fname);
        return 1;
    }
    double d[DOUBLES];
    memcpy(d, image + at, sizeof d);
    const double *poly = d + 2;
    const double *poly1 = poly + POLY;
    const double *tab = poly1 + POLY1;
    const double *tab2 = tab + 2 * N;
    if (poly1[0] != -0.5)
    {
        fprintf(stderr, "dump_log_data: poly1[0] is %a, not -0.5: unexpected layout\n", poly1[0]);
        return 1;
    }
    for (int i = 0; i < N; i++)
    {
        const double invc = tab[2 * i];
        const double logc = tab[2 * i + 1];
        const double c = tab2[2 * i] + tab2[2 * i + 1];
        if (fabs(c * invc - 1.0) > 0x1p-40 || fabs(log(c) - logc) > 0x1p-40)
        {
            fprintf(stderr, "dump_log_data: table row %d is inconsistent: unexpected layout\n", i);
            return 1;
        }
    }

    printf("package org.jloadgen.random;\n\n");
    printf("/**\n");
    printf(" * The tables of glibc's double-precision {@code log} ({@code __log_data}: 128 subintervals and two\n");
    printf(" * polynomials), read out of the installed libm by {@code tools/glibc-log/dump_log_data}; do not edit.\n");
    printf(" * Source: %s (glibc %s).\n", info.dli_fname, gnu_get_libc_version());
    printf(" */\n");
    printf("final class GlibcLogData\n{\n");
    printf("    /** High part of ln 2 (its low bits are zero, so {@code k * LN2_HI} is exact). */\n");
    printf("    static final double LN2_HI = %a;\n", d[0]);
    printf("    /** ln 2 - LN2_HI. */\n");
    printf("    static final double LN2_LO = %a;\n", d[1]);
    printf("    /** Coefficients A[0..4] of log1p(r) - r around the table points. */\n");
    row("POLY", poly, POLY, 1);
    printf("    /** Coefficients B[0..10] of log(1 + r) for x near 1. */\n");
    row("POLY1", poly1, POLY1, 1);
    printf("    /** 1/c for each subinterval's centre c. */\n");
    row("INVC", tab, N, 2);
    printf("    /** log(c). */\n");
    row("LOGC", tab + 1, N, 2);
    printf("    /** High part of c (used without FMA). */\n");
    row("CHI", tab2, N, 2);
    printf("    /** c - CHI. */\n");
    row("CLO", tab2 + 1, N, 2);
    printf("\n    private GlibcLogData()\n    {\n    }\n}\n");
    free(image);
    return 0;
}
