package org.jloadgen.bindings;

/**
 * Where a thread was running when asked (getcpu(2)); it may move right after unless it is pinned.
 *
 * @param cpu  the CPU number.
 * @param node the NUMA node of that CPU.
 */
public record CpuNode(int cpu, int node)
{
}
