package org.jloadgen.samples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SourcesTest
{
    @TempDir
    Path tempDir;

    @Test
    void shouldServeSamplesOfANumpyArrayAlongTheFirstAxis() throws IOException
    {
        try (ArraySource source = ArraySource.npy(TestFiles.golden("v2_f4_4x3.npy")); Arena arena = Arena.ofConfined())
        {
            assertEquals(4, source.sampleCount());
            assertEquals(DType.FLOAT32, source.dtype());
            assertEquals(12, source.sampleBytes(3));
            assertArrayEquals(new long[] {3}, source.sampleShape(0));
            final MemorySegment copy = arena.allocate(12);
            source.copyTo(2, copy);
            assertArrayEquals(new float[] {1.5f, 1.75f, 2.0f},
                copy.toArray(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)));
            assertEquals(-1, copy.mismatch(source.map(2, arena)));
            assertTrue(source.map(2, arena).isReadOnly());
            assertTrue(source.description().contains("(.npy 2.0, <f4 (4, 3))"), source.description());
        }
    }

    @Test
    void shouldKeepBigEndianBytesAsTheyAreAndSayTheOrder() throws IOException
    {
        try (ArraySource source = ArraySource.npy(TestFiles.golden("v3_i8be_3x2.npy"));
            Arena arena = Arena.ofConfined())
        {
            assertEquals(ByteOrder.BIG_ENDIAN, source.dtype().order());
            final MemorySegment sample = source.map(1, arena);
            assertArrayEquals(new long[] {1993, 2993},
                sample.toArray(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN)));
        }
    }

    @Test
    void shouldRejectArraysWhoseSamplesAreNotContiguous()
    {
        final SampleFormatException fortran = assertThrows(SampleFormatException.class,
            () -> ArraySource.npy(TestFiles.golden("fortran_f4_2x3.npy")));
        assertEquals(128, fortran.offset());
        assertTrue(fortran.getMessage().contains("is in Fortran order, so a sample's elements are not contiguous; " +
            "re-save it with numpy.save(path, numpy.ascontiguousarray(array))"), fortran.getMessage());
    }

    @Test
    void shouldRejectAScalarAsAnArrayOfSamples() throws IOException
    {
        final Path scalar = TestFiles.npy(tempDir.resolve("scalar.npy"), 1, TestFiles.dict("<i4", "()"), new byte[4]);
        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> ArraySource.npy(scalar));
        assertTrue(ex.getMessage().contains("the array is a scalar"), ex.getMessage());
    }

    @Test
    void shouldReadRawArraysWithAHeaderAndInferTheCount() throws IOException
    {
        final byte[] data = TestFiles.samples(6, 10, 3);
        final byte[] file = new byte[16 + data.length];
        System.arraycopy(data, 0, file, 16, data.length);
        final Path path = Files.write(tempDir.resolve("raw.bin"), file);

        try (ArraySource source = ArraySource.raw(path, new RawFormat(DType.INT8, 16, new long[] {2, 5}), -1);
            Arena arena = Arena.ofConfined())
        {
            assertEquals(6, source.sampleCount());
            assertEquals(10, source.sampleBytes(5));
            assertArrayEquals(Arrays.copyOfRange(data, 40, 50), source.map(4, arena).toArray(ValueLayout.JAVA_BYTE));
        }
        try (ArraySource source = ArraySource.raw(path, new RawFormat(DType.INT8, 16, new long[] {2, 5}), 4))
        {
            assertEquals(4, source.sampleCount(), "an explicit count may leave bytes unread");
        }
    }

    @Test
    void shouldNameTheCutSampleOfATruncatedRawArray() throws IOException
    {
        final Path path = Files.write(tempDir.resolve("cut.bin"), new byte[8 + 3 * 12 + 5]);
        final RawFormat format = new RawFormat(DType.FLOAT32, 8, new long[] {3});

        final SampleFormatException inferred = assertThrows(SampleFormatException.class,
            () -> ArraySource.raw(path, format, -1));
        assertEquals(44, inferred.offset());
        assertTrue(inferred.getMessage().endsWith("truncated: sample 3 starts here but only 5 of its 12 bytes follow " +
            "(RawFormat{<f4, headerBytes=8, sampleShape=(3,)})"), inferred.getMessage());

        final SampleFormatException counted = assertThrows(SampleFormatException.class,
            () -> ArraySource.raw(path, format, 5));
        assertEquals(49, counted.offset());
        assertTrue(counted.getMessage().endsWith("truncated: 5 samples of 12 bytes after a 8-byte header need 68 " +
            "bytes, the file has 49 (sample 3 is cut)"), counted.getMessage());

        final Path tiny = Files.write(tempDir.resolve("tiny.bin"), new byte[3]);
        assertEquals(3, assertThrows(SampleFormatException.class, () -> ArraySource.raw(tiny, format, -1)).offset());
    }

    @Test
    void shouldReadOneNumpyFilePerSampleOfVaryingShape() throws IOException
    {
        final List<Path> files = FileSetSource.filesIn(TestFiles.golden("per_sample"), "*.npy");
        assertEquals(List.of("000.npy", "001.npy", "002.npy", "003.npy"),
            files.stream().map(f -> f.getFileName().toString()).toList());
        try (FileSetSource source = FileSetSource.npy(files); Arena arena = Arena.ofConfined())
        {
            assertEquals(4, source.sampleCount());
            assertEquals(DType.INT32, source.dtype());
            for (int i = 0; i < 4; i++)
            {
                assertArrayEquals(new long[] {i + 1, 2}, source.sampleShape(i));
                assertEquals((i + 1) * 2 * 4L, source.sampleBytes(i));
                final MemorySegment copy = arena.allocate(source.sampleBytes(i));
                source.copyTo(i, copy);
                final int base = i * 100;
                final int[] expected = new int[(i + 1) * 2];
                Arrays.setAll(expected, k -> base + k);
                assertArrayEquals(expected, copy.toArray(ValueLayout.JAVA_INT_UNALIGNED));
                assertEquals(-1, copy.mismatch(source.map(i, arena)));
            }
        }
    }

    @Test
    void shouldRejectPerSampleFilesOfAnotherDtypeNamingTheFile() throws IOException
    {
        final Path a = TestFiles.npy(tempDir.resolve("a.npy"), 1, TestFiles.dict("<f4", "(2,)"), new byte[8]);
        final Path b = TestFiles.npy(tempDir.resolve("b.npy"), 1, TestFiles.dict("<f8", "(2,)"), new byte[16]);

        final SampleFormatException ex = assertThrows(SampleFormatException.class,
            () -> FileSetSource.npy(List.of(a, b)));
        assertEquals(b, ex.file());
        // TestFiles pads this header to 128 bytes, as NumPy would.
        assertEquals(b + ": at byte offset 128: dtype <f8 differs from <f4 of the first file " + a, ex.getMessage());
    }

    @Test
    void shouldReadRawFilesPerSampleWithOrWithoutAShape() throws IOException
    {
        final Path a = Files.write(tempDir.resolve("a.raw"), new byte[] {9, 9, 1, 0, 2, 0});
        final Path b = Files.write(tempDir.resolve("b.raw"), new byte[] {9, 9, 3, 0, 4, 0, 5, 0, 6, 0});

        try (FileSetSource source = FileSetSource.raw(List.of(a, b), new RawFormat(DType.parse("<u2"), 2, null));
            Arena arena = Arena.ofConfined())
        {
            assertArrayEquals(new long[] {2}, source.sampleShape(0));
            assertArrayEquals(new long[] {4}, source.sampleShape(1));
            assertArrayEquals(new short[] {3, 4, 5, 6}, source.map(1, arena).toArray(ValueLayout.JAVA_SHORT_UNALIGNED));
        }
        final SampleFormatException padded = assertThrows(SampleFormatException.class,
            () -> FileSetSource.raw(List.of(a, b), new RawFormat(DType.parse("<u2"), 2, new long[] {2})));
        assertEquals(b, padded.file());
        assertEquals(6, padded.offset());

        final Path odd = Files.write(tempDir.resolve("odd.raw"), new byte[] {1, 2, 3});
        final SampleFormatException cut = assertThrows(SampleFormatException.class,
            () -> FileSetSource.raw(List.of(odd), new RawFormat(DType.parse("<u2"), 0, null)));
        assertEquals(2, cut.offset());
        assertTrue(cut.getMessage().endsWith("truncated: the last element has 1 of its 2 bytes (RawFormat{<u2, " +
            "headerBytes=0, sampleShape=from file size})"), cut.getMessage());
    }

    @Test
    void shouldFollowAListFileAndNameItsBadLine() throws IOException
    {
        final Path dir = Files.createDirectories(tempDir.resolve("data"));
        TestFiles.npy(dir.resolve("img_2.JPEG.npy"), 1, TestFiles.dict("|u1", "(3,)"), new byte[] {7, 8, 9});
        TestFiles.npy(dir.resolve("img_1.JPEG.npy"), 1, TestFiles.dict("|u1", "(3,)"), new byte[] {1, 2, 3});
        final Path list = Files.writeString(tempDir.resolve("val_map.txt"), "img_2.JPEG 65\n\nimg_1.JPEG 970\n");

        final List<Path> files = FileSetSource.filesListed(dir, list, ".npy");
        assertEquals(List.of(dir.resolve("img_2.JPEG.npy"), dir.resolve("img_1.JPEG.npy")), files);

        Files.writeString(list, "img_2.JPEG 65\nimg_3.JPEG 1\n", StandardCharsets.UTF_8);
        final SampleFormatException ex = assertThrows(SampleFormatException.class,
            () -> FileSetSource.filesListed(dir, list, ".npy"));
        assertEquals(list + ": at byte offset 14: line 2 names " + dir.resolve("img_3.JPEG.npy") +
            ", which does not exist", ex.getMessage());
        assertThrows(IOException.class, () -> FileSetSource.filesIn(dir, "*.bin"));
    }

    @Test
    void shouldNameTheFileAndOffsetWhenAFileShrinksAfterOpening() throws IOException
    {
        final Path file = TestFiles.npy(tempDir.resolve("s.npy"), 1, TestFiles.dict("|u1", "(100,)"), new byte[100]);
        try (FileSetSource source = FileSetSource.npy(List.of(file)); Arena arena = Arena.ofConfined())
        {
            // The data starts at 128; keep 40 of its 100 bytes.
            Files.write(file, Arrays.copyOf(Files.readAllBytes(file), 128 + 40));
            final SampleFormatException copy = assertThrows(SampleFormatException.class,
                () -> source.copyTo(0, arena.allocate(100)));
            assertEquals(168, copy.offset());
            assertTrue(copy.getMessage().startsWith(file + ": at byte offset 168: truncated since it was opened"),
                copy.getMessage());
            assertEquals(168, assertThrows(SampleFormatException.class, () -> source.map(0, arena)).offset());
        }
    }

    @Test
    void shouldRejectIndicesOutsideTheSource() throws IOException
    {
        try (ArraySource source = ArraySource.npy(TestFiles.golden("v1_u1_5x2x3.npy")))
        {
            final IndexOutOfBoundsException ex =
                assertThrows(IndexOutOfBoundsException.class, () -> source.sampleBytes(5));
            assertTrue(ex.getMessage().startsWith("sample 5 is out of range: "), ex.getMessage());
            assertTrue(ex.getMessage().endsWith(" has 5 samples"), ex.getMessage());
        }
    }
}
