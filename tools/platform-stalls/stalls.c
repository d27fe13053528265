/*
 * stalls: how often this machine takes a running thread off its CPU, whatever the thread runs.
 *
 * One thread per CPU (or per CPU named on the command line), each pinned, reads CLOCK_MONOTONIC in a loop for the
 * given time and counts the gaps between consecutive readings by size. A gap is time the thread did not run: an
 * interrupt, another guest thread (the thread's own run-queue wait, from /proc/self/task/TID/schedstat, says how
 * much of it the guest's scheduler chose), or, in a virtual machine, the host taking the vCPU away. The local timer
 * interrupts each CPU took in the same window (/proc/interrupts, LOC) tell the guest's ticks from the rest.
 *
 * Build: cc -O2 -pthread -o stalls stalls.c
 * Use:   ./stalls SECONDS [CPU...]       e.g. ./stalls 10 0    (CPU 0 alone, the others idle)
 *                                             ./stalls 10 0 1  (both CPUs of a 2-CPU machine busy)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 256
#define BUCKETS 6
/* Lower bounds of the counted gap sizes, in ns: 10 us, 50 us, 100 us, 500 us, 1 ms, 2 ms. */
static const long long BOUND_NS[BUCKETS] = {10000, 50000, 100000, 500000, 1000000, 2000000};

struct spinner
{
    int cpu;
    double seconds;
    long long at_least[BUCKETS];
    long long longest_ns;
    long long run_queue_wait_ns;
    int pinned;
};

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The calling thread's time spent waiting on a run queue, in ns (schedstat's second field), or -1. */
static long long run_queue_wait_ns(void)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", (long)syscall(SYS_gettid));
    FILE *f = fopen(path, "r");
    long long ran = 0, waited = -1;
    if (f != NULL)
    {
        if (fscanf(f, "%lld %lld", &ran, &waited) != 2)
        {
            waited = -1;
        }
        fclose(f);
    }
    return waited;
}

/* Local timer interrupts per CPU from /proc/interrupts' LOC line; returns how many CPUs it read. */
static int local_timer_interrupts(long long *counts, int max)
{
    FILE *f = fopen("/proc/interrupts", "r");
    char line[8192];
    int n = 0;
    if (f == NULL)
    {
        return 0;
    }
    while (fgets(line, sizeof line, f) != NULL)
    {
        char *p = line;
        while (*p == ' ')
        {
            p++;
        }
        if (strncmp(p, "LOC:", 4) != 0)
        {
            continue;
        }
        p += 4;
        char *end;
        for (long long v = strtoll(p, &end, 10); end != p && n < max; v = strtoll(p, &end, 10))
        {
            counts[n++] = v;
            p = end;
        }
        break;
    }
    fclose(f);
    return n;
}

static void *spin(void *arg)
{
    struct spinner *s = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(s->cpu, &set);
    s->pinned = pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
    sched_yield();
    const long long waited_before = run_queue_wait_ns();
    const long long start = now_ns();
    const long long end = start + (long long)(s->seconds * 1e9);
    long long previous = start;
    for (;;)
    {
        const long long t = now_ns();
        const long long gap = t - previous;
        previous = t;
        for (int b = BUCKETS - 1; b >= 0; b--)
        {
            if (gap >= BOUND_NS[b])
            {
                for (int i = 0; i <= b; i++)
                {
                    s->at_least[i]++;
                }
                break;
            }
        }
        if (gap > s->longest_ns)
        {
            s->longest_ns = gap;
        }
        if (t >= end)
        {
            break;
        }
    }
    const long long waited_after = run_queue_wait_ns();
    s->run_queue_wait_ns = waited_before < 0 || waited_after < 0 ? -1 : waited_after - waited_before;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || atof(argv[1]) <= 0)
    {
        fprintf(stderr, "usage: %s SECONDS [CPU...]   (default: every online CPU)\n", argv[0]);
        return 2;
    }
    const double seconds = atof(argv[1]);
    static struct spinner spinners[MAX_CPUS];
    int count = 0;
    if (argc > 2)
    {
        for (int i = 2; i < argc && count < MAX_CPUS; i++)
        {
            spinners[count++].cpu = atoi(argv[i]);
        }
    }
    else
    {
        const long online = sysconf(_SC_NPROCESSORS_ONLN);
        for (int cpu = 0; cpu < online && count < MAX_CPUS; cpu++)
        {
            spinners[count++].cpu = cpu;
        }
    }
    static long long ticks_before[MAX_CPUS], ticks_after[MAX_CPUS];
    const int cpus_before = local_timer_interrupts(ticks_before, MAX_CPUS);
    pthread_t threads[MAX_CPUS];
    for (int i = 0; i < count; i++)
    {
        spinners[i].seconds = seconds;
        if (pthread_create(&threads[i], NULL, spin, &spinners[i]) != 0)
        {
            perror("pthread_create");
            return 1;
        }
    }
    for (int i = 0; i < count; i++)
    {
        pthread_join(threads[i], NULL);
    }
    const int cpus_after = local_timer_interrupts(ticks_after, MAX_CPUS);
    printf("%.1f s: gaps between the clock readings of a thread spinning on each CPU\n", seconds);
    printf("%3s %7s %7s %7s %7s %7s %7s %9s %10s %7s\n", "cpu", ">=10us", ">=50us", ">=100us", ">=500us",
        ">=1ms", ">=2ms", "longest", "run-queue", "ticks");
    for (int i = 0; i < count; i++)
    {
        const struct spinner *s = &spinners[i];
        const int cpu = s->cpu;
        char ticks[32] = "?";
        if (cpu < cpus_before && cpu < cpus_after)
        {
            snprintf(ticks, sizeof ticks, "%lld", ticks_after[cpu] - ticks_before[cpu]);
        }
        char waited[32] = "?";
        if (s->run_queue_wait_ns >= 0)
        {
            snprintf(waited, sizeof waited, "%.1f ms", s->run_queue_wait_ns / 1e6);
        }
        printf("%3d%s%7lld %7lld %7lld %7lld %7lld %7lld %6.2f ms %10s %7s\n", cpu, s->pinned ? " " : "?",
            s->at_least[0], s->at_least[1], s->at_least[2], s->at_least[3], s->at_least[4], s->at_least[5],
            s->longest_ns / 1e6, waited, ticks);
    }
    return 0;
}
