package org.jloadgen.bindings;

/**
 * How {@link NativeMemory#allocate(long, MemoryOptions)} places a region: pinned in RAM (mlock), advised to use
 * transparent huge pages, bound to a NUMA node. Immutable; each {@code with...} returns a copy.
 * <p>
 * By default a request that the system refuses (pinning not permitted, mbind unsupported, no native library)
 * is a logged warning and the region is returned without that property ({@link NativeRegion#warnings()} says
 * which). With {@link #withStrict(boolean) strict} it is an exception instead.
 */
public final class MemoryOptions
{
    /** No pinning, no huge pages, no NUMA binding, not strict. */
    public static final MemoryOptions DEFAULT = new MemoryOptions(false, false, -1, false);

    private final boolean pinned;
    private final boolean hugePages;
    private final int numaNode;
    private final boolean strict;

    private MemoryOptions(final boolean pinned, final boolean hugePages, final int numaNode, final boolean strict)
    {
        this.pinned = pinned;
        this.hugePages = hugePages;
        this.numaNode = numaNode;
        this.strict = strict;
    }

    /**
     * @param pinned lock the pages in RAM (mlock), which also faults them all in.
     * @return a copy with that setting.
     */
    public MemoryOptions withPinned(final boolean pinned)
    {
        return new MemoryOptions(pinned, hugePages, numaNode, strict);
    }

    /**
     * @param hugePages align to the huge-page size and advise transparent huge pages (MADV_HUGEPAGE).
     * @return a copy with that setting.
     */
    public MemoryOptions withHugePages(final boolean hugePages)
    {
        return new MemoryOptions(pinned, hugePages, numaNode, strict);
    }

    /**
     * @param numaNode the node to bind the pages to (mbind MPOL_BIND), or -1 for the kernel's default policy.
     * @return a copy with that setting.
     */
    public MemoryOptions withNumaNode(final int numaNode)
    {
        if (numaNode < -1)
        {
            throw new IllegalArgumentException("numaNode must be -1 (none) or a node number: " + numaNode);
        }
        return new MemoryOptions(pinned, hugePages, numaNode, strict);
    }

    /**
     * @param strict whether a refused request fails the allocation instead of being a warning.
     * @return a copy with that setting.
     */
    public MemoryOptions withStrict(final boolean strict)
    {
        return new MemoryOptions(pinned, hugePages, numaNode, strict);
    }

    /**
     * @return whether the pages are to be locked in RAM.
     */
    public boolean pinned()
    {
        return pinned;
    }

    /**
     * @return whether transparent huge pages are to be advised.
     */
    public boolean hugePages()
    {
        return hugePages;
    }

    /**
     * @return the NUMA node to bind to, or -1.
     */
    public int numaNode()
    {
        return numaNode;
    }

    /**
     * @return whether refused requests are errors.
     */
    public boolean strict()
    {
        return strict;
    }

    /**
     * @return whether anything beyond plain memory is asked for.
     */
    public boolean needsNative()
    {
        return pinned || hugePages || numaNode >= 0;
    }

    @Override
    public String toString()
    {
        return "MemoryOptions{pinned=" + pinned + ", hugePages=" + hugePages + ", numaNode=" + numaNode +
            ", strict=" + strict + "}";
    }
}
