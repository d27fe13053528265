package org.jloadgen.api;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reusable array of responses in native memory, laid out exactly as LoadGen's C struct
 * {@code mlperf::QuerySampleResponse { uintptr_t id; uintptr_t data; size_t size; int64_t n_tokens; }}
 * on LP64, so the same memory can be handed to the official LoadGen unchanged.
 * <p>
 * A SUT allocates one per worker (never per batch), fills entries and completes them with
 * {@link ResponseSink#complete(QuerySampleResponses, int)}. Not thread-safe: one writer at a time.
 */
public final class QuerySampleResponses
{
    /** Bytes per entry. */
    public static final int ENTRY_BYTES = 32;
    /** Offset of {@code id} in an entry. */
    public static final int ID_OFFSET = 0;
    /** Offset of {@code data} (address) in an entry. */
    public static final int DATA_OFFSET = 8;
    /** Offset of {@code size} in an entry. */
    public static final int SIZE_OFFSET = 16;
    /** Offset of {@code n_tokens} in an entry. */
    public static final int TOKENS_OFFSET = 24;

    private final MemorySegment entries;
    private final int capacity;

    /**
     * @param capacity maximum number of entries.
     * @param arena    owns the memory; the array is unusable once the arena closes.
     */
    public QuerySampleResponses(final int capacity, final Arena arena)
    {
        if (capacity <= 0)
        {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.entries = arena.allocate((long)capacity * ENTRY_BYTES, 64);
    }

    /**
     * @param capacity maximum number of entries; memory is freed when this object becomes unreachable.
     */
    public QuerySampleResponses(final int capacity)
    {
        this(capacity, Arena.ofAuto());
    }

    /**
     * @return maximum number of entries.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * @return the entries' memory ({@code capacity * 32} bytes).
     */
    public MemorySegment segment()
    {
        return entries;
    }

    /**
     * Sets entry {@code i} to a response without data.
     *
     * @param i          entry.
     * @param responseId the sample's response id.
     */
    public void set(final int i, final long responseId)
    {
        set(i, responseId, 0L, 0L, 0L);
    }

    /**
     * Sets entry {@code i}.
     *
     * @param i           entry.
     * @param responseId  the sample's response id.
     * @param dataAddress address of the payload, 0 if none.
     * @param dataBytes   payload size.
     * @param tokenCount  output tokens, 0 if not a token benchmark.
     */
    public void set(final int i, final long responseId, final long dataAddress, final long dataBytes,
        final long tokenCount)
    {
        final long base = (long)i * ENTRY_BYTES;
        entries.set(ValueLayout.JAVA_LONG, base + ID_OFFSET, responseId);
        entries.set(ValueLayout.JAVA_LONG, base + DATA_OFFSET, dataAddress);
        entries.set(ValueLayout.JAVA_LONG, base + SIZE_OFFSET, dataBytes);
        entries.set(ValueLayout.JAVA_LONG, base + TOKENS_OFFSET, tokenCount);
    }

    /**
     * @param i entry.
     * @return its response id.
     */
    public long responseId(final int i)
    {
        return entries.get(ValueLayout.JAVA_LONG, (long)i * ENTRY_BYTES + ID_OFFSET);
    }

    /**
     * @param i entry.
     * @return its payload address.
     */
    public long dataAddress(final int i)
    {
        return entries.get(ValueLayout.JAVA_LONG, (long)i * ENTRY_BYTES + DATA_OFFSET);
    }

    /**
     * @param i entry.
     * @return its payload size in bytes.
     */
    public long dataBytes(final int i)
    {
        return entries.get(ValueLayout.JAVA_LONG, (long)i * ENTRY_BYTES + SIZE_OFFSET);
    }

    /**
     * @param i entry.
     * @return its token count.
     */
    public long tokenCount(final int i)
    {
        return entries.get(ValueLayout.JAVA_LONG, (long)i * ENTRY_BYTES + TOKENS_OFFSET);
    }

    /**
     * Rewrites the payload of entry {@code i}, e.g. from a {@link ResponseCallback}.
     *
     * @param i           entry.
     * @param dataAddress new payload address.
     * @param dataBytes   new payload size.
     */
    public void data(final int i, final long dataAddress, final long dataBytes)
    {
        final long base = (long)i * ENTRY_BYTES;
        entries.set(ValueLayout.JAVA_LONG, base + DATA_OFFSET, dataAddress);
        entries.set(ValueLayout.JAVA_LONG, base + SIZE_OFFSET, dataBytes);
    }
}
