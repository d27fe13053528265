// Prints the glibc lgamma fixture that GlibcMathTest checks (engine/src/test/resources/glibc-lgamma/):
//   digest FIRST LAST FNV1A64   64-bit FNV-1a over the little-endian bytes of lgamma(k), k = FIRST..LAST
//   value K BITS                lgamma(K) as raw IEEE bits, for the integers given on the command line
// Build and run on x86-64 with FMA and AVX2, glibc 2.36 (Debian 12): ./regenerate.sh
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(uint64_t hash, double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; i++)
    {
        hash ^= (bits >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

static void digest(int64_t first, int64_t last)
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (int64_t k = first; k <= last; k++)
    {
        hash = fnv1a(hash, lgamma((double)k));
    }
    printf("digest %" PRId64 " %" PRId64 " %016" PRIx64 "\n", first, last, hash);
}

int main(int argc, char** argv)
{
    digest(1, 4000000);
    digest(60000000, 64000000);
    for (int i = 1; i < argc; i++)
    {
        const int64_t k = strtoll(argv[i], NULL, 10);
        const double value = lgamma((double)k);
        uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        printf("value %" PRId64 " %016" PRIx64 "\n", k, bits);
    }
    return 0;
}
