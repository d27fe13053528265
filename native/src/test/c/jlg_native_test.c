/*
 * Smoke test of libjlg_native run by ctest during the Maven build (and under ASan/UBSan with
 * -DJLG_SANITIZE=ON): every call either succeeds or returns a plausible errno, never crashes or leaks.
 */
#define _GNU_SOURCE

#include "jlg_native.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                         \
    do                                                                           \
    {                                                                            \
        if (!(condition))                                                        \
        {                                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static void test_mapping(void)
{
    const size_t page = (size_t)jlg_page_size();
    const size_t huge = 2u << 20;
    void *address = NULL;
    CHECK(page >= 4096 && (page & (page - 1)) == 0);
    CHECK(jlg_map_anonymous(3 * huge + 5, huge, &address) == 0);
    CHECK(((uintptr_t)address & (huge - 1)) == 0);
    CHECK(((const unsigned char *)address)[3 * huge + 4] == 0);
    memset(address, 7, 3 * huge + 5);
    const int advice = jlg_madvise_hugepage(address, 3 * huge + 5);
    CHECK(advice == 0 || advice == EINVAL);
    CHECK(jlg_madvise_willneed((char *)address + 1, 10) == 0);
    const int locked = jlg_mlock(address, page);
    CHECK(locked == 0 || locked == EPERM || locked == ENOMEM || locked == EAGAIN);
    if (locked == 0)
    {
        CHECK(jlg_munlock(address, page) == 0);
    }
    const int bound = jlg_mbind_node(address, page, 0);
    CHECK(bound == 0 || bound == ENOSYS || bound == EPERM);
    int32_t node = -1;
    const int located = jlg_node_of_address(address, &node);
    CHECK(located == ENOSYS || (located == 0 && node >= 0));
    CHECK(jlg_mbind_node(address, page, 4096) == EINVAL);
    CHECK(jlg_unmap(address, 3 * huge + 5) == 0);
    CHECK(jlg_map_anonymous(page, 3, &address) == EINVAL);
    CHECK(jlg_map_anonymous(0, page, &address) == EINVAL);
    CHECK(jlg_map_anonymous(page, page, &address) == 0);
    CHECK(jlg_unmap(address, page) == 0);
#ifndef __SANITIZE_ADDRESS__
    /* AddressSanitizer intercepts mlock and returns 0 without calling it. */
    CHECK(jlg_mlock(address, page) == ENOMEM);
#endif
}

static void test_thread(void)
{
    uint64_t mask[16];
    uint64_t narrowed[16];
    jlg_cpu_node where;
    CHECK(jlg_gettid() > 0);
    {
        /* The process's CPU time grows with work done on this thread. */
        const int64_t before = jlg_process_cpu_ns();
        volatile uint64_t spin = 0;
        CHECK(before >= 0);
        while (jlg_process_cpu_ns() - before < 2000000)
        {
            spin++;
        }
        CHECK(spin > 0);
    }
    CHECK(jlg_getcpu(&where) == 0);
    CHECK(jlg_get_thread_affinity(mask, sizeof(mask)) == 0);
    CHECK((mask[where.cpu / 64] >> (where.cpu % 64) & 1u) == 1u);
    memset(narrowed, 0, sizeof(narrowed));
    narrowed[where.cpu / 64] = 1ULL << (where.cpu % 64);
    CHECK(jlg_set_thread_affinity(narrowed, sizeof(narrowed)) == 0);
    CHECK(jlg_getcpu(&where) == 0);
    CHECK((narrowed[where.cpu / 64] >> (where.cpu % 64) & 1u) == 1u);
    CHECK(jlg_set_thread_affinity(mask, sizeof(mask)) == 0);
    memset(narrowed, 0, sizeof(narrowed));
    narrowed[15] = 1ULL << 63;
    CHECK(jlg_set_thread_affinity(narrowed, sizeof(narrowed)) == EINVAL);
    CHECK(jlg_set_thread_affinity(mask, 3) == EINVAL);
}

static void test_misc(void)
{
    char text[64];
    char tiny[4];
    struct rlimit limit;
    CHECK(jlg_get_memlock_limit(&limit) == 0);
    CHECK(limit.rlim_cur <= limit.rlim_max);
    CHECK(jlg_strerror(ENOMEM, text, sizeof(text)) == 0);
    CHECK(strcmp(text, "Cannot allocate memory") == 0);
    CHECK(jlg_strerror(ENOMEM, tiny, sizeof(tiny)) == ERANGE);
    CHECK(strcmp(tiny, "Can") == 0);
    CHECK(jlg_baseline_increment(41) == 42);
}

int main(void)
{
    test_mapping();
    test_thread();
    test_misc();
    if (failures != 0)
    {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    printf("jlg_native_test: all checks passed\n");
    return EXIT_SUCCESS;
}
