package org.jloadgen.benchmarks;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.samples.ArraySource;
import org.jloadgen.samples.SampleStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading one sample of the loaded set, as a SUT does for each query: from the {@link SampleStore} slab (pinned,
 * loaded from a .npy file through the real loader) against the same bytes in an Agrona {@link UnsafeBuffer} over
 * direct memory and in a heap {@code byte[]}. Two reads: the sum of the sample's bytes (touching each byte through
 * the accessor) and a bulk copy into a heap array (what a SUT that stages input does).
 * <p>
 * Each invocation reads the next of {@value #SAMPLES} samples, so the working set is {@code SAMPLES * sampleBytes}
 * and larger samples come from L2/L3 rather than L1.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class SampleStoreBenchmark
{
    /** Samples loaded; a power of two so the next position is a mask. */
    static final int SAMPLES = 64;

    /** 64 B (a token-id row), 4 KiB, 150528 B (one ResNet-50 224x224x3 uint8 image). */
    @Param({"64", "4096", "150528"})
    int sampleBytes;

    private Path file;
    private SampleStore store;
    private MemorySegment slab;
    private UnsafeBuffer unsafeBuffer;
    private byte[] heap;
    private byte[] destination;
    private int position;

    /**
     * Writes a .npy file of {@value #SAMPLES} samples, loads it into a pinned store in shuffled order and copies
     * the loaded bytes into the two baselines, so all three read identical data at identical offsets.
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        final byte[] data = new byte[SAMPLES * sampleBytes];
        for (int i = 0; i < data.length; i++)
        {
            data[i] = (byte)(i * 31 + 7);
        }
        file = writeNpy(data);
        store = SampleStore.builder(ArraySource.npy(file))
            .memoryOptions(MemoryOptions.DEFAULT.withPinned(true).withHugePages(true)).build();
        final long[] loaded = new long[SAMPLES];
        for (int p = 0; p < SAMPLES; p++)
        {
            loaded[p] = (p * 37L) % SAMPLES;
        }
        store.load(loaded);
        slab = store.slab();

        heap = slab.toArray(ValueLayout.JAVA_BYTE);
        unsafeBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(heap.length, 4096));
        unsafeBuffer.putBytes(0, heap);
        destination = new byte[sampleBytes];
    }

    /**
     * Frees the store and deletes the file.
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        store.close();
        Files.deleteIfExists(file);
    }

    /**
     * @return sum of the sample's bytes read through the store's slab segment.
     */
    @Benchmark
    public long sumStore()
    {
        final int p = nextPosition();
        final MemorySegment slab = this.slab;
        final long offset = store.offset(p);
        final long end = offset + store.sampleBytes(p);
        long sum = 0;
        for (long i = offset; i < end; i++)
        {
            sum += slab.get(ValueLayout.JAVA_BYTE, i);
        }
        return sum;
    }

    /**
     * @return sum of the same bytes read through an Agrona UnsafeBuffer.
     */
    @Benchmark
    public long sumUnsafeBuffer()
    {
        final UnsafeBuffer buffer = unsafeBuffer;
        final int offset = nextPosition() * sampleBytes;
        final int end = offset + sampleBytes;
        long sum = 0;
        for (int i = offset; i < end; i++)
        {
            sum += buffer.getByte(i);
        }
        return sum;
    }

    /**
     * @return sum of the same bytes read from a heap array.
     */
    @Benchmark
    public long sumHeap()
    {
        final byte[] array = heap;
        final int offset = nextPosition() * sampleBytes;
        final int end = offset + sampleBytes;
        long sum = 0;
        for (int i = offset; i < end; i++)
        {
            sum += array[i];
        }
        return sum;
    }

    /**
     * @return the destination after a bulk copy of the sample out of the store.
     */
    @Benchmark
    public byte[] copyStore()
    {
        final int p = nextPosition();
        MemorySegment.copy(slab, ValueLayout.JAVA_BYTE, store.offset(p), destination, 0, (int)store.sampleBytes(p));
        return destination;
    }

    /**
     * @return the destination after a bulk copy out of the UnsafeBuffer.
     */
    @Benchmark
    public byte[] copyUnsafeBuffer()
    {
        unsafeBuffer.getBytes(nextPosition() * sampleBytes, destination, 0, sampleBytes);
        return destination;
    }

    /**
     * @return the destination after System.arraycopy from the heap array.
     */
    @Benchmark
    public byte[] copyHeap()
    {
        System.arraycopy(heap, nextPosition() * sampleBytes, destination, 0, sampleBytes);
        return destination;
    }

    private int nextPosition()
    {
        final int p = position;
        position = (p + 1) & (SAMPLES - 1);
        return p;
    }

    private Path writeNpy(final byte[] data) throws IOException
    {
        final String dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (" + SAMPLES + ", " + sampleBytes +
            "), }";
        final int headerBytes = (10 + dict.length() + 1 + 63) / 64 * 64 - 10;
        final ByteBuffer out = ByteBuffer.allocate(10 + headerBytes + data.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put(new byte[] {(byte)0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short)headerBytes);
        out.put(dict.getBytes(StandardCharsets.ISO_8859_1));
        while (out.position() < 10 + headerBytes - 1)
        {
            out.put((byte)' ');
        }
        out.put((byte)'\n').put(data);
        return Files.write(Files.createTempFile("jlg-samples-", ".npy"), out.array());
    }
}
