package org.jloadgen.sut.network.client;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleSource;

/**
 * Samples made up in memory, for loading a served model without a dataset (overhead and throughput runs): sample
 * {@code i} is {@code bytes} unsigned bytes whose first eight hold {@code i} little-endian and whose rest repeat
 * {@code i}'s low byte, so a server or a test can tell which sample arrived.
 */
public final class SyntheticSource implements SampleSource
{
    private final long count;
    private final long bytes;

    /**
     * @param count samples.
     * @param bytes bytes per sample.
     */
    public SyntheticSource(final long count, final long bytes)
    {
        if (count <= 0 || bytes < 0)
        {
            throw new IllegalArgumentException("synthetic samples need a positive count and a size >= 0: " + count
                + " x " + bytes + " bytes");
        }
        this.count = count;
        this.bytes = bytes;
    }

    /**
     * Writes sample {@code index}'s bytes.
     *
     * @param index       the sample.
     * @param destination at least {@code bytes} long.
     * @param bytes       the sample size.
     */
    public static void fill(final long index, final MemorySegment destination, final long bytes)
    {
        destination.asSlice(0, bytes).fill((byte)index);
        for (int b = 0; b < Math.min(8, bytes); b++)
        {
            destination.set(ValueLayout.JAVA_BYTE, b, (byte)(index >>> (8 * b)));
        }
    }

    @Override
    public String description()
    {
        return "synthetic samples (" + count + " x " + bytes + " bytes)";
    }

    @Override
    public long sampleCount()
    {
        return count;
    }

    @Override
    public DType dtype()
    {
        return DType.UINT8;
    }

    @Override
    public long sampleBytes(final long index)
    {
        checkIndex(index);
        return bytes;
    }

    @Override
    public long[] sampleShape(final long index)
    {
        checkIndex(index);
        return new long[] {bytes};
    }

    @Override
    public void copyTo(final long index, final MemorySegment destination)
    {
        checkIndex(index);
        fill(index, destination, bytes);
    }

    @Override
    public MemorySegment map(final long index, final Arena arena)
    {
        checkIndex(index);
        final MemorySegment sample = arena.allocate(Math.max(1, bytes)).asSlice(0, bytes);
        fill(index, sample, bytes);
        return sample;
    }

    @Override
    public void close()
    {
    }

    private void checkIndex(final long index)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException("sample " + index + " is out of range: " + description());
        }
    }
}
