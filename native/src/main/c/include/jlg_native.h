/*
 * jlg_native: the small native side of JLoadGen (memory pinning, huge-page advice, NUMA placement,
 * thread affinity). Every function that can fail returns 0 on success or the errno value of the
 * failing system call, so the Java side can turn it into a clear exception or a logged warning.
 *
 * This header is the input of bindings/jextract.sh: keep it free of macros jextract cannot see through.
 */
#ifndef JLG_NATIVE_H
#define JLG_NATIVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The CPU and NUMA node the calling thread runs on, as getcpu(2) reports them. */
typedef struct jlg_cpu_node
{
    uint32_t cpu;
    uint32_t node;
} jlg_cpu_node;

/** @return the size of a base page in bytes (sysconf(_SC_PAGESIZE)). */
int64_t jlg_page_size(void);

/** @return the kernel thread id of the calling thread (gettid(2)). */
int64_t jlg_gettid(void);

/**
 * @return the CPU time of the whole process, every thread, exited ones too, in ns
 *         (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)), or -1 if the clock cannot be read.
 */
int64_t jlg_process_cpu_ns(void);

/**
 * Maps bytes of zero-filled, private, anonymous memory whose start is a multiple of alignment
 * (a power of two, at least the page size). Release it with jlg_unmap(address, bytes).
 */
int jlg_map_anonymous(size_t bytes, size_t alignment, void **address);

/** Unmaps what jlg_map_anonymous mapped. */
int jlg_unmap(void *address, size_t bytes);

/** mlock(2): pins the pages of [address, address + bytes) in RAM (faults them in). */
int jlg_mlock(void *address, size_t bytes);

/** munlock(2). */
int jlg_munlock(void *address, size_t bytes);

/** madvise(MADV_HUGEPAGE) over the whole pages of the range. */
int jlg_madvise_hugepage(void *address, size_t bytes);

/** madvise(MADV_WILLNEED) over the whole pages of the range (read-ahead for file mappings). */
int jlg_madvise_willneed(void *address, size_t bytes);

/**
 * mbind(2) with MPOL_BIND to one node, moving pages that are already there (MPOL_MF_MOVE | MPOL_MF_STRICT).
 * Called through syscall(2), so there is no libnuma dependency.
 */
int jlg_mbind_node(void *address, size_t bytes, uint32_t node);

/** get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR): the node of the page holding address (touch it first). */
int jlg_node_of_address(const void *address, int32_t *node);

/** getcpu(2) for the calling thread. */
int jlg_getcpu(jlg_cpu_node *out);

/** getrlimit(RLIMIT_MEMLOCK). */
int jlg_get_memlock_limit(struct rlimit *out);

/** sched_setaffinity(2) for the calling thread; mask is a cpu_set_t of mask_bytes bytes (64-bit words). */
int jlg_set_thread_affinity(const uint64_t *mask, size_t mask_bytes);

/** sched_getaffinity(2) for the calling thread; EINVAL when mask_bytes is smaller than the kernel's mask. */
int jlg_get_thread_affinity(uint64_t *mask, size_t mask_bytes);

/**
 * prctl(PR_SET_TIMERSLACK) for the calling thread: how much later than asked the kernel may fire its timed waits
 * (sleeps, timed parks). The default is 50 us for ordinary threads; 1 makes them as exact as the hardware allows.
 */
int jlg_set_thread_timer_slack(uint64_t slack_ns);

/** prctl(PR_GET_TIMERSLACK) for the calling thread. */
int jlg_get_thread_timer_slack(uint64_t *slack_ns);

/**
 * sched_setscheduler(SCHED_IDLE) for the calling thread: it runs only on CPU time no ordinary thread wants and never
 * preempts one when it wakes. No privilege is needed.
 */
int jlg_set_thread_idle_policy(void);

/** sched_getscheduler(2) for the calling thread: SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2, SCHED_BATCH 3, SCHED_IDLE 5. */
int jlg_get_thread_policy(int32_t *policy);

/**
 * sched_setscheduler(2) of thread tid (a kernel thread id; 0: the calling thread) to one of the time-sharing policies,
 * SCHED_OTHER 0, SCHED_BATCH 3 or SCHED_IDLE 5 (priority 0); EINVAL for any other. Lowering needs no privilege; going
 * back from SCHED_IDLE to SCHED_OTHER needs CAP_SYS_NICE or an RLIMIT_NICE of at least 20, else EPERM.
 */
int jlg_set_task_policy(int64_t tid, int32_t policy);

/** sched_getscheduler(2) of thread tid (0: the calling thread). */
int jlg_get_task_policy(int64_t tid, int32_t *policy);

/** strerror_r(3) into buffer (always NUL-terminated); returns 0 or ERANGE when it was cut. */
int jlg_strerror(int errnum, char *buffer, size_t buffer_bytes);

/** Call-overhead baseline: returns value + 1 (also exported as a JNI function). */
int64_t jlg_baseline_increment(int64_t value);

#ifdef __cplusplus
}
#endif

#endif
