package org.jloadgen.samples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.bindings.MemoryOptions;
import org.jloadgen.bindings.NativeMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One suite over every source format and layout and both placements: what is loaded at a position is the sample
 * the loaded set names there, byte for byte, and copy placement makes query ranges one block.
 */
class SampleStoreTest
{
    private static final int COUNT = 10;
    private static final int FIXED_BYTES = 24;
    private static final int SALT = 5;
    /** Shuffled, with a repeat as MultiStream padding makes. */
    private static final long[] LOADED = {7, 2, 9, 2, 0, 5};

    @TempDir
    Path tempDir;

    /** Every way samples come from disk. */
    enum Backend
    {
        NPY_ARRAY(true), RAW_ARRAY(true), NPY_FILES(true), RAW_FILES(true), NPY_FILES_VARIABLE(false),
        RAW_FILES_VARIABLE(false);

        final boolean fixedSize;

        Backend(final boolean fixedSize)
        {
            this.fixedSize = fixedSize;
        }

        int sampleBytes(final long index)
        {
            return fixedSize ? FIXED_BYTES : 5 + (int)(index % 4) * 3;
        }

        SampleSource open(final Path dir) throws IOException
        {
            return switch (this)
            {
                case NPY_ARRAY -> ArraySource.npy(TestFiles.npy(dir.resolve("all.npy"), 1,
                    TestFiles.dict("|u1", "(" + COUNT + ", 4, 6)"), TestFiles.samples(COUNT, FIXED_BYTES, SALT)));
                case RAW_ARRAY ->
                {
                    final byte[] data = TestFiles.samples(COUNT, FIXED_BYTES, SALT);
                    final byte[] file = new byte[100 + data.length];
                    System.arraycopy(data, 0, file, 100, data.length);
                    yield ArraySource.raw(Files.write(dir.resolve("all.raw"), file),
                        new RawFormat(DType.UINT8, 100, new long[] {FIXED_BYTES}), COUNT);
                }
                case NPY_FILES, NPY_FILES_VARIABLE -> FileSetSource.npy(perSampleFiles(dir, true));
                case RAW_FILES, RAW_FILES_VARIABLE -> FileSetSource.raw(perSampleFiles(dir, false),
                    new RawFormat(DType.UINT8, 0, fixedSize ? new long[] {FIXED_BYTES} : null));
            };
        }

        private List<Path> perSampleFiles(final Path dir, final boolean npy) throws IOException
        {
            final List<Path> files = new ArrayList<>();
            for (int i = 0; i < COUNT; i++)
            {
                final byte[] data = sampleContent(i, sampleBytes(i));
                final Path file = dir.resolve(String.format("sample_%03d.%s", i, npy ? "npy" : "bin"));
                files.add(npy ? TestFiles.npy(file, 1, TestFiles.dict("|u1", "(" + data.length + ",)"), data) :
                    Files.write(file, data));
            }
            return files;
        }
    }

    static Stream<Arguments> backendsAndPlacements()
    {
        return Arrays.stream(Backend.values()).flatMap(backend ->
            Arrays.stream(SampleStore.Placement.values()).map(placement -> Arguments.of(backend, placement)));
    }

    static Stream<Backend> backends()
    {
        return Arrays.stream(Backend.values());
    }

