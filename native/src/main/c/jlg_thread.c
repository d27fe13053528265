/*
 * Thread side of jlg_native: kernel thread id, current CPU and node, affinity of the calling thread.
 * gettid and getcpu go through syscall(2) so the library also runs on glibc older than 2.29/2.30.
 */
#define _GNU_SOURCE

#include "jlg_native.h"

#include <errno.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

int64_t jlg_gettid(void)
{
    return (int64_t)syscall(SYS_gettid);
}

int jlg_getcpu(jlg_cpu_node *const out)
{
    unsigned int cpu = 0;
    unsigned int node = 0;
    if (out == NULL)
    {
        return EINVAL;
    }
    if (syscall(SYS_getcpu, &cpu, &node, NULL) != 0)
    {
        return errno;
    }
    out->cpu = cpu;
    out->node = node;
    return 0;
}

int jlg_set_thread_affinity(const uint64_t *const mask, const size_t mask_bytes)
{
    if (mask == NULL || mask_bytes == 0 || mask_bytes % sizeof(uint64_t) != 0)
    {
        return EINVAL;
    }
    return sched_setaffinity(0, mask_bytes, (const cpu_set_t *)(const void *)mask) == 0 ? 0 : errno;
}

int jlg_get_thread_affinity(uint64_t *const mask, const size_t mask_bytes)
{
    if (mask == NULL || mask_bytes == 0 || mask_bytes % sizeof(uint64_t) != 0)
    {
        return EINVAL;
    }
    return sched_getaffinity(0, mask_bytes, (cpu_set_t *)(void *)mask) == 0 ? 0 : errno;
}
