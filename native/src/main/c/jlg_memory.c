/*
 * Memory side of jlg_native: anonymous mappings, pinning, huge-page advice and NUMA placement.
 * Each function returns 0 or the errno of the failing call and never touches errno on success paths
 * that the caller could misread.
 */
#define _GNU_SOURCE

#include "jlg_native.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Node masks cover this many nodes; mbind(2) rejects larger node numbers with EINVAL anyway. */
#define JLG_MAX_NODES 1024
#define JLG_BITS_PER_WORD (8 * sizeof(unsigned long))

static size_t page_bytes(void)
{
    const long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? (size_t)size : 4096;
}

/* Widens [address, address + bytes) to whole pages, as madvise(2) and mbind(2) want a page-aligned start. */
static void page_range(const void *address, const size_t bytes, uintptr_t *start, size_t *length)
{
    const uintptr_t page = (uintptr_t)page_bytes();
    const uintptr_t first = (uintptr_t)address & ~(page - 1);
    const uintptr_t end = ((uintptr_t)address + bytes + page - 1) & ~(page - 1);
    *start = first;
    *length = (size_t)(end - first);
}

int64_t jlg_page_size(void)
{
    return (int64_t)page_bytes();
}

int jlg_map_anonymous(const size_t bytes, const size_t alignment, void **address)
{
    const size_t page = page_bytes();
    if (address == NULL || bytes == 0 || alignment == 0 || (alignment & (alignment - 1)) != 0)
    {
        return EINVAL;
    }
    *address = NULL;
    if (alignment <= page)
    {
        void *const mapped = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED)
        {
            return errno;
        }
        *address = mapped;
        return 0;
    }
    /* Over-map by one alignment unit, then give back the unaligned head and the tail. */
    if (bytes > SIZE_MAX - alignment)
    {
        return ENOMEM;
    }
    const size_t rounded = (bytes + page - 1) & ~(page - 1);
    const size_t span = rounded + alignment;
    char *const mapped = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
    {
        return errno;
    }
    const uintptr_t aligned = ((uintptr_t)mapped + alignment - 1) & ~((uintptr_t)alignment - 1);
    char *const start = (char *)aligned;
    const size_t head = (size_t)(start - mapped);
    const size_t tail = span - head - rounded;
    if (head > 0 && munmap(mapped, head) != 0)
    {
        const int error = errno;
        munmap(mapped, span);
        return error;
    }
    if (tail > 0 && munmap(start + rounded, tail) != 0)
    {
        const int error = errno;
        munmap(start, span - head);
        return error;
    }
    *address = start;
    return 0;
}

int jlg_unmap(void *const address, const size_t bytes)
{
    return munmap(address, bytes) == 0 ? 0 : errno;
}

int jlg_mlock(void *const address, const size_t bytes)
{
    return mlock(address, bytes) == 0 ? 0 : errno;
}

int jlg_munlock(void *const address, const size_t bytes)
{
    return munlock(address, bytes) == 0 ? 0 : errno;
}

int jlg_madvise_hugepage(void *const address, const size_t bytes)
{
    uintptr_t start;
    size_t length;
    page_range(address, bytes, &start, &length);
    return madvise((void *)start, length, MADV_HUGEPAGE) == 0 ? 0 : errno;
}

int jlg_madvise_willneed(void *const address, const size_t bytes)
{
    uintptr_t start;
    size_t length;
    page_range(address, bytes, &start, &length);
    return madvise((void *)start, length, MADV_WILLNEED) == 0 ? 0 : errno;
}

int jlg_mbind_node(void *const address, const size_t bytes, const uint32_t node)
{
    if (node >= JLG_MAX_NODES)
    {
        return EINVAL;
    }
    unsigned long mask[JLG_MAX_NODES / JLG_BITS_PER_WORD];
    memset(mask, 0, sizeof(mask));
    mask[node / JLG_BITS_PER_WORD] = 1UL << (node % JLG_BITS_PER_WORD);
    uintptr_t start;
    size_t length;
    page_range(address, bytes, &start, &length);
    /* The kernel reads maxnode - 1 bits (libnuma passes bits + 1 for the same reason). */
    const long result = syscall(SYS_mbind, start, length, MPOL_BIND, mask, (unsigned long)JLG_MAX_NODES + 1,
        MPOL_MF_MOVE | MPOL_MF_STRICT);
    return result == 0 ? 0 : errno;
}

int jlg_node_of_address(const void *const address, int32_t *const node)
{
    int mode = -1;
    if (node == NULL)
    {
        return EINVAL;
    }
    if (syscall(SYS_get_mempolicy, &mode, NULL, 0UL, address, MPOL_F_NODE | MPOL_F_ADDR) != 0)
    {
        return errno;
    }
    *node = (int32_t)mode;
    return 0;
}

int jlg_get_memlock_limit(struct rlimit *const out)
{
    if (out == NULL)
    {
        return EINVAL;
    }
    return getrlimit(RLIMIT_MEMLOCK, out) == 0 ? 0 : errno;
}

int jlg_strerror(const int errnum, char *const buffer, const size_t buffer_bytes)
{
    if (buffer == NULL || buffer_bytes == 0)
    {
        return EINVAL;
    }
    /* GNU strerror_r may return a static string instead of filling the buffer. */
    const char *const text = strerror_r(errnum, buffer, buffer_bytes);
    const size_t length = strlen(text);
    if (text != buffer)
    {
        const size_t copied = length < buffer_bytes - 1 ? length : buffer_bytes - 1;
        memmove(buffer, text, copied);
        buffer[copied] = '\0';
    }
    return length < buffer_bytes ? 0 : ERANGE;
}