    @ParameterizedTest
    @MethodSource("backendsAndPlacements")
    void shouldServeTheLoadedSetPositionByPosition(final Backend backend, final SampleStore.Placement placement)
        throws IOException
    {
        try (SampleStore store = SampleStore.builder(backend.open(tempDir)).placement(placement).build())
        {
            assertEquals(COUNT, store.source().sampleCount());
            store.load(LOADED);

            assertTrue(store.isLoaded());
            assertEquals(LOADED.length, store.loadedCount());
            for (int p = 0; p < LOADED.length; p++)
            {
                final long index = LOADED[p];
                assertEquals(index, store.loadedIndex(p));
                assertEquals(backend.sampleBytes(index), store.sampleBytes(p));
                final MemorySegment sample = store.sample(p);
                assertArrayEquals(sampleContent(index, backend.sampleBytes(index)),
                    sample.toArray(ValueLayout.JAVA_BYTE), "position " + p);
                assertEquals(sample.address(), store.address(p));
                assertEquals(placement == SampleStore.Placement.MAPPED, sample.isReadOnly());
            }
            store.unload(LOADED.clone());
            assertFalse(store.isLoaded());
            assertEquals(0, store.loadedCount());
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void shouldMakeEveryQueryRangeOneContiguousBlockWhenCopied(final Backend backend) throws IOException
    {
        try (SampleStore store = SampleStore.builder(backend.open(tempDir)).build())
        {
            store.load(LOADED);
            final MemorySegment slab = store.slab();
            assertEquals(slab.address(), store.address(0), "slot 0 starts the slab");
            assertEquals(backend.fixedSize, store.isFixedStride());
            for (int p = 0; p < LOADED.length; p++)
            {
                if (backend.fixedSize)
                {
                    assertEquals(FIXED_BYTES, store.strideBytes());
                    assertEquals(p * (long)FIXED_BYTES, store.offset(p), "sample p at p * stride");
                }
                else if (p > 0)
                {
                    assertEquals(store.offset(p - 1) + store.sampleBytes(p - 1), store.offset(p), "packed");
                }
                assertEquals(slab.address() + store.offset(p), store.address(p));
            }
            for (int first = 0; first < LOADED.length; first++)
            {
                for (int count = 0; first + count <= LOADED.length; count++)
                {
                    assertTrue(store.isContiguous(first, count));
                    final MemorySegment range = store.range(first, count);
                    assertEquals(expectedRange(backend, first, count), range.byteSize() == 0 ? "" :
                        Arrays.toString(range.toArray(ValueLayout.JAVA_BYTE)), first + "+" + count);
                    assertEquals(range.byteSize(), store.rangeBytes(first, count));
                    if (count > 0)
                    {
                        assertEquals(store.address(first), range.address(), "one address");
                    }
                }
            }
            final ByteBuffer buffer = store.byteBuffer(1, 3);
            assertTrue(buffer.isDirect());
            assertEquals(store.rangeBytes(1, 3), buffer.remaining());
            assertEquals(sampleContent(LOADED[1], 1)[0], buffer.get(0));
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void shouldViewMappedSamplesWithoutCopyingAndSayWhenARangeIsNotContiguous(final Backend backend)
        throws IOException
    {
        try (SampleStore store = SampleStore.builder(backend.open(tempDir)).placement(SampleStore.Placement.MAPPED)
            .build())
        {
            final long[] consecutive = {3, 4, 5};
            store.load(consecutive);
            final boolean oneFile = backend == Backend.NPY_ARRAY || backend == Backend.RAW_ARRAY;
            assertEquals(oneFile, store.isContiguous(0, 3), "samples back to back in one file");
            if (oneFile)
            {
                assertEquals(expectedRange(backend, consecutive, 0, 3),
                    Arrays.toString(store.range(0, 3).toArray(ValueLayout.JAVA_BYTE)));
                assertTrue(store.range(0, 3).isReadOnly());
            }
            else
            {
                final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> store.range(0, 3));
                assertEquals("positions 0..2 are not adjacent in the mapped file(s); use Placement.COPY for " +
                    "contiguous batches", ex.getMessage());
            }
            assertThrows(IllegalStateException.class, store::slab);
            assertThrows(IllegalStateException.class, () -> store.offset(0));
            store.unload(consecutive);
        }
    }

    @ParameterizedTest
    @MethodSource("backendsAndPlacements")
    void shouldInvalidateViewsOnUnloadAndLoadTheNextSet(final Backend backend, final SampleStore.Placement placement)
        throws IOException
    {
        try (SampleStore store = SampleStore.builder(backend.open(tempDir)).placement(placement).build())
        {
            store.load(LOADED);
            final MemorySegment view = store.sample(2);
            store.unload(LOADED);
            assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> store.sample(0));

            final long[] next = {1, 8};
            store.load(next);
            assertArrayEquals(sampleContent(8, backend.sampleBytes(8)), store.sample(1).toArray(ValueLayout.JAVA_BYTE));
            store.unload(next);
        }
    }

    @Test
    void shouldPadSlotsToTheAlignmentWithZeros() throws IOException
    {
        try (SampleStore store = SampleStore.builder(Backend.NPY_FILES_VARIABLE.open(tempDir)).slotAlignment(64)
            .build())
        {
            final long[] big = {3, 7, 3, 7};
            store.load(big);
            store.slab().fill((byte)-1);
            store.unload(big);

            store.load(LOADED);
            for (int p = 0; p < LOADED.length; p++)
            {
                assertEquals(0, store.offset(p) % 64, "slot " + p);
                assertEquals(0, store.address(p) % 64, "slot " + p);
                final long end = p + 1 < LOADED.length ? store.offset(p + 1) : store.slab().byteSize();
                final MemorySegment padding = store.slab().asSlice(store.offset(p) + store.sampleBytes(p),
                    end - store.offset(p) - store.sampleBytes(p));
                assertEquals(-1, padding.mismatch(MemorySegment.ofArray(new byte[(int)padding.byteSize()])),
                    "padding after slot " + p + " is zero even in a reused slab");
                assertArrayEquals(sampleContent(LOADED[p], Backend.NPY_FILES_VARIABLE.sampleBytes(LOADED[p])),
                    store.sample(p).toArray(ValueLayout.JAVA_BYTE));
            }
        }
        assertThrows(IllegalArgumentException.class,
            () -> SampleStore.builder(Backend.NPY_ARRAY.open(tempDir)).slotAlignment(48));
    }

    @Test
    void shouldFollowLoadGensLoadUnloadProtocol() throws IOException
    {
        try (SampleStore store = SampleStore.builder(Backend.NPY_ARRAY.open(tempDir)).build())
        {
            assertEquals("unload of 2 samples but nothing is loaded",
                assertThrows(IllegalStateException.class, () -> store.unload(new long[] {1, 2})).getMessage());

            store.load(LOADED);
            assertEquals("load of 2 samples while 6 are loaded: unload them first",
                assertThrows(IllegalStateException.class, () -> store.load(new long[] {1, 2})).getMessage());
            assertEquals("unload does not match the loaded set of 6 samples: position 1 is QSL index 3, loaded was 2",
                assertThrows(IllegalArgumentException.class, () -> store.unload(new long[] {7, 3, 9, 2, 0, 5}))
                    .getMessage());
            assertEquals("unload does not match the loaded set of 6 samples: 5 indices given",
                assertThrows(IllegalArgumentException.class, () -> store.unload(new long[] {7, 2, 9, 2, 0}))
                    .getMessage());
            store.unload(LOADED);

            final IndexOutOfBoundsException ex =
                assertThrows(IndexOutOfBoundsException.class, () -> store.load(new long[] {0, 10}));
            assertTrue(ex.getMessage().startsWith("QSL index 10 at position 1 of the loaded set is out of range: "),
                ex.getMessage());
            assertTrue(ex.getMessage().endsWith(" has 10 samples"), ex.getMessage());
            assertFalse(store.isLoaded(), "a failed load loads nothing");

            store.load(new long[0]);
            assertEquals(0, store.loadedCount());
            assertEquals(0, store.range(0, 0).byteSize());
            store.unload(new long[0]);
        }
    }

    @Test
    void shouldReportAFileThatBrokeSinceOpeningWithItsNameAndOffset() throws IOException
    {
        try (SampleStore store = SampleStore.builder(Backend.NPY_FILES.open(tempDir)).build())
        {
            final Path file = tempDir.resolve("sample_002.npy");
            // Its data starts at 128; keep 10 of its 24 bytes.
            Files.write(file, Arrays.copyOf(Files.readAllBytes(file), 128 + 10));

            final UncheckedIOException ex = assertThrows(UncheckedIOException.class, () -> store.load(LOADED));
            assertTrue(ex.getMessage().startsWith(file + ": at byte offset 138: truncated since it was opened"),
                ex.getMessage());
            assertTrue(ex.getCause() instanceof SampleFormatException);
            assertFalse(store.isLoaded());
        }
    }

    @Test
    void shouldPinTheSlabAndMappedSamples() throws IOException
    {
        final long before = NativeMemory.lockedBytes();
        try (SampleStore store = SampleStore.builder(Backend.NPY_ARRAY.open(tempDir))
            .memoryOptions(MemoryOptions.DEFAULT.withPinned(true).withHugePages(true)).build())
        {
            store.load(LOADED);
            assertTrue(store.isPinned(), store.warnings().toString());
            assertTrue(NativeMemory.lockedBytes() > before);
            assertEquals(0, store.address(0) % NativeMemory.hugePageSize(), "huge-page aligned slab");
        }
        assertEquals(before, NativeMemory.lockedBytes(), "closing frees the slab");

        try (SampleStore store = SampleStore.builder(Backend.NPY_FILES.open(tempDir))
            .placement(SampleStore.Placement.MAPPED).memoryOptions(MemoryOptions.DEFAULT.withPinned(true)
                .withNumaNode(0)).build())
        {
            store.load(LOADED);
            assertTrue(store.isPinned(), store.warnings().toString());
            assertTrue(NativeMemory.lockedBytes() > before);
            assertEquals(List.of("huge pages and NUMA binding apply to copied samples only; mapped samples stay in " +
                "the page cache where the kernel put them"), store.warnings());
            store.unload(LOADED);
            assertEquals(before, NativeMemory.lockedBytes(), "unload unlocks mapped samples");
        }
    }

    @Test
    void shouldActAsTheQuerySampleLibrary() throws IOException
    {
        final SampleStore store = SampleStore.builder(Backend.RAW_ARRAY.open(tempDir)).build();
        try (SampleStoreLibrary qsl = new SampleStoreLibrary("raw-qsl", store, 6))
        {
            assertEquals("raw-qsl", qsl.name());
            assertEquals(COUNT, qsl.totalSampleCount());
            assertEquals(6, qsl.performanceSampleCount());
            qsl.loadSamplesToRam(LOADED);
            assertArrayEquals(sampleContent(9, FIXED_BYTES), qsl.store().sample(2).toArray(ValueLayout.JAVA_BYTE));
            qsl.unloadSamplesFromRam(LOADED);
            assertFalse(store.isLoaded());
            assertThrows(IllegalArgumentException.class, () -> new SampleStoreLibrary("x", store, 11));
            assertThrows(IllegalArgumentException.class, () -> new SampleStoreLibrary("x", store, 0));
        }
    }

    private static byte[] sampleContent(final long index, final int bytes)
    {
        final byte[] content = new byte[bytes];
        for (int k = 0; k < bytes; k++)
        {
            content[k] = TestFiles.expected(index, k, SALT);
        }
        return content;
    }

    private static String expectedRange(final Backend backend, final int first, final int count)
    {
        return expectedRange(backend, LOADED, first, count);
    }

    private static String expectedRange(final Backend backend, final long[] loaded, final int first, final int count)
    {
        if (count == 0)
        {
            return "";
        }
        final List<Byte> bytes = new ArrayList<>();
        for (int p = first; p < first + count; p++)
        {
            for (final byte b : sampleContent(loaded[p], backend.sampleBytes(loaded[p])))
            {
                bytes.add(b);
            }
        }
        return bytes.toString();
    }
}
