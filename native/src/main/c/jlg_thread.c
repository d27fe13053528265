/*
 * Thread side of jlg_native: kernel thread id, current CPU and node, affinity, timer slack and scheduling policy of
 * the calling thread (Linux applies prctl(PR_SET_TIMERSLACK) and sched_setscheduler(0, ...) to the calling thread,
 * not the whole process), the scheduling policy of another thread of the process by its kernel thread id, and the
 * process's own CPU time to the nanosecond (/proc counts it in 10 ms ticks).
 * gettid and getcpu go through syscall(2) so the library also runs on glibc older than 2.29/2.30.
 */
#define _GNU_SOURCE

#include "jlg_native.h"

#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int64_t jlg_gettid(void)
{
    return (int64_t)syscall(SYS_gettid);
}

int64_t jlg_process_cpu_ns(void)
{
    struct timespec now;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0)
    {
        return -1;
    }
    return (int64_t)now.tv_sec * 1000000000LL + (int64_t)now.tv_nsec;
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

int jlg_set_thread_timer_slack(const uint64_t slack_ns)
{
    return prctl(PR_SET_TIMERSLACK, (unsigned long)slack_ns, 0UL, 0UL, 0UL) == 0 ? 0 : errno;
}

int jlg_get_thread_timer_slack(uint64_t *const slack_ns)
{
    if (slack_ns == NULL)
    {
        return EINVAL;
    }
    const int value = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
    if (value < 0)
    {
        return errno;
    }
    *slack_ns = (uint64_t)(unsigned int)value;
    return 0;
}

int jlg_set_thread_idle_policy(void)
{
    return jlg_set_task_policy(0, SCHED_IDLE);
}

int jlg_get_thread_policy(int32_t *const policy)
{
    return jlg_get_task_policy(0, policy);
}

int jlg_set_task_policy(const int64_t tid, const int32_t policy)
{
    if (tid < 0 || (policy != SCHED_OTHER && policy != SCHED_BATCH && policy != SCHED_IDLE))
    {
        return EINVAL;
    }
    const struct sched_param param = {.sched_priority = 0};
    return sched_setscheduler((pid_t)tid, policy, &param) == 0 ? 0 : errno;
}

int jlg_get_task_policy(const int64_t tid, int32_t *const policy)
{
    if (policy == NULL || tid < 0)
    {
        return EINVAL;
    }
    const int value = sched_getscheduler((pid_t)tid);
    if (value < 0)
    {
        return errno;
    }
    *policy = value;
    return 0;
}
